import Dispatch
import Synchronization

extension StateCore {
  /// Replaces the value with `newValue` and delivers the change to the
  /// subscribers, unless it equals the value held (a derived value's
  /// update).
  ///
  /// - Returns: Whether the value changed.
  @inlinable @discardableResult
  func publish(_ newValue: Value) -> Bool {
    if Self.isLarge {
      return withUnsafePointer(to: newValue) { newValue in
        publishLarge(newValue) { [isEqual] in isEqual($0.pointee, $1.pointee) }
      }
    }
    return publish(computing: { newValue })
  }

  /// `publish(_:)` for a large value, read where it is: `areSame` compares
  /// the stored value with it in place, once, under the lock, and it is
  /// copied in only when it differs. So a derived value's update holds no
  /// copy of its own (`PipelineEntry`), and the stored value is the only
  /// memo of the last output.
  ///
  /// - Returns: Whether the value changed.
  @inlinable @inline(never) @discardableResult
  func publishLarge(
    _ newValue: UnsafePointer<Value>, unlessSame areSame: (UnsafePointer<Value>, UnsafePointer<Value>) -> Bool
  ) -> Bool {
    var notify = false
    let changed = withStorage("publish") { storage -> Bool in
      if withUnsafePointer(to: &storage.value, { areSame($0, newValue) }) { return false }
      notify = replace(&storage, with: newValue)
      return true
    }
    if notify { drain() }
    return changed
  }

  /// Replaces the value with what `compute` returns, computed under this
  /// core's lock so that concurrent publishers cannot reorder their results.
  /// `compute` may read other cores, never this one.
  ///
  /// - Returns: Whether the value changed.
  @inlinable @discardableResult
  func publish(computing compute: () -> Value) -> Bool {
    var notify = false
    let changed = withStorage("publish") { storage -> Bool in
      let newValue = compute()
      if isEqual(storage.value, newValue) { return false }
      notify = withUnsafePointer(to: newValue) { replace(&storage, with: $0) }
      return true
    }
    if notify { drain() }
    return changed
  }

  /// Publishes `newValue` (which differs from the current value): the
  /// previous value goes straight into the box that a derived value's
  /// `state` reads and the event carries. Call with the storage lock held.
  ///
  /// - Returns: Whether there is something to deliver.
  @inlinable @inline(__always)
  func replace(_ storage: inout Storage, with newValue: UnsafePointer<Value>) -> Bool {
    let published = ChangeBox(previous: &storage.value, current: newValue, version: storage.sequence &+ 1)
    // Memory to memory: assigning `newValue.pointee` goes through a
    // state-sized temporary in an unoptimized build.
    withUnsafeMutablePointer(to: &storage.value) { $0.update(from: newValue, count: 1) }
    storage.lastPublished = published
    countChange(&storage)
    guard storage.valueSubscribers > 0 else { return false }
    enqueue(&storage, .change(sequence: storage.sequence, published))
    return true
  }

  /// Queues an event; call with the storage lock held.
  @inlinable @inline(__always)
  func enqueue(_ storage: inout Storage, _ event: Event) {
    storage.pending.append(event)
    queued.add(1, ordering: .relaxed)
  }

  /// Counts a change and queues its event when anyone receives values;
  /// returns whether there is something to deliver.
  @inlinable @inline(__always)
  func record(_ storage: inout Storage, previous: Value?) -> Bool {
    countChange(&storage)
    guard storage.valueSubscribers > 0 else { return false }
    enqueueChange(&storage, previous: previous)
    return true
  }

  /// Queues the event of the change just counted.
  @inlinable
  func enqueueChange(_ storage: inout Storage, previous: Value?) {
    enqueue(&storage, makeChange(&storage, previous: previous))
  }

  /// Counts a change of the value; call with the storage lock held.
  @inlinable @inline(__always)
  func countChange(_ storage: inout Storage) {
    storage.sequence &+= 1
    changeCounter.changeCount.store(storage.sequence, ordering: .relaxed)
  }

  /// The event for the change just made (the sequence already counted).
  @inlinable @inline(__always)
  func makeChange(_ storage: inout Storage, previous: Value?) -> Event {
    .change(
      sequence: storage.sequence,
      ChangeBox(
        Changes(
          previous: storage.changeSubscribers > 0 ? previous : nil, current: storage.value,
          version: storage.sequence)))
  }

  @inlinable
  func send(_ activity: Activity) {
    let notify = withStorage("send") { storage -> Bool in
      storage.sequence &+= 1
      guard storage.activitySubscribers > 0 else { return false }
      enqueue(&storage, .activity(sequence: storage.sequence, activity))
      return true
    }
    if notify { drain() }
  }
}
