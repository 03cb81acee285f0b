import Synchronization

/// The order in which threads have nested cores' locks, and the trap when a
/// nesting would close a cycle of it (a cross-store deadlock).
///
/// A core's lock taken while the thread runs another core's commit closure
/// (`ThreadMarks.closureCore`) is taken nested: the thread holds the outer
/// lock and waits for the inner one. Two threads that nest two cores in
/// opposite orders can each hold the lock the other waits for. So every
/// nested acquisition, before it takes the lock, adds the edge (outer →
/// inner) to a process-wide graph, and traps when the graph already leads
/// from inner to outer: the trap does not depend on the timing, the second
/// order traps even on a thread that ran the first one long before.
///
/// Only nested acquisitions pay (a lock and a set look-up); a commit outside
/// any commit closure does not look here. A derived value's update reads its
/// source under its own lock, but outside any commit closure, so that order
/// is not recorded and never traps.
///
/// Cores are known by address. A core's edges are removed when it goes away
/// (`forget`), before its memory can be reused, so a new core at the same
/// address inherits nothing.
@usableFromInline
enum LockOrder {
  /// For each core that nested others, the cores taken inside its commit
  /// closures; and for each core taken nested, the cores it was taken in.
  struct Graph {
    var inner: [UInt: Set<UInt>] = [:]
    var outer: [UInt: Set<UInt>] = [:]
    /// What each core taken nested is, for the trap's message: a core that
    /// closes a cycle as the outer one was taken nested before.
    var roles: [UInt: String] = [:]

    /// Whether edges lead from `start` to `target`.
    func reaches(_ target: UInt, from start: UInt) -> Bool {
      var seen: Set<UInt> = [start]
      var pending = [start]
      while let node = pending.popLast() {
        for next in inner[node] ?? [] where seen.insert(next).inserted {
          if next == target { return true }
          pending.append(next)
        }
      }
      return false
    }
  }

  static let graph = LockedBox(Graph())
  /// Set once any edge was recorded: until then a core's `deinit` skips
  /// `forget`.
  static let hasEdges = Atomic<Bool>(false)

  /// Records that `inner`'s lock is about to be taken inside a commit
  /// closure of the core at `outer`; traps (`Misuse.lockOrderCycle`) when
  /// the opposite order was recorded before. Call before taking the lock.
  @usableFromInline @inline(never)
  static func takeNested<Value, Activity>(
    _ inner: StateCore<Value, Activity>, insideClosureOf outer: UnsafeRawPointer
  ) {
    let innerAddress = UInt(bitPattern: ObjectIdentifier(inner))
    let outerAddress = UInt(bitPattern: outer)
    // The same core: a re-entrant use, which the lock itself reports.
    guard innerAddress != outerAddress else { return }
    let closesCycle = graph.withLock { graph -> Bool in
      if graph.inner[outerAddress]?.contains(innerAddress) == true { return false }
      if graph.reaches(outerAddress, from: innerAddress) { return true }
      graph.inner[outerAddress, default: []].insert(innerAddress)
      graph.outer[innerAddress, default: []].insert(outerAddress)
      if graph.roles[innerAddress] == nil { graph.roles[innerAddress] = role(of: inner) }
      hasEdges.store(true, ordering: .relaxed)
      return false
    }
    guard closesCycle else { return }
    let outerRole = graph.withLock { $0.roles[outerAddress] } ?? "a store"
    Misuse.lockOrderCycle(outer: outerRole, inner: role(of: inner))
  }

  /// What `core` is, for a message: its kind, state type and address.
  static func role<Value, Activity>(of core: StateCore<Value, Activity>) -> String {
    "the store of `\(Value.self)` at \(UnsafeRawPointer(Unmanaged.passUnretained(core).toOpaque()))"
  }

  /// Removes the edges of the core at `address`, which is going away.
  static func forget(_ address: UInt) {
    guard hasEdges.load(ordering: .relaxed) else { return }
    graph.withLock { graph in
      graph.roles[address] = nil
      for other in graph.inner.removeValue(forKey: address) ?? [] {
        graph.outer[other]?.remove(address)
        if graph.outer[other]?.isEmpty == true { graph.outer[other] = nil }
      }
      for other in graph.outer.removeValue(forKey: address) ?? [] {
        graph.inner[other]?.remove(address)
        if graph.inner[other]?.isEmpty == true { graph.inner[other] = nil }
      }
    }
  }
}
