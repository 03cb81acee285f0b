@testable import VergeCollections
import VergeTestSupport
import XCTest

/// A write by id while an older version is held copies each branch on its
/// path without retaining the children it shares: the copy borrows them
/// from a lender it retains. These check that no element is freed while a
/// version still reaches it, that none outlives every version, and that
/// structural changes on a borrowing version keep both right, whatever
/// the order the versions go in.
final class IdentifiedArrayBorrowingTests: XCTestCase {
  private static let size = 6_000

  private enum DropOrder: CaseIterable { case newestFirst, oldestFirst, interleaved }

  func testHeldWritesThenVersionsDroppedInEveryOrder() {
    for order in DropOrder.allCases {
      for seed: UInt64 in [1, 2] {
        heldWrites(order: order, seed: seed)
      }
    }
  }

  private func heldWrites(order: DropOrder, seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var weak: [WeakTracked] = []
    do {
      var model = (0..<Self.size).map { Tracked($0) }
      weak = model.map { WeakTracked($0) }
      var array = IdentifiedArray(uniqueElements: model.enumerated().map { TrackedRow(id: $0.offset, payload: $0.element) })
      var versions: [(array: IdentifiedArray<Int, TrackedRow>, model: [Tracked])] = []
      for step in 0..<600 {
        // Every write is held against the previous version; some ids are
        // written again and again, so that borrowing branches replace
        // their own children and settle.
        if step % 3 == 0 { versions.append((array, model)) }
        let id = step % 5 == 0 ? Int.random(in: 0..<8, using: &rng) : Int.random(in: 0..<Self.size, using: &rng)
        let payload = Tracked(Self.size + step)
        weak.append(WeakTracked(payload))
        if step % 4 == 1 {
          // By position too (the descent by index borrows as well).
          array[id].payload = payload
        } else {
          array[id: id]?.payload = payload
        }
        model[id] = payload
        if step % 50 == 0 { check(array, model) }
      }
      versions.append((array, model))
      array = IdentifiedArray()
      // Drop the versions, checking the ones left.
      var remaining = versions
      var turn = 0
      while !remaining.isEmpty {
        switch order {
        case .newestFirst: remaining.removeLast()
        case .oldestFirst: remaining.removeFirst()
        case .interleaved: remaining.remove(at: turn % 2 == 0 ? remaining.count / 2 : Int.random(in: 0..<remaining.count, using: &rng))
        }
        turn += 1
        if turn % 40 == 0 || remaining.count <= 2 {
          for version in remaining { check(version.array, version.model) }
        }
      }
      versions = []
      model = []
      XCTAssertTrue(array.isEmpty)
    }
    let alive = weak.filter { $0.value != nil }.count
    XCTAssertEqual(alive, 0, "payloads alive after every version went (\(order), seed \(seed))")
  }

  /// Structural changes (insertions, removals, moves, sorts, swaps) on a
  /// version whose branches borrow, with older versions held.
  func testStructuralChangesOnABorrowingVersion() {
    var rng = SplitMix64(seed: 7)
    var weak: [WeakTracked] = []
    do {
      var model = (0..<Self.size).map { TrackedRow(id: $0, payload: Tracked($0)) }
      weak = model.map { WeakTracked($0.payload) }
      var array = IdentifiedArray(uniqueElements: model)
      var held: [(IdentifiedArray<Int, TrackedRow>, [TrackedRow])] = []
      var nextID = Self.size
      for step in 0..<300 {
        held.append((array, model))
        if held.count > 6 { held.remove(at: Int.random(in: 0..<held.count, using: &rng)) }
        // A few held writes by id, so that the path borrows…
        for _ in 0..<3 {
          guard !model.isEmpty else { break }
          let index = Int.random(in: 0..<model.count, using: &rng)
          let payload = Tracked(nextID)
          nextID += 1
          weak.append(WeakTracked(payload))
          array[id: model[index].id]?.payload = payload
          model[index].payload = payload
        }
        // …then a structural change on the borrowing version.
        switch step % 6 {
        case 0:
          let payload = Tracked(nextID)
          weak.append(WeakTracked(payload))
          let element = TrackedRow(id: nextID, payload: payload)
          nextID += 1
          let index = Int.random(in: 0...model.count, using: &rng)
          array.insert(element, at: index)
          model.insert(element, at: index)
        case 1:
          let index = Int.random(in: 0..<model.count, using: &rng)
          array.remove(id: model[index].id)
          model.remove(at: index)
        case 2:
          let start = Int.random(in: 0..<(model.count - 100), using: &rng)
          let range = start..<(start + Int.random(in: 1..<100, using: &rng))
          array.removeSubrange(range)
          model.removeSubrange(range)
        case 3:
          let source = IndexSet(integersIn: Int.random(in: 0..<(model.count - 50), using: &rng)..<model.count - 10)
          let destination = Int.random(in: 0...model.count, using: &rng)
          array.move(fromOffsets: source, toOffset: destination)
          let moved = source.map { model[$0] }
          for index in source.reversed() { model.remove(at: index) }
          let target = destination - source.count(in: 0..<destination)
          model.insert(contentsOf: moved, at: target)
        case 4:
          let i = Int.random(in: 0..<model.count, using: &rng)
          let j = Int.random(in: 0..<model.count, using: &rng)
          array.swapAt(i, j)
          model.swapAt(i, j)
        default:
          if step % 12 == 5 {
            array.sort { $0.payload.number % 7 < $1.payload.number % 7 || ($0.payload.number % 7 == $1.payload.number % 7 && $0.id < $1.id) }
            model.sort { $0.payload.number % 7 < $1.payload.number % 7 || ($0.payload.number % 7 == $1.payload.number % 7 && $0.id < $1.id) }
          } else {
            for _ in 0..<40 {
              let payload = Tracked(nextID)
              weak.append(WeakTracked(payload))
              let element = TrackedRow(id: nextID, payload: payload)
              nextID += 1
              array.append(element)
              model.append(element)
            }
          }
        }
        if step % 10 == 0 {
          XCTAssertEqual(array.invariantViolations(), [])
          check(array, model)
        }
      }
      check(array, model)
      for (version, expected) in held { check(version, expected) }
      held.removeAll()
      check(array, model)
      XCTAssertEqual(array.invariantViolations(), [])
    }
    XCTAssertEqual(weak.filter { $0.value != nil }.count, 0, "payloads alive after every version went")
  }

  /// The old elements a borrowing version's lender keeps are released as
  /// soon as that version settles, and the version's own are released
  /// exactly when it goes.
  func testABorrowingVersionReleasesWhatItsLenderKeptWhenItSettles() {
    var weak: [WeakTracked] = []
    do {
      var array = IdentifiedArray(uniqueElements: (0..<Self.size).map { TrackedRow(id: $0, payload: Tracked($0)) })
      weak = array.map { WeakTracked($0.payload) }
      for round in 0..<20 {
        let held = array
        let id = (round * 997) % Self.size
        array[id: id]?.payload = Tracked(-id)
        XCTAssertEqual(held[id: id]?.payload.number, id)
        XCTAssertEqual(array[id: id]?.payload.number, -id)
      }
      // A structural change settles the branches on the path it takes,
      // which releases their lenders and the old children those kept.
      array.remove(id: 1)
      XCTAssertNil(weak[1].value)
      XCTAssertNil(weak[0].value, "the replaced element went with the settled branch's lender")
      XCTAssertNotNil(weak[2].value)
    }
    XCTAssertTrue(weak.allSatisfy { $0.value == nil })
  }

  private func check(_ array: IdentifiedArray<Int, TrackedRow>, _ model: [Tracked], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(array.count, model.count, file: file, line: line)
    var index = 0
    for element in array {
      guard element.id == index, element.payload === model[index] else {
        XCTFail("element \(index) differs", file: file, line: line)
        return
      }
      index += 1
    }
    for id in stride(from: 0, to: model.count, by: 37) where array[id: id]?.payload !== model[id] {
      XCTFail("element \(id) by id differs", file: file, line: line)
      return
    }
  }

  private func check(_ array: IdentifiedArray<Int, TrackedRow>, _ model: [TrackedRow], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(array.count, model.count, file: file, line: line)
    var index = 0
    for element in array {
      guard element.id == model[index].id, element.payload === model[index].payload else {
        XCTFail("element \(index) differs", file: file, line: line)
        return
      }
      index += 1
    }
    for element in model.prefix(200) where array[id: element.id]?.payload !== element.payload {
      XCTFail("element \(element.id) by id differs", file: file, line: line)
      return
    }
  }
}
