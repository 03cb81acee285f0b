import Foundation
@testable import VergeCollections
import VergeTestSupport
import XCTest

/// Random sequences of operations run against an `IdentifiedArray` and a
/// plain `[Element]` reference, compared after every step, while older
/// copies are held and checked unchanged at the end (value semantics under
/// structural sharing). Seeded, so a failure reproduces.
final class IdentifiedArrayModelTests: XCTestCase {
  struct Item: Equatable, Hashable, Sendable {
    var key: CollidingKey
    var value: Int
  }

  func testMatchesArrayUnderRandomOperations() {
    for seed: UInt64 in [1, 2] {
      run(seed: seed, steps: 1_500, idRange: 3_000, initial: 1_200, make: { Row($0, "") }, id: \Row.id)
    }
    // Three levels of branches and leaves.
    run(seed: 3, steps: 1_500, idRange: 20_000, initial: 10_000, make: { Row($0, "") }, id: \Row.id)
  }

  func testMatchesArrayWithCollidingIDs() {
    run(seed: 9, steps: 800, idRange: 400, initial: 150, make: { Item(key: CollidingKey(value: $0), value: 0) }, id: \Item.key)
  }

  private func run<ID: Hashable, Element: Equatable & Hashable>(
    seed: UInt64, steps: Int, idRange: Int, initial: Int,
    make: (Int) -> Element, id idPath: KeyPath<Element, ID>
  ) where Element: ValueCarrying {
    var rng = SplitMix64(seed: seed)
    var reference: [Element] = []
    var usedIDs = Set<Int>()
    for _ in 0..<initial {
      let raw = Int.random(in: 0..<idRange, using: &rng)
      if usedIDs.insert(raw).inserted { reference.append(make(raw)) }
    }
    var array = IdentifiedArray(uniqueElements: reference, id: idPath)
    var snapshots: [(IdentifiedArray<ID, Element>, [Element])] = []
    func indexOf(_ id: ID) -> Int? { reference.firstIndex { $0[keyPath: idPath] == id } }

    for step in 0..<steps {
      let raw = Int.random(in: 0..<idRange, using: &rng)
      let element = make(raw).with(value: step)
      let elementID = element[keyPath: idPath]
      let operation = Int.random(in: 0..<15, using: &rng)
      var what = ""
      switch operation {
      case 0:
        what = "append"
        let result = array.append(element)
        if let existing = indexOf(elementID) {
          XCTAssertTrue(result == (false, existing))
        } else {
          reference.append(element)
          XCTAssertTrue(result == (true, reference.count - 1))
        }
      case 1:
        let index = Int.random(in: 0...reference.count, using: &rng)
        what = "insert at \(index)"
        let result = array.insert(element, at: index)
        if let existing = indexOf(elementID) {
          XCTAssertTrue(result == (false, existing))
        } else {
          reference.insert(element, at: index)
          XCTAssertTrue(result == (true, index))
        }
      case 2:
        what = "remove(id:)"
        let removed = array.remove(id: elementID)
        XCTAssertEqual(removed, indexOf(elementID).map { reference.remove(at: $0) })
      case 3 where !reference.isEmpty:
        let index = Int.random(in: 0..<reference.count, using: &rng)
        what = "remove(at: \(index))"
        XCTAssertEqual(array.remove(at: index), reference.remove(at: index))
      case 4, 5:
        what = "subscript(id:) write"
        let target = reference.isEmpty ? elementID : reference[Int.random(in: 0..<reference.count, using: &rng)][keyPath: idPath]
        if let index = indexOf(target) {
          let updated = reference[index].with(value: step)
          if step.isMultiple(of: 2) {
            array[id: target] = updated
          } else {
            array[id: target]?.setValue(step)
          }
          reference[index] = updated
        } else {
          if step.isMultiple(of: 2) {
            array[id: target] = element
          } else {
            assign(&array[id: target], element)
          }
          reference.append(element)
        }
      case 6:
        what = "subscript(id:) = nil"
        if step.isMultiple(of: 2) {
          array[id: elementID] = nil
        } else {
          // Through the modify accessor: a missing id stays missing, a present one goes.
          array[id: elementID]?.setValue(0)
          if indexOf(elementID) == nil { XCTAssertNil(array[id: elementID]) }
          modifyToNil(&array[id: elementID])
        }
        if let index = indexOf(elementID) { reference.remove(at: index) }
      case 7 where !reference.isEmpty:
        let index = Int.random(in: 0..<reference.count, using: &rng)
        what = "index write \(index)"
        if step.isMultiple(of: 2) {
          array[index] = reference[index].with(value: -step)
        } else {
          array[index].setValue(-step)
        }
        reference[index] = reference[index].with(value: -step)
      case 8:
        what = "updateOrAppend"
        let old = array.updateOrAppend(element)
        if let index = indexOf(elementID) {
          XCTAssertEqual(old, reference[index])
          reference[index] = element
        } else {
          XCTAssertNil(old)
          reference.append(element)
        }
      case 9:
        let index = Int.random(in: 0...reference.count, using: &rng)
        what = "updateOrInsert at \(index)"
        let result = array.updateOrInsert(element, at: index)
        if let existing = indexOf(elementID) {
          XCTAssertEqual(result.originalMember, reference[existing])
          XCTAssertEqual(result.index, existing)
          reference[existing] = element
        } else {
          XCTAssertNil(result.originalMember)
          reference.insert(element, at: index)
        }
      case 10 where !reference.isEmpty:
        var offsets = IndexSet()
        for _ in 0..<Int.random(in: 1...4, using: &rng) { offsets.insert(Int.random(in: 0..<reference.count, using: &rng)) }
        let destination = Int.random(in: 0...reference.count, using: &rng)
        what = "move \(Array(offsets)) to \(destination)"
        array.move(fromOffsets: offsets, toOffset: destination)
        let moved = offsets.map { reference[$0] }
        for index in offsets.reversed() { reference.remove(at: index) }
        reference.insert(contentsOf: moved, at: destination - offsets.count(in: 0..<destination))
      case 11 where !reference.isEmpty:
        let i = Int.random(in: 0..<reference.count, using: &rng)
        let j = Int.random(in: 0..<reference.count, using: &rng)
        what = "swapAt(\(i), \(j))"
        array.swapAt(i, j)
        reference.swapAt(i, j)
      case 12:
        let modulus = Int.random(in: 2...60, using: &rng)
        what = "removeAll(where: value % \(modulus) == 0)"
        array.removeAll { $0.number % modulus == 0 }
        reference.removeAll { $0.number % modulus == 0 }
      case 13 where step % 50 == 0:
        what = "sort, reverse, filter"
        array.sort { $0.number < $1.number }
        reference.sort { $0.number < $1.number }
        array.reverse()
        reference.reverse()
        array = array.filter { $0.number % 7 != 3 }
        reference = reference.filter { $0.number % 7 != 3 }
      default:
        what = "snapshot"
        snapshots.append((array, reference))
      }
      XCTAssertEqual(array.count, reference.count, "step \(step): \(what)")
      if step % 25 == 0 || array.count < 40 {
        XCTAssertEqual(array.elements, reference, "step \(step): \(what)")
      }
      let probe = reference.isEmpty ? elementID : reference[Int.random(in: 0..<reference.count, using: &rng)][keyPath: idPath]
      XCTAssertEqual(array.index(id: probe), indexOf(probe), "step \(step): \(what)")
      XCTAssertEqual(array[id: probe], indexOf(probe).map { reference[$0] }, "step \(step): \(what)")
      if step % 100 == 0 {
        XCTAssertEqual(array.invariantViolations(), [], "step \(step): \(what)")
        let rebuilt = IdentifiedArray(uniqueElements: reference, id: idPath)
        XCTAssertEqual(array, rebuilt)
        XCTAssertEqual(array.hashValue, rebuilt.hashValue)
      }
      if XCTestCase.failureCount(self) > 0 { return }
    }
    XCTAssertEqual(array.elements, reference)
    for (copy, expected) in snapshots {
      XCTAssertEqual(copy.elements, expected, "a held copy changed")
      XCTAssertEqual(copy.invariantViolations(), [])
      XCTAssertEqual(copy, IdentifiedArray(uniqueElements: expected, id: idPath))
    }
  }
}

/// Sets an optional to `nil` through `inout`, so that a subscript's modify
/// accessor sees it.
private func modifyToNil<Value>(_ value: inout Value?) {
  value = nil
}

/// Assigns through `inout`, so that a subscript's modify accessor sees it.
private func assign<Value>(_ target: inout Value?, _ value: Value) {
  target = value
}

/// Elements whose value a step can set, keeping the id.
protocol ValueCarrying {
  func with(value: Int) -> Self
  var number: Int { get }
}

extension ValueCarrying {
  /// Sets the value in place (through a modify accessor when called on an
  /// array's element).
  mutating func setValue(_ value: Int) {
    self = with(value: value)
  }
}

extension Row: ValueCarrying {
  func with(value: Int) -> Row { Row(id, String(value)) }
  var number: Int { Int(value) ?? 0 }
}

extension IdentifiedArrayModelTests.Item: ValueCarrying {
  func with(value: Int) -> Self { Self(key: key, value: value) }
  var number: Int { value }
}

extension XCTestCase {
  /// The number of failures recorded so far, to stop a random run at its
  /// first divergence.
  fileprivate static func failureCount(_ test: XCTestCase) -> Int {
    test.testRun?.failureCount ?? 0
  }
}
