import Synchronization
import VergeNeue
import VergeTestSupport
import XCTest

struct Photo: Equatable, Sendable {
  var id: Int
  var title: String
}

struct PhotoState: Equatable, Sendable {
  var photos: [Photo] = []
  var isLoading = false
  var count = 0
}

/// A dependency the reducer holds; tests swap it.
struct PhotoAPI: Sendable {
  var photos: @Sendable () async throws -> [Photo]
}

enum PhotoActivity: Sendable, Equatable {
  case loaded(Int)
}

final class PhotoReducer: ReducerType {
  typealias TargetState = PhotoState
  typealias TargetActivity = PhotoActivity

  let api: PhotoAPI
  init(api: PhotoAPI) { self.api = api }

  func setLoading(_ loading: Bool) -> Mutation { .init { $0.isLoading = loading } }
  func setPhotos(_ photos: [Photo]) -> Mutation { .init { $0.photos = photos } }
  func increment() -> Mutation { .init { $0.count += 1 } }

  func fetchPhotos() -> Action<Int> {
    .init { context in
      context.commit { $0.setLoading(true) }
      let photos = try await self.api.photos()
      context.commit { $0.setPhotos(photos) }
      context.commit { $0.setLoading(false) }
      context.send(.loaded(photos.count))
      return context.state.photos.count
    }
  }

  func incrementTwice() -> Action<Void> {
    .init { context in
      context.commit { $0.increment() }
      try await context.dispatch { $0.incrementOnce() }
    }
  }

  func incrementOnce() -> Action<Void> {
    .init { context in context.commit { $0.increment() } }
  }
}

final class ReducerStoreTests: XCTestCase {
  private let twoPhotos = [Photo(id: 1, title: "a"), Photo(id: 2, title: "b")]

  func testDispatchReturnsTheResultAndSendsActivities() async throws {
    let photos = twoPhotos
    let store = ReducerStore(initialState: PhotoState(), reducer: PhotoReducer(api: PhotoAPI { photos }))
    let activities = Collected<PhotoActivity>()
    store.sinkActivity { activities.append($0) }.storeWhileSourceActive()

    let count = try await store.dispatch { $0.fetchPhotos() }

    XCTAssertEqual(count, 2)
    XCTAssertEqual(store.state.photos, photos)
    XCTAssertFalse(store.state.isLoading)
    XCTAssertEqual(activities.all, [.loaded(2)])
  }

  func testActionThatThrowsKeepsItsLastCommitAndReportsTheError() async {
    let api = PhotoAPI { throw TestFailure(message: "offline") }
    let store = ReducerStore(initialState: PhotoState(), reducer: PhotoReducer(api: api))
    do {
      try await store.dispatch { $0.fetchPhotos() }
      XCTFail("dispatch should throw")
    } catch {
      XCTAssertEqual(error as? TestFailure, TestFailure(message: "offline"))
    }
    // setLoading(true) was the last successful commit; nothing after it ran.
    XCTAssertEqual(store.state.current, PhotoState(photos: [], isLoading: true, count: 0))
  }

  func testMutationNamesReachCoreCommitMiddlewares() {
    let traces = Collected<String>()
    let spy = CommitMiddleware<PhotoState>(name: "spy") { _, _, trace in traces.append(trace.name) }
    let store = ReducerStore(
      initialState: PhotoState(), reducer: PhotoReducer(api: PhotoAPI { [] }), commitMiddlewares: [spy])
    store.commit { $0.increment() }
    store.commit { $0.setLoading(true) }
    XCTAssertEqual(traces.all, ["increment()", "setLoading(_:)"])
  }

  func testActionsDispatchOtherActions() async throws {
    let store = ReducerStore(initialState: PhotoState(), reducer: PhotoReducer(api: PhotoAPI { [] }))
    try await store.dispatch { $0.incrementTwice() }
    XCTAssertEqual(store.state.count, 2)
  }

  func testCoreFeaturesWorkTheSame() async {
    let store = ReducerStore(initialState: PhotoState(), reducer: PhotoReducer(api: PhotoAPI { [] }))
    let counts = Collected<Int>()
    store.sinkState { changes in
      changes.ifChanged(\.count) { counts.append($0) }
    }
    .storeWhileSourceActive()
    let doubled = store.derived(.map { $0.count * 2 })
    store.commit { $0.increment() }
    store.commit { $0.setLoading(true) }
    store.commit { $0.increment() }
    XCTAssertEqual(counts.all, [0, 1, 2])
    XCTAssertEqual(doubled.value, 4)

    var iterator = store.changes.makeAsyncIterator()
    let first = await iterator.next()
    XCTAssertEqual(first?.current.count, 2)

    let ran = Gate()
    store.task(key: TaskKey("x")) { ran.open() }
    await ran.wait()
  }

  func testConcurrentDispatchesFromManyTasksAreAllApplied() async throws {
    let store = ReducerStore(initialState: PhotoState(), reducer: PhotoReducer(api: PhotoAPI { [] }))
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<200 {
        group.addTask { try await store.dispatch { $0.incrementTwice() } }
        group.addTask { store.commit { $0.increment() } }
      }
      try await group.waitForAll()
    }
    XCTAssertEqual(store.state.count, 600)
  }

  func testObserverSeesMutationsAndActionsAndIdleIsAwaitable() async throws {
    let gate = Gate()
    let api = PhotoAPI {
      await gate.wait()
      return [Photo(id: 9, title: "z")]
    }
    let store = ReducerStore(initialState: PhotoState(), reducer: PhotoReducer(api: api))
    let log = Collected<String>()
    let started = Gate()
    let observation = store.observeEvents { event in
      switch event {
      case .committed(let mutation, let before, let after):
        log.append("\(mutation.name) \(before.photos.count)->\(after.photos.count)")
      case .actionStarted(let info):
        log.append("start \(info.name)")
        started.open()
      case .actionFinished(let info, let error):
        log.append("end \(info.name) \(error == nil)")
      case .activitySent(let activity):
        log.append("activity \(activity)")
      }
    }
    let running = Task { try await store.dispatch { $0.fetchPhotos() } }
    await started.wait()
    XCTAssertEqual(store.actionsInFlight, 1)
    gate.open()
    await store.waitUntilIdle()
    XCTAssertEqual(store.actionsInFlight, 0)
    _ = try await running.value
    XCTAssertEqual(
      log.all,
      [
        "start fetchPhotos()", "setLoading(_:) 0->0", "setPhotos(_:) 0->1", "setLoading(_:) 1->1",
        "activity loaded(1)", "end fetchPhotos() true",
      ])
    observation.cancel()
    store.commit { $0.increment() }
    XCTAssertEqual(log.all.count, 6)
  }
}
