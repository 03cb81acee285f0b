@_spi(Internal) import Verge
import VergeNeue

/// What a `ReducerTestStore` has seen of its store, filled in by the
/// store's event observer and by the tasks running dispatched actions.
final class ReducerLedger<State: Sendable>: Sendable {
  struct DispatchRecord: Sendable {
    let label: String
    let file: StaticString
    let line: UInt
    var cancel: (@Sendable () -> Void)?
    var done = false
    var skipped = false
  }

  struct Committed: Sendable {
    let mutation: ReducerMutation<State>
    let before: State
    let after: State
    /// The dispatch that most likely committed it (the latest one still
    /// running when it was committed).
    let dispatchIndex: Int?
  }

  struct Data: Sendable {
    var dispatches: [DispatchRecord] = []
    var committed: [Committed] = []
    /// The mutation the test is committing itself, and its result.
    var direct: (name: String, line: UInt)?
    var directResult: Committed?
  }

  private let data = SharedLock(Data())
  let wakeup = Wakeup()

  /// A copy of everything recorded.
  var snapshot: Data { data.withLock { $0 } }

  /// The store's event observer.
  func record(_ event: ReducerEvent<State>) {
    guard case .committed(let mutation, let before, let after) = event else { return }
    data.withLock { data in
      if let direct = data.direct, direct.name == mutation.name, direct.line == mutation.line {
        data.direct = nil
        data.directResult = Committed(mutation: mutation, before: before, after: after, dispatchIndex: nil)
        return
      }
      let index = data.dispatches.lastIndex { !$0.done }
      data.committed.append(Committed(mutation: mutation, before: before, after: after, dispatchIndex: index))
    }
    wakeup.signal()
  }

  func expectDirect(_ mutation: ReducerMutation<State>) {
    data.withLock { $0.direct = (mutation.name, mutation.line) }
  }

  func takeDirect() -> Committed? {
    data.withLock { data in
      defer { data.directResult = nil; data.direct = nil }
      return data.directResult
    }
  }

  func beginDispatch(_ label: String, file: StaticString, line: UInt) -> Int {
    data.withLock { data in
      data.dispatches.append(DispatchRecord(label: label, file: file, line: line))
      return data.dispatches.count - 1
    }
  }

  func attach(cancel: @escaping @Sendable () -> Void, to index: Int) {
    let done = data.withLock { data -> Bool in
      data.dispatches[index].cancel = cancel
      return data.dispatches[index].skipped
    }
    if done { cancel() }
  }

  func dispatchEnded(_ index: Int) {
    data.withLock { $0.dispatches[index].done = true }
    wakeup.signal()
  }

  /// Whether no dispatched action is running (skipped ones aside).
  var dispatchesSettled: Bool {
    data.withLock { $0.dispatches.allSatisfy { $0.done || $0.skipped } }
  }

  /// Whether any dispatched action is still running.
  var anyDispatchRunning: Bool {
    data.withLock { $0.dispatches.contains { !$0.done } }
  }

  func popCommitted() -> Committed? {
    data.withLock { $0.committed.isEmpty ? nil : $0.committed.removeFirst() }
  }

  func takeCommitted() -> [Committed] {
    data.withLock { data in
      defer { data.committed = [] }
      return data.committed
    }
  }

  /// Cancels every dispatched action still running; with `markSkipped`,
  /// `finish()` no longer counts them.
  func cancelDispatches(markSkipped: Bool) {
    let cancels = data.withLock { data -> [@Sendable () -> Void] in
      var cancels: [@Sendable () -> Void] = []
      for index in data.dispatches.indices where !data.dispatches[index].done {
        if let cancel = data.dispatches[index].cancel { cancels.append(cancel) }
        if markSkipped { data.dispatches[index].skipped = true }
      }
      return cancels
    }
    for cancel in cancels { cancel() }
  }
}
