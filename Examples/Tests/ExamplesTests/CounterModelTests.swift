import Verge
import XCTest
@testable import counter

/// The three counter styles behind the shell's interface: same behaviour
/// for the same commands.
final class CounterModelTests: XCTestCase {
  private func makeModels(delay: @escaping Delay = {}) -> [any CounterModel] {
    let log = LogBuffer()
    return [
      FreeCommitCounter(delay: delay, log: log),
      MethodReducerCounter(delay: delay, log: log),
      EnumActionCounter(delay: delay, log: log),
    ]
  }

  func testUndoAndRedoWalkTheHistoryInEveryStyle() {
    for model in makeModels() {
      XCTAssertFalse(model.undo(), "\(model.style): nothing to undo at first")
      model.increment()
      model.increment()
      model.decrement()
      XCTAssertEqual(model.count, 1, "\(model.style)")
      XCTAssertTrue(model.undo())
      XCTAssertEqual(model.count, 2, "\(model.style)")
      XCTAssertTrue(model.undo())
      XCTAssertTrue(model.undo())
      XCTAssertEqual(model.count, 0, "\(model.style)")
      XCTAssertFalse(model.undo(), "\(model.style)")
      XCTAssertTrue(model.redo())
      XCTAssertEqual(model.count, 1, "\(model.style)")
      model.decrement()
      XCTAssertFalse(model.redo(), "\(model.style): a new change clears redo")
      XCTAssertEqual(model.count, 0, "\(model.style)")
      XCTAssertEqual(model.undoCount, 2, "\(model.style)")
    }
  }

  func testSeededRandomCommandsAgreeAcrossStylesAndWithAReference() {
    let random = RandomGenerator.seeded(0x7E57)
    let models = makeModels()
    var reference = [0]
    var position = 0
    for step in 0..<300 {
      let choice = Int(random { $0.next() } % 4)
      for model in models {
        switch choice {
        case 0: model.increment()
        case 1: model.decrement()
        case 2: _ = model.undo()
        default: _ = model.redo()
        }
      }
      switch choice {
      case 0, 1:
        reference.removeSubrange((position + 1)...)
        reference.append(reference[position] + (choice == 0 ? 1 : -1))
        position += 1
      case 2: position = max(0, position - 1)
      default: position = min(reference.count - 1, position + 1)
      }
      for model in models {
        XCTAssertEqual(model.count, reference[position], "\(model.style) at step \(step)")
        guard model.count == reference[position] else { return }
      }
    }
  }

  func testIncrementLaterLandsAfterTheDelayInEveryStyle() async {
    for index in 0..<3 {
      let gate = DelayGate()
      let model = makeModels(delay: gate.delay)[index]
      let pending = model.incrementLater()
      XCTAssertEqual(model.pendingIncrements, 1, "\(model.style)")
      XCTAssertEqual(model.count, 0, "\(model.style)")
      gate.open()
      await pending()
      XCTAssertEqual(model.count, 1, "\(model.style)")
      XCTAssertEqual(model.pendingIncrements, 0, "\(model.style)")
    }
  }

  func testCancelledIncrementLaterChangesNothingInEveryStyle() async {
    for index in 0..<3 {
      let gate = DelayGate()
      let model = makeModels(delay: gate.delay)[index]
      let pending = model.incrementLater()
      model.cancelIncrementLater()
      await pending()
      gate.open()
      XCTAssertEqual(model.count, 0, "\(model.style)")
      XCTAssertEqual(model.pendingIncrements, 0, "\(model.style)")
      XCTAssertEqual(model.undoCount, 0, "\(model.style)")
    }
  }

  func testLoggingMiddlewaresFeedTheBoundedLog() {
    let log = LogBuffer(capacity: 3)
    let model = MethodReducerCounter(delay: {}, log: log)
    for _ in 0..<5 { model.increment() }
    XCTAssertEqual(log.recent.count, 3)
    XCTAssertEqual(log.recent.last, "increment(): count 4 → 5")
    XCTAssertTrue(model.undo())
    XCTAssertEqual(log.recent.last, "undo: count 5 → 4")
  }

  func testFreeCommitLogLinesDropTheSourceLocation() {
    let log = LogBuffer()
    let model = FreeCommitCounter(delay: {}, log: log)
    model.increment()
    XCTAssertEqual(log.recent, ["commit increment: count 0 → 1"])
  }
}
