import Synchronization
import VergeNeue
import VergeTestSupport
import XCTest

final class MiddlewareTests: XCTestCase {
  typealias Action = CounterFeature.Action
  typealias State = CounterFeature.State

  func testMiddlewaresRunInOrderAndSeeStateBeforeAndAfter() {
    let seen = Collected<String>()
    func tracer(_ name: String) -> Middleware<Action, State> {
      Middleware(name: name) { step in
        seen.append("\(name) in \(step.stateBefore.count)")
        let after = step.next()
        seen.append("\(name) out \(after?.count ?? -1)")
      }
    }
    let store = ActionStore(
      initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [tracer("A"), tracer("B")])
    store.send(.add(2))
    XCTAssertEqual(seen.all, ["A in 0", "B in 0", "B out 2", "A out 2"])
  }

  func testMiddlewareTransformsDropsAndDispatchesMore() {
    let rules = Middleware<Action, State>(name: "rules") { step in
      switch step.message {
      case .add(let amount) where amount < 0:
        return  // drop
      case .add(let amount):
        step.next(.add(amount * 10))  // transform
      case .increment:
        step.next()
        step.dispatch(.note("incremented"))  // dispatch more, queued after
      default:
        step.next()
      }
    }
    let store = ActionStore(initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [rules])
    store.send(.add(-5))
    XCTAssertEqual(store.state.count, 0)
    store.send(.add(2))
    XCTAssertEqual(store.state.count, 20)
    store.send(.increment)
    XCTAssertEqual(store.state.current, State(count: 21, log: ["incremented"]))
  }

  func testMiddlewareDelaysAnAction() async {
    let release = Gate()
    let delay = Middleware<Action, State>(name: "delay") { step in
      let later = step.keep()
      Task {
        await release.wait()
        later.next()
      }
    }
    let store = ActionStore(initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [delay])
    let task = store.send(.increment)
    XCTAssertEqual(store.state.count, 0)
    release.open()
    await task.finish()
    XCTAssertEqual(store.state.count, 1)
  }

  func testReducerStoreMiddlewareSeesMutationsAndCanDropActions() async throws {
    let names = Collected<String>()
    let gatekeeper = Middleware<ReducerMessage<PhotoState>, PhotoState>(name: "gatekeeper") { step in
      names.append(step.message.description)
      if case .action(let info) = step.message, info.name == "incrementOnce()" { return }
      step.next()
    }
    let store = ReducerStore(
      initialState: PhotoState(), reducer: PhotoReducer(api: PhotoAPI { [] }), middlewares: [gatekeeper])
    store.commit { $0.increment() }
    do {
      try await store.dispatch { $0.incrementTwice() }
      XCTFail("the inner action should be dropped")
    } catch {
      XCTAssertEqual(error as? NeueError, .dropped(name: "incrementOnce()"))
    }
    XCTAssertEqual(store.state.count, 2)
    XCTAssertEqual(names.all, ["increment()", "action incrementTwice()", "increment()", "action incrementOnce()"])
  }

  func testReducerStoreMiddlewareDelaysAnAction() async throws {
    let release = Gate()
    let delay = Middleware<ReducerMessage<PhotoState>, PhotoState>(name: "delay") { step in
      guard case .action = step.message else {
        step.next()
        return
      }
      let later = step.keep()
      Task {
        await release.wait()
        later.next()
      }
    }
    let store = ReducerStore(
      initialState: PhotoState(), reducer: PhotoReducer(api: PhotoAPI { [] }), middlewares: [delay])
    let running = Task { try await store.dispatch { $0.incrementOnce() } }
    release.open()
    try await running.value
    XCTAssertEqual(store.state.count, 1)
  }

  func testLoggerDescribesEachChange() {
    let lines = Collected<String>()
    let store = ActionStore(
      initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [.logging { lines.append($0) }])
    store.send(.add(3))
    store.send(.add(0))
    XCTAssertEqual(lines.all, ["add(3): count 0 → 3", "add(0): no change"])

    let mutations = Collected<String>()
    let reducerStore = ReducerStore(
      initialState: PhotoState(), reducer: PhotoReducer(api: PhotoAPI { [] }),
      middlewares: [.logging { mutations.append($0) }])
    reducerStore.commit { $0.increment() }
    XCTAssertEqual(mutations.all, ["increment(): count 0 → 1"])
  }

  func testUndoRedoWithABoundedHistory() throws {
    let history = try UndoHistory<State>(limit: 2)
    let store = ActionStore(
      initialState: State(), reducer: CounterFeature(gate: Gate()), middlewares: [history.middleware()])
    store.send(.add(1))
    store.send(.add(1))
    store.send(.add(1))
    XCTAssertEqual(history.undoCount, 2)
    XCTAssertTrue(history.undo(in: store.core))
    XCTAssertEqual(store.state.count, 2)
    XCTAssertTrue(history.undo(in: store.core))
    XCTAssertEqual(store.state.count, 1)
    XCTAssertFalse(history.undo(in: store.core), "only two steps are kept")
    XCTAssertTrue(history.redo(in: store.core))
    XCTAssertEqual(store.state.count, 2)
    store.send(.add(5))
    XCTAssertEqual(history.redoCount, 0, "a new change clears redo")
    XCTAssertThrowsError(try UndoHistory<State>(limit: 0)) { error in
      guard case .invalidArgument = error as? NeueError else { return XCTFail("\(error)") }
    }
  }

  func testRecordingReplaysToTheSameFinalState() async throws {
    let recorder = Recorder<Action, State>()
    let gate = Gate()
    gate.open()
    let store = ActionStore(
      initialState: State(), reducer: CounterFeature(gate: gate), middlewares: [recorder.middleware()])
    store.send(.add(3))
    await store.send(.startSteps).finish()
    store.send(.fanOut)
    await store.waitUntilIdle()

    let fresh = ActionStore(initialState: State(), reducer: CounterFeature(gate: Gate()))
    try fresh.replay(recorder.recording)
    XCTAssertEqual(fresh.state.current, store.state.current)

    let elsewhere = ActionStore(initialState: State(count: 7), reducer: CounterFeature(gate: Gate()))
    XCTAssertThrowsError(try elsewhere.replay(recorder.recording)) { error in
      XCTAssertEqual(error as? NeueError, .replayStartMismatch(differences: ["count 0 → 7"]))
    }
    XCTAssertEqual(elsewhere.state.current, State(count: 7), "a refused replay changes nothing")
  }

  func testReducerStoreRecordingReplays() async throws {
    let recorder = Recorder<ReducerMessage<PhotoState>, PhotoState>()
    let photos = [Photo(id: 1, title: "a")]
    let store = ReducerStore(
      initialState: PhotoState(), reducer: PhotoReducer(api: PhotoAPI { photos }),
      middlewares: [recorder.middleware()])
    try await store.dispatch { $0.fetchPhotos() }
    store.commit { $0.increment() }

    // The replaying store's reducer has no network at all: mutations alone reproduce the state.
    let fresh = ReducerStore(
      initialState: PhotoState(), reducer: PhotoReducer(api: PhotoAPI { throw TestFailure(message: "no network") }))
    try fresh.replay(recorder.recording)
    XCTAssertEqual(fresh.state.current, store.state.current)
  }
}
