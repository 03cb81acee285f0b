import BaselineStore
import Foundation
import Verge
import VergeORM

/// Scenario 5's entity: a small record with an integer ID.
struct Row: EntityType {
  typealias EntityIDRawType = Int
  var entityID: EntityID { .init(rawID) }
  let rawID: Int
  var value: Int
}

/// Scenario 5's database: one table of rows, no index.
struct RowDatabase: DatabaseType {
  struct Schema: EntitySchemaType {
    let row = Row.EntityTableKey()
  }
  struct Indexes: IndexesType {}
  var _backingStorage: BackingStorage = .init()
}

/// Scenario 5's state on the library's side.
struct ORMState: Equatable, Sendable {
  var database = RowDatabase()
}

/// Scenario 5's state on the baseline's side: the same rows in a
/// `Dictionary` by the same ID type.
struct DictionaryState: Equatable, Sendable {
  var rows: [Row.EntityID: Row] = [:]
}

/// The sizes of scenario 5; quick mode shrinks them so that it stays within
/// seconds.
struct ORMSizes {
  /// Entities inserted in one batch (100,000).
  let batch: Int
  /// Entities in the big table: update, find, memory (1,000,000).
  let table: Int
  /// Derived entities, and entities in their table (10,000).
  let derived: Int
  /// Entities encoded and decoded (100,000).
  let coded: Int

  static let full = ORMSizes(batch: 100_000, table: 1_000_000, derived: 10_000, coded: 100_000)
  static let quick = ORMSizes(batch: 10_000, table: 10_000, derived: 1_000, coded: 10_000)

  var insertCase: String { "insert \(grouped(batch)) entities in one batch" }
  var updateCase: String { "update 1 entity of \(grouped(table)), subscriber holds the previous state" }
  var findCase: String { "find by ID in \(grouped(table))" }
  var derivedCase: String { "\(grouped(derived)) derived entities, 1 entity updated" }
  var encodeCase: String { "JSONEncoder: encode \(grouped(coded)) entities" }
  var decodeCase: String { "JSONDecoder: decode \(grouped(coded)) entities" }
  var memoryProbe: String { "memory held by \(grouped(table)) entities" }
}

extension Scenario {
  /// 5. VergeORM against the same entities in a `Dictionary`.
  static func orm(quick: Bool) -> Scenario {
    let sizes = quick ? ORMSizes.quick : .full
    return Scenario(
      number: 5,
      title: "VergeORM against a Dictionary of the same entities",
      cases: [
        BenchmarkCase(
          name: sizes.insertCase, units: sizes.batch,
          library: { insertBatch(count: sizes.batch) },
          baseline: { baselineInsert(count: sizes.batch) }),
        BenchmarkCase(
          name: sizes.updateCase,
          library: { updateOne(count: sizes.table) },
          baseline: { baselineUpdateOne(count: sizes.table) }),
        BenchmarkCase(
          name: sizes.findCase,
          library: { findByID(count: sizes.table) },
          baseline: { baselineFind(count: sizes.table) }),
        BenchmarkCase(
          name: sizes.derivedCase, units: sizes.derived,
          library: { derivedEntities(count: sizes.derived) },
          baseline: { baselineDerivedEntities(count: sizes.derived) }),
        BenchmarkCase(
          name: sizes.encodeCase, units: sizes.coded,
          library: { encode(count: sizes.coded) },
          baseline: { baselineEncode(count: sizes.coded) }),
        BenchmarkCase(
          name: sizes.decodeCase, units: sizes.coded,
          library: { decode(count: sizes.coded) },
          baseline: { baselineDecode(count: sizes.coded) }),
      ],
      probes: [
        Probe(
          name: sizes.memoryProbe, unit: "live heap bytes per entity, mallinfo2",
          library: { heapBytesHeld { database(count: sizes.table) }.map { $0 / Double(sizes.table) } },
          baseline: { heapBytesHeld { dictionary(count: sizes.table) }.map { $0 / Double(sizes.table) } })
      ],
      targets: { ormTargets($0, sizes: sizes) })
  }
}

private func ormTargets(_ results: ScenarioResults, sizes: ORMSizes) -> [TargetVerdict] {
  var verdicts: [TargetVerdict] = [
    .atMost(
      "update 1 of \(grouped(sizes.table)) while the previous state is held: at most 5 µs",
      results[sizes.updateCase]?.library.nanosecondsPerOperation, limit: 5_000, format: Formatting.time)
  ]
  if let update = results[sizes.updateCase] {
    let speedup = 1 / update.ratio
    verdicts.append(
      TargetVerdict(
        target: "update 1 of \(grouped(sizes.table)) while the previous state is held: "
          + "at least 100× faster than the Dictionary",
        outcome: speedup >= 100 ? .met : .missed,
        measured: speedup >= 100
          ? "\(Formatting.ratio(speedup)) faster"
          : "\(Formatting.ratio(speedup)) faster (\(Formatting.ratio(100 / speedup)) short)"))
  }
  verdicts.append(
    .atMost(
      "find by ID: within 3× a Dictionary lookup", results[sizes.findCase]?.ratio,
      limit: 3, format: Formatting.ratio))
  verdicts.append(
    .atMost(
      "memory per entity at \(grouped(sizes.table)): within 2× the Dictionary",
      results.probe(sizes.memoryProbe)?.ratio, limit: 2, format: Formatting.ratio))
  return verdicts
}

// MARK: - Data

private func rows(count: Int) -> [Row] {
  (0..<count).map { Row(rawID: $0, value: 0) }
}

private func database(count: Int) -> RowDatabase {
  let entities = rows(count: count)
  var database = RowDatabase()
  database.performBatchUpdates { $0.entities.row.insert(entities) }
  return database
}

private func dictionary(count: Int) -> [Row.EntityID: Row] {
  var rows: [Row.EntityID: Row] = [:]
  for index in 0..<count {
    rows[Row.EntityID(index)] = Row(rawID: index, value: 0)
  }
  return rows
}

/// IDs in a scattered order (a stride coprime with the count), so that
/// consecutive operations do not touch neighbouring entries.
private final class IDWalk {
  private let cursor: Cursor
  private let count: Int

  init(count: Int) {
    self.count = count
    cursor = Cursor(count: count)
  }

  func next() -> Row.EntityID {
    Row.EntityID((cursor.next() &* 7_919) % count)
  }
}

/// Commits an update of one row, which exists.
private func update(_ store: Store<ORMState, Never>, _ id: Row.EntityID) {
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

// MARK: - Insert

/// A new store per operation, filled by one batch; the store and its table
/// are released at the end of the operation, as on the baseline's side.
func insertBatch(count: Int) -> Workload {
  let entities = rows(count: count)
  return Workload { iterations in
    for _ in 0..<iterations {
      let store = Store<ORMState, Never>(initialState: ORMState())
      store.commit { $0.database.performBatchUpdates { $0.entities.row.insert(entities) } }
      blackHole(store.state.database.entities.row.count)
    }
  }
}

func baselineInsert(count: Int) -> Workload {
  let entities = rows(count: count)
  return Workload { iterations in
    for _ in 0..<iterations {
      let store = BaselineStore(DictionaryState())
      store.commit { state in
        for entity in entities {
          state.rows[entity.entityID] = entity
        }
      }
      blackHole(store.state.rows.count)
    }
  }
}

// MARK: - Update while the previous state is held

private func updateOne(count: Int) -> Workload {
  let store = Store<ORMState, Never>(initialState: ORMState(database: database(count: count)))
  // A whole-state subscriber: Verge hands it the previous state with the
  // current one, so the previous database is alive during every commit.
  store.sinkState(dropsFirst: true) { changes in blackHole(changes.previous) }
    .storeWhileSourceActive()
  let ids = IDWalk(count: count)
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      update(store, ids.next())
    }
  }
}

/// The callback keeps the state it received, which is the previous state
/// at the next commit: the dictionary is shared, so the next write copies it.
private func baselineUpdateOne(count: Int) -> Workload {
  let store = BaselineStore(DictionaryState(rows: dictionary(count: count)))
  let held = Locked<DictionaryState?>(nil)
  store.subscribe { state in held.withLock { $0 = state } }
  let ids = IDWalk(count: count)
  return Workload { iterations in
    for _ in 0..<iterations {
      let id = ids.next()
      store.commit { $0.rows[id]?.value &+= 1 }
    }
  }
}

// MARK: - Find

func findByID(count: Int) -> Workload {
  let database = database(count: count)
  let ids = IDWalk(count: count)
  return Workload { iterations in
    for _ in 0..<iterations {
      blackHole(database.entities.row.find(by: ids.next()))
    }
  }
}

func baselineFind(count: Int) -> Workload {
  let rows = dictionary(count: count)
  let ids = IDWalk(count: count)
  return Workload { iterations in
    for _ in 0..<iterations {
      blackHole(rows[ids.next()])
    }
  }
}

// MARK: - Derived entities

private func derivedEntities(count: Int) -> Workload {
  let store = Store<ORMState, Never>(initialState: ORMState(database: database(count: count)))
  let followed: [AnyObject] = (0..<count).map { index in
    store.derivedEntity(Row.EntityID(index), in: \ORMState.database)
  }
  let ids = IDWalk(count: count)
  return Workload(keepAlive: followed + [store]) { iterations in
    for _ in 0..<iterations {
      update(store, ids.next())
    }
  }
}

private func baselineDerivedEntities(count: Int) -> Workload {
  let store = BaselineStore(DictionaryState(rows: dictionary(count: count)))
  for index in 0..<count {
    let id = Row.EntityID(index)
    store.select({ $0.rows[id] }, onChange: { blackHole($0) })
  }
  let ids = IDWalk(count: count)
  return Workload { iterations in
    for _ in 0..<iterations {
      let id = ids.next()
      store.commit { $0.rows[id]?.value &+= 1 }
    }
  }
}

// MARK: - Coding

private func encode(count: Int) -> Workload {
  let database = database(count: count)
  return Workload { iterations in
    for _ in 0..<iterations {
      blackHole(try? JSONEncoder().encode(database))
    }
  }
}

private func baselineEncode(count: Int) -> Workload {
  let rows = dictionary(count: count)
  return Workload { iterations in
    for _ in 0..<iterations {
      blackHole(try? JSONEncoder().encode(rows))
    }
  }
}

private func decode(count: Int) -> Workload {
  let data = encoded(database(count: count))
  return Workload { iterations in
    for _ in 0..<iterations {
      blackHole(decoded(RowDatabase.self, from: data).entities.row.count)
    }
  }
}

private func baselineDecode(count: Int) -> Workload {
  let data = encoded(dictionary(count: count))
  return Workload { iterations in
    for _ in 0..<iterations {
      blackHole(decoded([Row.EntityID: Row].self, from: data).count)
    }
  }
}

private func encoded(_ value: some Encodable) -> Data {
  do {
    return try JSONEncoder().encode(value)
  } catch {
    fatalError("rows encode: \(error)")
  }
}

private func decoded<Value: Decodable>(_ type: Value.Type, from data: Data) -> Value {
  do {
    return try JSONDecoder().decode(type, from: data)
  } catch {
    fatalError("what was encoded decodes: \(error)")
  }
}
