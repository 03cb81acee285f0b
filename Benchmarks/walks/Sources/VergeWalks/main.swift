import Foundation
import Verge
import VergeNeue
import VergeTesting

// Usage: VergeWalks commit|row|persist|teststore
// Sets up one walk, makes its call once (see Walks.swift), and exits.

/// Runs `body` to its end on the calling thread's task, as a test would.
func runBlocking(_ body: @escaping @Sendable () async -> Void) {
  let done = DispatchSemaphore(value: 0)
  Task.immediate {
    await body()
    done.signal()
  }
  done.wait()
}

/// Hands a non-`Sendable` value to the task of `runBlocking`.
final class Unshared<Value>: @unchecked Sendable {
  // Safe: only the one task of `runBlocking` reads it, while the caller waits.
  let value: Value
  init(_ value: Value) { self.value = value }
}

nonisolated func commitWalk() {
  let store = Store<Counter, Never>(initialState: Counter())
  store.sinkState(dropsFirst: true) { changes in precondition(changes.current.count == 1) }
    .storeWhileSourceActive()
  walkCommit(store)
  precondition(store.state.current.count == 1)
}

nonisolated func rowWalk() {
  let rows = IdentifiedArrayOf(uniqueElements: (0..<100).map { Row(id: $0) })
  let store = ActionStore(
    initialState: ListActions.State(rows: rows),
    reducer: ListActions().forEach(\.rows, action: ListActions.rowCase, element: RowActions()))
  store.sinkState(dropsFirst: true) { changes in precondition(changes.current.rows[id: 7]?.value == 1) }
    .storeWhileSourceActive()
  walkRowAction(store, .row(id: 7, action: .bump))
  precondition(store.state.current.rows[id: 7]?.value == 1)
}

nonisolated func persistWalk() throws {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("verge-walks-\(getpid())", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let store = Store<Counter, Never>(initialState: Counter())
  let persistence = try walkPersist(store, to: directory.appendingPathComponent("state.json"))
  try persistence.close()
}

nonisolated func testStoreWalk() {
  let store = Unshared(TestStore(initialState: Counter(), reducer: CounterActions()))
  walkTestStore(store)
  runBlocking { await store.value.finish() }
}

switch CommandLine.arguments.dropFirst().first {
case "commit": commitWalk()
case "row": rowWalk()
case "persist": try persistWalk()
case "teststore": testStoreWalk()
default:
  FileHandle.standardError.write(Data("usage: VergeWalks commit|row|persist|teststore\n".utf8))
  exit(2)
}
