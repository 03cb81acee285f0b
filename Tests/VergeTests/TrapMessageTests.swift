import Foundation
import Verge
import VergeTestSupport
import XCTest

private struct Numbered: Identifiable, Equatable, Sendable {
  let id: Int
  var value = 0
}

/// A trap and the message it must print.
private struct Trap: Sendable {
  let name: String
  let message: String
  let body: @Sendable () -> Void
}

/// The index checks of `IdentifiedArray`, each with the message its
/// documentation promises. A `precondition`'s message is dropped in an
/// optimized build, where the program then ends with a bare "Illegal
/// instruction"; these traps print theirs in every build. `.ci/run` runs
/// this test in an optimized build too.
private let traps: [Trap] = [
  Trap(name: "Read", message: "IdentifiedArray: index 3 out of range 0..<3") {
    _ = three()[3]
  },
  Trap(name: "Write", message: "IdentifiedArray: index -1 out of range 0..<3") {
    var array = three()
    array[-1] = Numbered(id: 1)
  },
  Trap(name: "Modify", message: "IdentifiedArray: index 5 out of range 0..<3") {
    var array = three()
    array[5].value += 1
  },
  Trap(name: "Insert", message: "IdentifiedArray: insertion index 4 out of range 0...3") {
    var array = three()
    array.insert(Numbered(id: 9), at: 4)
  },
  Trap(name: "UpdateOrInsert", message: "IdentifiedArray: insertion index 7 out of range 0...3") {
    var array = three()
    array.updateOrInsert(Numbered(id: 9), at: 7)
  },
  Trap(name: "RemoveAt", message: "IdentifiedArray: index 3 out of range 0..<3") {
    var array = three()
    array.remove(at: 3)
  },
  Trap(name: "RemoveAtOffsets", message: "IdentifiedArray: offsets out of range 0..<3") {
    var array = three()
    array.remove(atOffsets: [1, 5])
  },
  Trap(name: "MoveDestination", message: "IdentifiedArray: destination 4 out of range 0...3") {
    var array = three()
    array.move(fromOffsets: [0], toOffset: 4)
  },
  Trap(name: "MoveSource", message: "IdentifiedArray: source offsets out of range 0..<3") {
    var array = three()
    array.move(fromOffsets: [3], toOffset: 0)
  },
  Trap(name: "SwapAt", message: "IdentifiedArray: index out of range 0..<3") {
    var array = three()
    array.swapAt(0, 3)
  },
  Trap(name: "ReplaceSubrange", message: "IdentifiedArray: range 2..<4 out of range 0...3") {
    var array = three()
    array.replaceSubrange(2..<4, with: [Numbered(id: 9)])
  },
  Trap(name: "RemoveSubrange", message: "IdentifiedArray: range -1..<1 out of range 0...3") {
    var array = three()
    array.removeSubrange(-1..<1)
  },
  Trap(name: "RemoveFirst", message: "IdentifiedArray: removeFirst() on an empty array") {
    var array = IdentifiedArrayOf<Numbered>()
    array.removeFirst()
  },
  Trap(name: "RemoveFirstK", message: "IdentifiedArray: removeFirst(4) on an array of 3") {
    var array = three()
    array.removeFirst(4)
  },
  Trap(name: "RemoveLast", message: "IdentifiedArray: removeLast() on an empty array") {
    var array = IdentifiedArrayOf<Numbered>()
    array.removeLast()
  },
  Trap(name: "RemoveLastK", message: "IdentifiedArray: removeLast(4) on an array of 3") {
    var array = three()
    array.removeLast(4)
  },
]

@inline(never)
private func three() -> IdentifiedArrayOf<Numbered> {
  [Numbered(id: 1), Numbered(id: 2), Numbered(id: 3)]
}

/// Every trap of `IdentifiedArray`'s index checks stops the program with
/// its message, in a child process (this test binary, running only
/// `testChildTrap` for one trap).
final class TrapMessageTests: XCTestCase {
  private static let child = ChildProcess(variable: "VERGE_TRAP_MESSAGE_CHILD")

  func testEveryIndexCheckPrintsItsMessage() throws {
    XCTAssertEqual(Set(traps.map(\.name)).count, traps.count, "one name per trap")
    for trap in traps {
      let outcome = try Self.child.run(test: "VergeTests.TrapMessageTests/testChildTrap", scenario: trap.name)
      XCTAssertFalse(outcome.succeeded, "\(trap.name) did not trap")
      XCTAssertFalse(outcome.stdout.contains("did not trap"), "\(trap.name) did not trap")
      XCTAssertTrue(outcome.stderr.contains(trap.message), "\(trap.name):\n\(outcome.stderr)")
    }
  }

  func testChildTrap() throws {
    let name = ProcessInfo.processInfo.environment[Self.child.variable]
    guard let trap = traps.first(where: { $0.name == name }) else {
      throw XCTSkip("runs only as the child process of testEveryIndexCheckPrintsItsMessage")
    }
    trap.body()
    XCTFail("did not trap")
  }
}
