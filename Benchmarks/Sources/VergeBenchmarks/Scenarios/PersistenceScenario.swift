import Foundation
import Verge
import VergeORM

/// The sizes of scenario 7; quick mode shrinks the database.
struct PersistenceSizes {
  /// Entities in the persisted database (100,000).
  let entities: Int

  static let full = PersistenceSizes(entities: 100_000)
  static let quick = PersistenceSizes(entities: 10_000)

  var writeCase: String { "write a \(grouped(entities))-entity database to its file" }
  var scheduledCase: String { "update 1 entity of \(grouped(entities)), a write scheduled" }
  var writingCase: String { "update 1 entity of \(grouped(entities)), writing every 20 ms" }
  var counterCase: String { "counter commit, a write scheduled (for information)" }
}

extension Scenario {
  /// 7. File persistence: writing a VergeORM database, and what persistence
  /// adds to a commit.
  ///
  /// The baseline of the write case is the same database encoded with
  /// `JSONEncoder` and written with `Data.write(to:options: .atomic)`
  /// (no sync to the disk); the baseline of the commit cases is the same
  /// store without persistence.
  static func persistence(quick: Bool) -> Scenario {
    let sizes = quick ? PersistenceSizes.quick : .full
    return Scenario(
      number: 7,
      title: "File persistence",
      cases: [
        BenchmarkCase(
          name: sizes.writeCase, units: sizes.entities,
          library: { persistedWrite(count: sizes.entities) },
          baseline: { plainWrite(count: sizes.entities) }),
        BenchmarkCase(
          name: sizes.scheduledCase,
          library: { persistedUpdates(count: sizes.entities, interval: .seconds(3600)) },
          baseline: { plainUpdates(count: sizes.entities) }),
        BenchmarkCase(
          name: sizes.counterCase,
          library: { persistedCounter() },
          baseline: { plainCounter() }),
        // Last: its store's final write runs on after the case, and would
        // slow down whatever is measured next.
        BenchmarkCase(
          name: sizes.writingCase,
          library: { persistedUpdates(count: sizes.entities, interval: .milliseconds(20)) },
          baseline: { plainUpdates(count: sizes.entities) }),
      ],
      targets: { results in
        [
          .atMost(
            "commit with a write scheduled: at most 1.2× the same commit without persistence",
            results[sizes.scheduledCase]?.ratio, limit: 1.2, format: Formatting.ratio),
          .atMost(
            "commit while writes run: at most 1.2× the same commit without persistence",
            results[sizes.writingCase]?.ratio, limit: 1.2, format: Formatting.ratio),
        ]
      })
  }
}

// MARK: - Files

/// Where the scenario's state files go: a directory of this process's own.
private let persistenceDirectoryURL = FileManager.default.temporaryDirectory
  .appendingPathComponent("verge-benchmarks-persistence-\(getpid())", isDirectory: true)

/// The directory, created on first use and removed when the process exits.
private let persistenceDirectory: URL = {
  let url = persistenceDirectoryURL
  try? FileManager.default.removeItem(at: url)
  do {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  } catch {
    fatalError("cannot create \(url.path): \(error)")
  }
  atexit { try? FileManager.default.removeItem(at: persistenceDirectoryURL) }
  return url
}()

/// A file of its own for each workload (a file takes one store at a time).
func freshFile() -> URL {
  persistenceDirectory.appendingPathComponent("\(UUID().uuidString).json")
}

private func attach<State: Codable & Equatable & Sendable>(
  _ store: Store<State, Never>, interval: Duration
) -> FilePersistence {
  do {
    return try store.persist(\.self, to: freshFile(), writeInterval: interval)
  } catch {
    fatalError("persistence attaches: \(error)")
  }
}

// MARK: - Data

/// Scenario 7's persisted state: the database alone.
struct PersistedRows: Equatable, Codable, Sendable {
  var database = RowDatabase()
}

private func persistedRows(count: Int) -> PersistedRows {
  let entities = (0..<count).map { Row(rawID: $0, value: 0) }
  var state = PersistedRows()
  state.database.performBatchUpdates { $0.entities.row.insert(entities) }
  return state
}

private func update(_ store: Store<PersistedRows, Never>, _ id: Int) {
  do {
    try store.commit { (state) throws(DatabaseError) in
      try state.database.performBatchUpdates { (context) throws(DatabaseError) in
        try context.entities.row.update(Row.EntityID(id)) { $0.value &+= 1 }
      }
    }
  } catch {
    fatalError("the row exists: \(error)")
  }
}

// MARK: - Writing the database

/// Each operation changes one entity, then flushes: encoding, checksum,
/// temporary file, fsync, rename, directory fsync.
private func persistedWrite(count: Int) -> Workload {
  let store = Store<PersistedRows, Never>(initialState: persistedRows(count: count))
  let persistence = attach(store, interval: .seconds(3600))
  let cursor = Cursor(count: count)
  return Workload(keepAlive: [store, persistence]) { iterations in
    for _ in 0..<iterations {
      update(store, (cursor.next() &* 7_919) % count)
      do {
        try persistence.flushSynchronously()
      } catch {
        fatalError("the write succeeds: \(error)")
      }
    }
  }
}

private func plainWrite(count: Int) -> Workload {
  let state = persistedRows(count: count)
  let file = freshFile()
  return Workload { iterations in
    for _ in 0..<iterations {
      do {
        try JSONEncoder().encode(state).write(to: file, options: .atomic)
      } catch {
        fatalError("the write succeeds: \(error)")
      }
    }
  }
}

// MARK: - Commit cost

private func persistedUpdates(count: Int, interval: Duration) -> Workload {
  let store = Store<PersistedRows, Never>(initialState: persistedRows(count: count))
  let persistence = attach(store, interval: interval)
  let cursor = Cursor(count: count)
  return Workload(keepAlive: [store, persistence]) { iterations in
    for _ in 0..<iterations {
      update(store, (cursor.next() &* 7_919) % count)
    }
  }
}

private func plainUpdates(count: Int) -> Workload {
  let store = Store<PersistedRows, Never>(initialState: persistedRows(count: count))
  let cursor = Cursor(count: count)
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      update(store, (cursor.next() &* 7_919) % count)
    }
  }
}

/// Scenario 7's small state.
struct PersistedCounter: Equatable, Codable, Sendable {
  var count = 0
}

private func persistedCounter() -> Workload {
  let store = Store<PersistedCounter, Never>(initialState: PersistedCounter())
  let persistence = attach(store, interval: .seconds(3600))
  return Workload(keepAlive: [store, persistence]) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 1 }
    }
  }
}

private func plainCounter() -> Workload {
  let store = Store<PersistedCounter, Never>(initialState: PersistedCounter())
  return Workload(keepAlive: [store]) { iterations in
    for _ in 0..<iterations {
      store.commit { $0.count &+= 1 }
    }
  }
}
