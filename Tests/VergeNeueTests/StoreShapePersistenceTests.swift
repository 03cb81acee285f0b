import Foundation
import Verge
@testable import VergeNeue
import VergeTestSupport
import XCTest

/// Persistence works on every root store shape, and a scope is pointed at
/// its root.
final class StoreShapePersistenceTests: XCTestCase {
  struct Tally: Equatable, Sendable, Codable { var count = 0 }

  final class TallyReducer: ReducerType {
    typealias TargetState = Tally
    func add(_ amount: Int) -> Mutation { .init { $0.count += amount } }
  }

  struct TallyFeature: ActionReducer {
    typealias State = Tally
    enum Action: Sendable { case add(Int) }
    func reduce(into state: inout Tally, action: Action) -> Effect<Action, Activity> {
      switch action {
      case .add(let amount):
        state.count += amount
        return .none
      }
    }
  }

  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("StoreShapePersistenceTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  func testAReducerStorePersistsAndRestores() throws {
    let url = directory.appendingPathComponent("reducer.state")
    do {
      let store = ReducerStore(initialState: Tally(), reducer: TallyReducer())
      let persistence = try store.persist(\.self, to: url)
      store.commit { $0.add(3) }
      try persistence.close()
    }
    let restored = ReducerStore(initialState: Tally(), reducer: TallyReducer())
    let persistence = try restored.persist(\.self, to: url)
    XCTAssertEqual(restored.state.count, 3)
    try persistence.close()
  }

  func testAnActionStorePersistsAPartAndRestoresIt() async throws {
    let url = directory.appendingPathComponent("action.state")
    do {
      let store = ActionStore(initialState: Tally(), reducer: TallyFeature())
      let persistence = try store.persist(\.count, to: url)
      await store.send(.add(5)).finish()
      try persistence.close()
    }
    let restored = ActionStore(initialState: Tally(), reducer: TallyFeature())
    let persistence = try restored.persist(\.count, to: url)
    XCTAssertEqual(restored.state.count, 5)
    try persistence.close()
  }

  func testAScopeIsToldToPersistOnItsRoot() throws {
    struct Root: Equatable, Sendable { var tally = Tally() }
    let root = Store<Root, Never>(initialState: Root())
    let scope = root.scope(\.tally, reducer: TallyReducer())
    XCTAssertThrowsError(try scope.persist(\.self, to: directory.appendingPathComponent("scope.state"))) {
      guard case .invalidConfiguration(let reason) = $0 as? PersistenceError else {
        return XCTFail("unexpected error \($0)")
      }
      XCTAssertTrue(reason.contains("root store"), reason)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("scope.state").path))
  }
}
