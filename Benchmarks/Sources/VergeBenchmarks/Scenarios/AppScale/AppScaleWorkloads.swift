import BaselineStore
import Observation
import Synchronization
import Verge
import VergeNeue
import VergeORM
import VergeTesting

// The workloads of the app-scale scenario: each sets up one store of `n`
// rows and returns its operation. Row paths are generic over the row
// collection, specialized by the optimizer for each.

// MARK: - Rows visited

/// Row ids in a scattered order (a stride coprime with the count), so that
/// consecutive operations do not touch neighbouring rows.
final class RowWalk {
  private let cursor: Cursor
  private let count: Int

  init(count: Int) {
    self.count = count
    cursor = Cursor(count: count)
  }

  func next() -> Int {
    (cursor.next() &* 7_919) % count
  }
}

/// The rows that the reader paths watch: `readers` of them spread over the
/// list (with fewer rows than readers, several readers per row).
func watchedRows(count: Int, readers: Int = appScaleReaders) -> [Int] {
  (0..<readers).map { reader in
    count >= readers ? reader * (count / readers) : reader % count
  }
}

/// The watched rows, one after the other in a scattered order.
final class WatchedWalk {
  let rows: [Int]
  private let cursor: Cursor

  init(count: Int, readers: Int = appScaleReaders) {
    rows = watchedRows(count: count, readers: readers)
    cursor = Cursor(count: rows.count)
  }

  func next() -> Int {
    rows[(cursor.next() &* 7_919) % rows.count]
  }
}

private func listState<Rows: AppScaleRows>(_: Rows.Type, count: Int) -> AppList<Rows> {
  AppList(rows: Rows(appRows: count))
}

// MARK: - (a), (b), (c): actions through forEach

/// Row actions for the rows in a scattered order; with `idsFrom` (scenario
/// 13), for ids from that one on instead of from 0: past the last row, the
/// ids of rows the list does not hold.
func rowActionThroughForEach<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int, idsFrom first: Int = 0) -> Workload {
  let store = ActionStore(initialState: listState(rows, count: count), reducer: Rows.listFeature)
  let walk = RowWalk(count: count)
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.send(.row(id: first &+ walk.next(), action: .increment))
    }
  }
}

func unrelatedAction<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int) -> Workload {
  let store = ActionStore(initialState: listState(rows, count: count), reducer: Rows.listFeature)
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.send(.bump)
    }
  }
}

/// The baseline of (a) and (b): the row's own store, sent the same
/// reduction.
func rowOwnSend() -> Workload {
  let store = ActionStore(initialState: AppRow(id: 0), reducer: AppRowFeature())
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.send(.increment)
    }
  }
}

/// One operation: the parent removes a row (`forEach` cancels its
/// effects), then puts it back where it was.
func removeAndReAdd<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int) -> Workload {
  let store = ActionStore(initialState: listState(rows, count: count), reducer: Rows.listFeature)
  let walk = RowWalk(count: count)
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.send(.park(id: walk.next()))
      store.send(.restore)
    }
  }
}

func baselineRemoveAndReAdd<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int) -> Workload {
  let store = BaselineStore(listState(rows, count: count))
  let walk = RowWalk(count: count)
  return Workload { iterations in
    for _ in 0..<iterations {
      let id = walk.next()
      store.commit { $0.parked = $0.rows.park(id) }
      store.commit { state in
        if let parked = state.parked {
          state.parked = nil
          state.rows.restore(parked)
        }
      }
    }
  }
}

// MARK: - (d), (e): per-row readers, a commit that changes one watched row

private func commitWalkingWatched<Rows: AppScaleRows>(
  _ store: Store<AppList<Rows>, Never>, count: Int, keepAlive: [AnyObject]
) -> Workload {
  let walk = WatchedWalk(count: count)
  return Workload(keepAlive: keepAlive + [store]) { iterations in
    for _ in 0..<iterations {
      let id = walk.next()
      store.commit { $0.rows.update(id) { $0.value &+= 1 } }
    }
  }
}

func ifChangedClosureSubscribers<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int) -> Workload {
  let store = Store<AppList<Rows>, Never>(initialState: listState(rows, count: count))
  for id in watchedRows(count: count) {
    store.sinkState { $0.ifChanged({ $0.rows.row(id) }) { blackHole($0) } }
      .storeWhileSourceActive()
  }
  return commitWalkingWatched(store, count: count, keepAlive: [])
}

/// The key path is formed once per subscriber, outside the handler: a
/// literal with a captured index inside the handler would be formed again
/// on every delivery (scenario 8, S5b).
func ifChangedKeyPathSubscribers<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int) -> Workload {
  let store = Store<AppList<Rows>, Never>(initialState: listState(rows, count: count))
  for id in watchedRows(count: count) {
    let path = Rows.rowKeyPath(id)
    store.sinkState { $0.ifChanged(path) { blackHole($0) } }
      .storeWhileSourceActive()
  }
  return commitWalkingWatched(store, count: count, keepAlive: [])
}

func mapDerivedRows<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int) -> Workload {
  let store = Store<AppList<Rows>, Never>(initialState: listState(rows, count: count))
  let derived: [AnyObject] = watchedRows(count: count).map { id in store.derived(.map { $0.rows.row(id) }) }
  return commitWalkingWatched(store, count: count, keepAlive: derived)
}

func selectDerivedRows<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int) -> Workload {
  let store = Store<AppList<Rows>, Never>(initialState: listState(rows, count: count))
  let derived: [AnyObject] = watchedRows(count: count).map { id in store.derived(.select(Rows.rowKeyPath(id))) }
  return commitWalkingWatched(store, count: count, keepAlive: derived)
}

/// One reader per watched row, as a SwiftUI row view reads its row; after
/// each commit the readers it invalidated read again (a view re-rendering),
/// so that every commit meets the same readers.
func observationReaders<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int) -> Workload {
  let readers = ObservationReaders(
    store: Store<AppList<Rows>, Never>(initialState: listState(rows, count: count)), count: count)
  for reader in readers.watched.indices {
    readers.track(reader)
  }
  let walk = WatchedWalk(count: count, readers: appScaleObservationReaders)
  return Workload(keepAlive: [readers]) { iterations in
    for _ in 0..<iterations {
      let id = walk.next()
      readers.store.commit { $0.rows.update(id) { $0.value &+= 1 } }
      readers.trackInvalidated()
    }
  }
}

/// The readers of `observationReaders`, and which of them a commit
/// invalidated.
final class ObservationReaders<Rows: AppScaleRows>: Sendable {
  let store: Store<AppList<Rows>, Never>
  let watched: [Int]
  private let invalidated = Mutex<[Int]>([])

  init(store: Store<AppList<Rows>, Never>, count: Int) {
    self.store = store
    watched = watchedRows(count: count, readers: appScaleObservationReaders)
  }

  func track(_ reader: Int) {
    let id = watched[reader]
    withObservationTracking {
      // The form the Large states article teaches a row view: a read
      // through a key path into the row tracks that row alone.
      blackHole(store.state[Rows.rowKeyPath(id)])
    } onChange: { [self] in
      invalidated.withLock { $0.append(reader) }
    }
  }

  /// How many readers commits invalidated since they last read.
  var invalidatedCount: Int {
    invalidated.withLock { $0.count }
  }

  func trackInvalidated() {
    let readers = invalidated.withLock { readers in
      let taken = readers
      readers = []
      return taken
    }
    for reader in readers {
      track(reader)
    }
  }
}

/// How many of the `appScaleObservationReaders` Observation readers one commit of
/// one watched row invalidates (the probe of path (e)).
func observationInvalidations<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int) -> Double {
  let readers = ObservationReaders(
    store: Store<AppList<Rows>, Never>(initialState: listState(rows, count: count)), count: count)
  for reader in readers.watched.indices {
    readers.track(reader)
  }
  let id = readers.watched[readers.watched.count / 2]
  readers.store.commit { $0.rows.update(id) { $0.value &+= 1 } }
  return Double(readers.invalidatedCount)
}

/// How many of the baseline's select-and-compare closures one commit of
/// one watched row calls back.
func baselineSelectorCalls<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int, readers: Int) -> Double {
  let store = BaselineStore(listState(rows, count: count))
  let calls = Locked(0)
  let watched = watchedRows(count: count, readers: readers)
  for id in watched {
    store.select({ $0.rows.row(id) }, onChange: { _ in calls.withLock { $0 += 1 } })
  }
  let id = watched[watched.count / 2]
  store.commit { $0.rows.update(id) { $0.value &+= 1 } }
  return Double(calls.withLock { $0 })
}

/// Hand-written select-and-compare closures on the watched rows.
func baselineRowSelectors<Rows: AppScaleRows>(
  _ rows: Rows.Type, count: Int, readers: Int = appScaleReaders
) -> Workload {
  let store = BaselineStore(listState(rows, count: count))
  for id in watchedRows(count: count, readers: readers) {
    store.select({ $0.rows.row(id) }, onChange: { blackHole($0) })
  }
  let walk = WatchedWalk(count: count, readers: readers)
  return Workload { iterations in
    for _ in 0..<iterations {
      let id = walk.next()
      store.commit { $0.rows.update(id) { $0.value &+= 1 } }
    }
  }
}

// MARK: - (f): a method scoped store on one row

func scopedRowCommit<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int) -> Workload {
  let store = Store<AppList<Rows>, Never>(initialState: listState(rows, count: count))
  let scoped = store.scope(Rows.rowKeyPath(count / 2), reducer: AppRowMethods())
  scoped.sinkState(dropsFirst: true) { blackHole($0.current.value) }
    .storeWhileSourceActive()
  return Workload(keepAlive: [store, scoped]) { iterations in
    for _ in 0..<iterations {
      scoped.commit { $0.increment() }
    }
  }
}

func rowOwnCommit() -> Workload {
  let store = ReducerStore(initialState: AppRow(id: 0), reducer: AppRowMethods())
  store.sinkState(dropsFirst: true) { blackHole($0.current.value) }
    .storeWhileSourceActive()
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.increment() }
    }
  }
}

// MARK: - (g): VergeORM derived entities

private func entities(count: Int) -> RowDatabase {
  let rows = (0..<count).map { Row(rawID: $0, value: 0) }
  var database = RowDatabase()
  database.performBatchUpdates { $0.entities.row.insert(rows) }
  return database
}

func derivedEntitiesWatched(count: Int) -> Workload {
  let store = Store<ORMState, Never>(initialState: ORMState(database: entities(count: count)))
  let derived: [AnyObject] = watchedRows(count: count).map { id in
    store.derivedEntity(Row.EntityID(id), in: \ORMState.database)
  }
  let walk = WatchedWalk(count: count)
  return Workload(keepAlive: derived + [store]) { iterations in
    for _ in 0..<iterations {
      let id = Row.EntityID(walk.next())
      do {
        try store.commit { (state) throws(DatabaseError) in
          try state.database.performBatchUpdates { (context) throws(DatabaseError) in
            try context.entities.row.update(id) { $0.value &+= 1 }
          }
        }
      } catch {
        fatalError("the row exists: \(error)")
      }
    }
  }
}

func baselineDictionarySelectors(count: Int) -> Workload {
  var rows: [Row.EntityID: Row] = [:]
  for index in 0..<count {
    rows[Row.EntityID(index)] = Row(rawID: index, value: 0)
  }
  let store = BaselineStore(DictionaryState(rows: rows))
  for index in watchedRows(count: count) {
    let id = Row.EntityID(index)
    store.select({ $0.rows[id] }, onChange: { blackHole($0) })
  }
  let walk = WatchedWalk(count: count)
  return Workload { iterations in
    for _ in 0..<iterations {
      let id = Row.EntityID(walk.next())
      store.commit { $0.rows[id]?.value &+= 1 }
    }
  }
}

// MARK: - (h): a TestStore step

/// Each operation is one `await store.send(.row(id:action:)) { … }` with
/// exhaustivity on; a batch runs in one task (see `runBlocking`). A run
/// that reports a failure stops the suite: it would not be measuring the
/// passing path.
func testStoreRowStep<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int) -> Workload {
  let failures = Locked<[String]>([])
  let reporter = TestFailureReporter { message, _, _ in failures.withLock { $0.append(message) } }
  let store = Unshared(TestStore(initialState: listState(rows, count: count), reducer: Rows.listFeature, reporter: reporter))
  let walk = Unshared(RowWalk(count: count))
  return Workload(keepAlive: [store]) { iterations in
    runBlocking {
      for _ in 0..<iterations {
        let id = walk.value.next()
        await store.value.send(.row(id: id, action: .increment)) { $0.rows.update(id) { $0.value &+= 1 } }
      }
    }
    let reported = failures.withLock { $0 }
    precondition(reported.isEmpty, "TestStore reported failures: \(reported)")
  }
}

func rowOwnTestStoreStep() -> Workload {
  let failures = Locked<[String]>([])
  let reporter = TestFailureReporter { message, _, _ in failures.withLock { $0.append(message) } }
  let store = Unshared(TestStore(initialState: AppRow(id: 0), reducer: AppRowFeature(), reporter: reporter))
  return Workload(keepAlive: [store]) { iterations in
    runBlocking {
      for _ in 0..<iterations {
        await store.value.send(.increment) { $0.value &+= 1 }
      }
    }
    let reported = failures.withLock { $0 }
    precondition(reported.isEmpty, "TestStore reported failures: \(reported)")
  }
}

// MARK: - (i): persistence attached

func persistedRowCommit<Rows: AppScaleRows>(_ rows: Rows.Type, count: Int, persisted: Bool) -> Workload {
  let store = Store<AppList<Rows>, Never>(initialState: listState(rows, count: count))
  var keepAlive: [AnyObject] = [store]
  if persisted {
    do {
      keepAlive.append(try store.persist(\.self, to: freshFile(), writeInterval: .seconds(3_600)))
    } catch {
      fatalError("persistence attaches: \(error)")
    }
  }
  let walk = RowWalk(count: count)
  return Workload(keepAlive: keepAlive) { iterations in
    for _ in 0..<iterations {
      let id = walk.next()
      store.commit { $0.rows.update(id) { $0.value &+= 1 } }
    }
  }
}
