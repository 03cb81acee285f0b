@_spi(Internal) import Verge
import VergeNeue

/// What a `TestStore` has seen of its store, filled in by the store's event
/// observer and by the tasks that watch each send's effects.
final class ActionLedger<Action: Sendable, State: Sendable>: Sendable {
  struct SendRecord: Sendable {
    let label: String
    let file: StaticString
    let line: UInt
    var task: StoreTask?
    var effectsDone = false
    var skipped = false
  }

  struct Reduction: Sendable {
    let before: State
    let after: State
  }

  struct Received: Sendable {
    let action: Action
    let before: State
    let after: State
    /// The send whose effects most likely sent it (the latest send whose
    /// effects were still running when it arrived).
    let sendIndex: Int?
  }

  struct Data: Sendable {
    var sends: [SendRecord] = []
    var sendReductions: [Reduction] = []
    var received: [Received] = []
    var effectErrors: [String] = []
    var idleWatcherRunning = false
    var unattributedEffectsSkipped = false
  }

  let data = SharedLock(Data())
  let wakeup = Wakeup()

  /// A copy of everything recorded.
  var snapshot: Data { data.withLock { $0 } }

  /// The store's event observer.
  func record(_ event: ActionEvent<Action, State>) {
    data.withLock { data in
      switch event {
      case .reduced(let action, let before, let after, let origin):
        if origin == .send {
          data.sendReductions.append(Reduction(before: before, after: after))
        } else {
          let index = data.sends.lastIndex { !$0.effectsDone } ?? data.sends.indices.last
          data.received.append(Received(action: action, before: before, after: after, sendIndex: index))
        }
      case .effectFailed(let error):
        data.effectErrors.append("\(error)")
      }
    }
    wakeup.signal()
  }

  func beginSend(_ label: String, file: StaticString, line: UInt) -> Int {
    data.withLock { data in
      data.sends.append(SendRecord(label: label, file: file, line: line))
      return data.sends.count - 1
    }
  }

  func attach(_ task: StoreTask, to index: Int) {
    data.withLock { $0.sends[index].task = task }
  }

  func effectsEnded(_ index: Int) {
    data.withLock { $0.sends[index].effectsDone = true }
    wakeup.signal()
  }

  /// `true` when the caller should start an idle watcher.
  func claimIdleWatcher() -> Bool {
    data.withLock { data in
      if data.idleWatcherRunning { return false }
      data.idleWatcherRunning = true
      return true
    }
  }

  func idleWatcherEnded() {
    data.withLock { $0.idleWatcherRunning = false }
    wakeup.signal()
  }

  /// Whether every send's effects have ended or were skipped.
  var sendsSettled: Bool {
    data.withLock { $0.sends.allSatisfy { $0.effectsDone || $0.skipped } }
  }

  func takeEffectErrors() -> [String] {
    data.withLock { data in
      defer { data.effectErrors = [] }
      return data.effectErrors
    }
  }

  func popSendReduction() -> Reduction? {
    data.withLock { $0.sendReductions.isEmpty ? nil : $0.sendReductions.removeFirst() }
  }

  func popReceived() -> Received? {
    data.withLock { $0.received.isEmpty ? nil : $0.received.removeFirst() }
  }

  func takeReceived() -> [Received] {
    data.withLock { data in
      defer { data.received = [] }
      return data.received
    }
  }

  /// Cancels the effects of every send whose effects still run; with
  /// `markSkipped`, `finish()` no longer counts them.
  func cancelEffects(markSkipped: Bool) {
    let tasks = data.withLock { data -> [StoreTask] in
      var tasks: [StoreTask] = []
      for index in data.sends.indices where !data.sends[index].effectsDone {
        if let task = data.sends[index].task { tasks.append(task) }
        if markSkipped { data.sends[index].skipped = true }
      }
      if markSkipped { data.unattributedEffectsSkipped = true }
      return tasks
    }
    for task in tasks { task.cancel() }
  }
}
