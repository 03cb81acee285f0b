import Dispatch
import Synchronization

extension StateCore {
  /// Registers a subscriber and returns its token; the value current at
  /// registration is its first delivery, unless dropped.
  @usableFromInline
  func subscribe(
    _ receiver: Subscriber.Receiver,
    dropsFirst: Bool,
    queue: DeliveryQueue,
    onTerminate: (@Sendable () -> Void)? = nil
  ) -> StoreSubscription {
    let (subscriber, notify, ended) = withStorage("subscribe") { storage in
      let subscriber = Subscriber(
        receiver, queue: queue, startSequence: storage.sequence, onTerminate: onTerminate)
      if !storage.ended {
        storage.subscribers.append(subscriber)
        count(subscriber, in: &storage, by: 1)
      }
      var notify = false
      if !dropsFirst, !subscriber.receivesActivities {
        enqueue(
          &storage,
          .first(subscriber, ChangeBox(previous: nil, current: &storage.value, version: changeCounter.current)))
        notify = true
      }
      return (subscriber, notify, storage.ended)
    }
    // The token holds its subscriber weakly: once the source drops it (on
    // cancel or when the source goes away), its closure is released even
    // while the token lives on.
    let token = StoreSubscription(
      cancel: { [weak self, weak subscriber] in
        guard let subscriber else { return }
        subscriber.markCancelled()
        self?.remove(subscriber)
      },
      retainInSource: { [weak self] token in
        guard let self else { return false }
        return self.withStorage("storeWhileSourceActive") { storage in
          guard !storage.ended else { return false }
          storage.retained.append(token)
          return true
        }
      },
      isLive: { [weak subscriber] in subscriber.map { !$0.isCancelled } ?? false })
    if notify { drain() }
    if ended { subscriber.terminate() }
    return token
  }

  /// Ends every subscription because the source this core follows went
  /// away: subscribers are told (`onTerminate`, so async sequences finish)
  /// and released with their closures, tokens kept with
  /// `storeWhileSourceActive()` are dropped, and later subscribers receive
  /// the current value once and end at once.
  @usableFromInline
  func end() {
    let (subscribers, retained) = withStorage("end") { storage in
      storage.ended = true
      let taken = (storage.subscribers, storage.retained)
      storage.subscribers = []
      storage.retained = []
      storage.valueSubscribers = 0
      storage.changeSubscribers = 0
      storage.activitySubscribers = 0
      hasValueSubscribers.store(false, ordering: .relaxed)
      return taken
    }
    for subscriber in subscribers {
      subscriber.terminate()
    }
    withExtendedLifetime(retained) {}
  }

  func remove(_ subscriber: Subscriber) {
    if isLockedByCurrentThread {
      // Cancelled from inside a commit closure: the lock is ours but busy.
      // The subscriber is already marked cancelled; drop it on the next lock.
      needsPurge.store(true, ordering: .relaxed)
      return
    }
    withStorage("cancel") { storage in
      if let index = storage.subscribers.firstIndex(where: { $0 === subscriber }) {
        storage.subscribers.remove(at: index)
        count(subscriber, in: &storage, by: -1)
      }
    }
  }

  @usableFromInline
  func purgeCancelled(_ storage: inout Storage) {
    var kept: [Subscriber] = []
    kept.reserveCapacity(storage.subscribers.count)
    for subscriber in storage.subscribers {
      if subscriber.isCancelled {
        count(subscriber, in: &storage, by: -1)
      } else {
        kept.append(subscriber)
      }
    }
    storage.subscribers = kept
  }

  func count(_ subscriber: Subscriber, in storage: inout Storage, by delta: Int) {
    if subscriber.activityReceiver != nil {
      storage.activitySubscribers += delta
    } else {
      storage.valueSubscribers += delta
      if subscriber.changesReceiver != nil { storage.changeSubscribers += delta }
    }
    hasValueSubscribers.store(storage.valueSubscribers > 0, ordering: .relaxed)
  }
}
