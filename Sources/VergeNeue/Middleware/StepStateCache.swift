import Verge

/// The state one dispatch through a specialized pipeline last read or
/// wrote, with the store's change count it belongs to.
///
/// Each middleware step is handed the state before it and returns the state
/// after it; when nothing changed since the previous step looked, the cache
/// answers instead of another trip through the store's lock.
///
/// Only the dispatch's synchronous pass uses it: the steps it creates carry
/// `ownsCache`, and they are borrowed, not `Sendable` and cannot be kept, so
/// they run one at a time, before the dispatch ends. A kept step reads the
/// store. The next dispatch sees what the last one wrote: dispatches are
/// ordered by the engine's `draining` flag. `end()` drops a state that holds
/// references, so that a finished dispatch keeps no copy of it alive (a
/// copy held would make the next commit copy the collections it touches).
@usableFromInline
final class StepStateCache<State: Sendable> {
  @usableFromInline @exclusivity(unchecked) var state: State?
  /// The change count `state` belongs to; `UInt64.max` (which no store
  /// reaches) while there is no `state`.
  @usableFromInline @exclusivity(unchecked) var count: UInt64 = .max
  /// The store's change count, read without the lock.
  @usableFromInline let counter: ChangeCounter
  /// Reads the store's state and change count together, under its lock.
  @usableFromInline let readCounted: @Sendable () -> (State, UInt64)
  /// Initializes a place with the store's state, copied in place: for a
  /// large state, whose reads would otherwise keep copies of it on the
  /// stack.
  @usableFromInline let copyState: @Sendable (UnsafeMutablePointer<State>) -> Void
  /// Where the synchronous pass keeps the state before each middleware's
  /// step, one place per middleware, initialized only while that step
  /// runs: on the heap, so that no frame holds a copy (a 64 KiB state must
  /// pass a 512 KiB thread), and allocated once, so that a dispatch
  /// allocates nothing. (A pointer to a local would cost a stack protector
  /// check in every step.)
  @usableFromInline let befores: UnsafeMutablePointer<State>

  /// - Parameters:
  ///   - counter: The store's change counter.
  ///   - steps: How many middlewares the pipeline has.
  ///   - copyState: Initializes a place with the store's state.
  ///   - readCounted: Reads the store's state and change count together.
  @inlinable
  init(
    counter: ChangeCounter, steps: Int, copyState: @escaping @Sendable (UnsafeMutablePointer<State>) -> Void,
    readCounted: @escaping @Sendable () -> (State, UInt64)
  ) {
    self.counter = counter
    self.copyState = copyState
    self.readCounted = readCounted
    befores = .allocate(capacity: steps)
  }

  deinit {
    befores.deallocate()
  }

  /// Ends the dispatch's synchronous pass: drops the state, unless it is
  /// plain data. A copy of that shares no storage with the store's state,
  /// so it may stay for the next dispatch, which then takes no lock at all
  /// while nothing else changed the store.
  @inlinable
  func end() {
    // Scenario 4, send through 3 middlewares: 470 instructions → 525 when the state is always dropped.
    if _isPOD(State.self) { return }
    // As `ChainRun.inlineStateLimit`: inlined, dropping a large state
    // would keep a slot of its size in the caller's frame.
    if MemoryLayout<State?>.size > 1024 { return endOutOfLine() }
    state = nil
    count = .max
  }

  /// `end()` for a large state, in a frame of its own.
  @inlinable @inline(never)
  func endOutOfLine() {
    state = nil
    count = .max
  }

  /// The store's current state: the cached one when the store has not
  /// changed since it was cached, otherwise read (and, by the synchronous
  /// pass, cached).
  ///
  /// - Parameter owned: Whether the caller is the synchronous pass.
  @inlinable @inline(__always)
  func read(owned: Bool) -> State {
    if owned, let state, counter.current == count { return state }
    let (state, count) = readCounted()
    remember(state, count: count, owned: owned)
    return state
  }

  /// Initializes `place` with the store's current state, as `read(owned:)`
  /// returns it; in a frame of its own in unoptimized builds, so that the
  /// pipeline's frames keep no slot for it.
  @inlinable @inline(__always)
  func read(into place: UnsafeMutablePointer<State>, owned: Bool) {
    place.initialize(to: read(owned: owned))
  }

  /// `read(into:owned:)` in a frame of its own, which ends before the
  /// caller goes on: the temporaries of the read stay off the caller's
  /// frame (for `ChainRun.advanceHoldingNoState`). It does not cache what
  /// it reads, so that unoptimized code holds no more than one copy of the
  /// state here (a large state's copy costs more than the lock it spares).
  ///
  /// The cached state is copied from its place, and the store's is read in
  /// a frame of its own: unspecialized code (a queued dispatch) reserves a
  /// slot of the state's size for each temporary of the function on entry,
  /// whichever branch runs.
  @inlinable @inline(never)
  func readInLeaf(into place: UnsafeMutablePointer<State>, owned: Bool) {
    guard owned && counter.current == count else { return readStoreInLeaf(into: place) }
    withUnsafeMutablePointer(to: &state) { cached in
      // An optional's payload sits at its start.
      place.initialize(from: UnsafeRawPointer(cached).assumingMemoryBound(to: State.self), count: 1)
    }
  }

  /// Initializes `place` with the store's state, in a frame of its own.
  @inlinable @inline(never)
  func readStoreInLeaf(into place: UnsafeMutablePointer<State>) {
    copyState(place)
  }

  /// `read(owned:)` in a frame of its own, returned straight into the
  /// caller's result; see `readInLeaf(into:owned:)`. The state goes
  /// through the heap, and into the result by the last call (`takeOut`):
  /// read or returned here, it took two slots of its size in this frame.
  @inlinable @inline(never)
  func readInLeaf(owned: Bool) -> State? {
    let place = UnsafeMutablePointer<State>.allocate(capacity: 1)
    readInLeaf(into: place, owned: owned)
    return takeOut(place, written: true)
  }

  /// `remember(_:count:owned:)` for a state at `place` (which is not
  /// `nil`), copied from there without a copy in the caller's frame.
  @inlinable @inline(__always)
  func remember(at place: UnsafePointer<State?>, count: UInt64, owned: Bool) {
    guard owned else { return }
    state = place.pointee
    self.count = count
  }

  /// Records a state the dispatch read or wrote, with the change count it
  /// belongs to; ignored unless the caller is the synchronous pass.
  @inlinable @inline(__always)
  func remember(_ state: State, count: UInt64, owned: Bool) {
    guard owned else { return }
    self.state = state
    self.count = count
  }
}

/// Moves the value at `place` out, if `written`, and frees `place`.
///
/// Never inlined, and meant to be called last, as `return takeOut(…)`: it
/// then writes straight into the caller's result. Inlined, or followed by
/// the deallocation, the value moved out took a slot of its size in the
/// caller's frame, which for a large state held 64 KiB of a 512 KiB thread
/// for as long as the caller ran (`SmallStackSendTests`).
///
/// - Parameters:
///   - place: Memory for one value, allocated with `allocate(capacity: 1)`.
///   - written: Whether `place` is initialized.
/// - Returns: The value, or `nil` when `place` was not `written`.
@usableFromInline @inline(never)
func takeOut<Value>(_ place: UnsafeMutablePointer<Value>, written: Bool) -> Value? {
  defer { place.deallocate() }
  return written ? place.move() : nil
}
