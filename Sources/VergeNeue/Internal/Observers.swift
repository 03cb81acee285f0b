import Verge
import Synchronization

/// A list of event handlers, cheap to check when empty.
@usableFromInline
final class Observers<Event: Sendable>: Sendable {
  private struct State {
    var nextID: UInt64 = 0
    var handlers: [(id: UInt64, handler: @Sendable (Event) -> Void)] = []
  }

  private let state = SharedLock(State())
  /// How many handlers are added, read without the lock: a sender checks
  /// `count.load(ordering: .relaxed) == 0` to skip what only an observer
  /// needs.
  @usableFromInline let count = Atomic<Int>(0)

  func add(_ handler: @escaping @Sendable (Event) -> Void) -> EventObservation {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      state.handlers.append((state.nextID, handler))
      return state.nextID
    }
    count.add(1, ordering: .relaxed)
    return EventObservation { [weak self] in self?.remove(id) }
  }

  private func remove(_ id: UInt64) {
    let removed = state.withLock { state -> Bool in
      guard let index = state.handlers.firstIndex(where: { $0.id == id }) else { return false }
      state.handlers.remove(at: index)
      return true
    }
    if removed { count.subtract(1, ordering: .relaxed) }
  }

  func emit(_ event: @autoclosure () -> Event) {
    guard count.load(ordering: .relaxed) > 0 else { return }
    let handlers = state.withLock { $0.handlers }
    let event = event()
    for entry in handlers { entry.handler(event) }
  }
}
