import Foundation
import VergeNeue
import VergeTestSupport
import XCTest

private struct WideRow: Equatable, Sendable, Identifiable {
  let id: Int
  var count = 0
}

private struct WideRowFeature: ActionReducer {
  typealias State = WideRow
  enum Action: Sendable { case increment }

  func reduce(into state: inout WideRow, action: Action) -> Effect<Action, Activity> {
    state.count += 1
    return .none
  }
}

/// The 64 KiB part, as a feature of its own.
private struct LargeFeature: ActionReducer {
  typealias State = LargeState
  enum Action: Sendable { case bump }

  func reduce(into state: inout LargeState, action: Action) -> Effect<Action, Activity> {
    state.count += 1
    state.last += 1
    return .none
  }
}

/// A root state of 64 KiB and a little: the large part inline beside
/// identified rows and an optional detail.
private struct WideListFeature: ActionReducer {
  struct State: Equatable, Sendable {
    var large = LargeState()
    var rows: IdentifiedArrayOf<WideRow> = [WideRow(id: 1), WideRow(id: 2)]
    var detail: WideRow?
  }
  enum Action: Sendable {
    case row(id: Int, action: WideRowFeature.Action)
    case detail(WideRowFeature.Action)
    case large(LargeFeature.Action)
    case open(id: Int)
  }

  static let rowCase = ActionCase<Action, (id: Int, action: WideRowFeature.Action)>({ .row(id: $0.id, action: $0.action) }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }
  static let detailCase = ActionCase<Action, WideRowFeature.Action>({ .detail($0) }) {
    if case .detail(let action) = $0 { action } else { nil }
  }
  static let largeCase = ActionCase<Action, LargeFeature.Action>({ .large($0) }) {
    if case .large(let action) = $0 { action } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .row, .detail, .large: break
    case .open(let id): state.detail = WideRow(id: id)
    }
    return .none
  }
}

private final class WideListMethods: ReducerType {
  typealias TargetState = WideListFeature.State

  func bumpOther() -> Mutation { .init { $0.large.other += 1 } }
}

private final class LargeMethods: ReducerType {
  typealias TargetState = LargeState

  func bump() -> Mutation {
    .init {
      $0.count += 1
      $0.last += 1
    }
  }
}

// The helpers below make and read the stores in frames of their own, so
// that the test's closure holds no copy of the state while it sends (an
// unoptimized build keeps one per temporary).

@inline(never)
private func wideMethodStore() -> ReducerStore<WideListMethods> {
  ReducerStore(initialState: WideListFeature.State(), reducer: WideListMethods())
}

@inline(never)
private func largeActionStore() -> ActionStore<LargeFeature> {
  ActionStore(initialState: LargeState(), reducer: LargeFeature())
}

@inline(never)
private func counts(_ state: WideListFeature.State) -> [Int] {
  state.rows.map(\.count) + [state.detail?.count ?? -1, state.large.count, state.large.last]
}

@inline(never)
private func counts(of store: some ReadableStore<WideListFeature.State, some Sendable>) -> [Int] {
  counts(store.state.current)
}

@inline(never)
private func wideStore() -> ActionStore<Composed<Composed<Composed<WideListFeature>>>> {
  ActionStore(
    initialState: WideListFeature.State(),
    reducer: WideListFeature()
      .embed(LargeFeature(), state: \.large, action: WideListFeature.largeCase)
      .forEach(\.rows, action: WideListFeature.rowCase, element: WideRowFeature())
      .ifLet(\.detail, action: WideListFeature.detailCase, then: WideRowFeature()))
}

/// Three middlewares that record, each, its name and the large part's
/// count before its step and after the rest of the pipeline.
private func recordingMiddlewares(
  into seen: Collected<String>
) -> [Middleware<WideListFeature.Action, WideListFeature.State>] {
  ["a", "b", "c"].map { name in
    Middleware(name: name) { step in
      let before = step.stateBefore.large.count
      let after = step.next().map { $0.large.count }
      seen.append("\(name) \(before)->\(after.map(String.init) ?? "nil")")
    }
  }
}

@inline(never)
private func wideStoreWithMiddlewares(recordingInto seen: Collected<String>) -> ActionStore<
  Composed<Composed<Composed<WideListFeature>>>
> {
  ActionStore(
    initialState: WideListFeature.State(),
    reducer: WideListFeature()
      .embed(LargeFeature(), state: \.large, action: WideListFeature.largeCase)
      .forEach(\.rows, action: WideListFeature.rowCase, element: WideRowFeature())
      .ifLet(\.detail, action: WideListFeature.detailCase, then: WideRowFeature()),
    middlewares: recordingMiddlewares(into: seen))
}

/// Three middlewares of a method reducer's pipeline that record, each, its
/// name and the large part's count before its step and after the rest of
/// the pipeline.
private func recordingMethodMiddlewares(
  into seen: Collected<String>
) -> [Middleware<ReducerMessage<WideListFeature.State>, WideListFeature.State>] {
  ["a", "b", "c"].map { name in
    Middleware(name: name) { step in
      let before = step.stateBefore.large.count
      let after = step.next().map { $0.large.count }
      seen.append("\(name) \(before)->\(after.map(String.init) ?? "nil")")
    }
  }
}

@inline(never)
private func wideMethodStoreWithMiddlewares(recordingInto seen: Collected<String>) -> ReducerStore<WideListMethods> {
  ReducerStore(
    initialState: WideListFeature.State(), reducer: WideListMethods(),
    middlewares: recordingMethodMiddlewares(into: seen))
}

/// No stack overflow: `send` through composition and scopes with a 64 KiB
/// state inline in the root, on a thread with a 512 KiB stack, in optimized
/// builds (`swift test -c release -Xswiftc -enable-testing --filter
/// SmallStack`) and unoptimized ones (see `SmallStack.maker(for:_:)`). Each
/// scenario runs in a child process, so that a stack overflow fails its test
/// instead of ending the run.
final class SmallStackSendTests: XCTestCase {
  func testTheRootStateHoldsSixtyFourKibibytesInline() {
    XCTAssertGreaterThan(MemoryLayout<WideListFeature.State>.size, 65_536)
  }

  private func expectChildSucceeds(_ scenario: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let (succeeded, stderr) = try SmallStack.runChild(
      test: "VergeNeueTests.SmallStackSendTests/testChild\(scenario)", scenario: scenario)
    XCTAssertTrue(succeeded, "\(scenario) failed or crashed on a 512 KiB stack:\n\(stderr)", file: file, line: line)
  }

  /// Runs `body` on a 512 KiB thread when this process is the child for
  /// `scenario`.
  private func child(_ scenario: String, _ body: @escaping @Sendable () -> Void) throws {
    guard SmallStack.isChild(running: scenario) else {
      throw XCTSkip("runs only as the child process of its parent test")
    }
    SmallStack.run(size: 512 * 1024, body)
  }

  // MARK: - Send through forEach and ifLet

  func testSendThroughForEachAndIfLet() throws { try expectChildSucceeds("ForEachIfLet") }

  func testChildForEachIfLet() throws {
    let makeStore = SmallStack.maker(for: "ForEachIfLet", wideStore)
    try child("ForEachIfLet") {
      let store = makeStore()
      let seen = Collected<[Int]>()
      let subscription = store.sinkState(dropsFirst: true) { changes in
        seen.append(counts(changes.current))
      }
      store.send(.row(id: 2, action: .increment))
      store.send(.open(id: 9))
      store.send(.detail(.increment))
      store.send(.large(.bump))
      XCTAssertEqual(seen.all, [[0, 1, -1, 0, 0], [0, 1, 0, 0, 0], [0, 1, 1, 0, 0], [0, 1, 1, 1, 1]])
      XCTAssertEqual(counts(of: store), [0, 1, 1, 1, 1])
      subscription.cancel()
    }
  }

  // MARK: - Making stores

  func testMakingStores() throws { try expectChildSucceeds("Making") }

  /// Every reducer store shape made on the small thread itself (512 KiB in
  /// optimized builds; `SmallStack.size` in unoptimized ones, where the
  /// helpers' own code that makes the 64 KiB state takes hundreds of KiB):
  /// a composed `ActionStore`, a plain one, a `ReducerStore`, and scopes
  /// of them.
  func testChildMaking() throws {
    guard SmallStack.isChild(running: "Making") else {
      throw XCTSkip("runs only as the child process of its parent test")
    }
    SmallStack.run {
      let composed = wideStore()
      let plain = largeActionStore()
      let methods = wideMethodStore()
      let large = composed.scope(state: \.large, action: WideListFeature.Action.large)
      let methodLarge = methods.scope(\.large, reducer: LargeMethods())
      large.send(.bump)
      plain.send(.bump)
      methodLarge.commit { $0.bump() }
      XCTAssertEqual(counts(of: composed), [0, 0, -1, 1, 1])
      XCTAssertEqual(counts(of: methods), [0, 0, -1, 1, 1])
      XCTAssertEqual(plain.version, 1)
    }
  }

  // MARK: - Scopes

  func testMethodScopeCommit() throws { try expectChildSucceeds("MethodScope") }

  func testChildMethodScope() throws {
    let makeStore = SmallStack.maker(for: "MethodScope", wideMethodStore)
    try child("MethodScope") {
      let store = makeStore()
      let large = store.scope(\.large, reducer: LargeMethods())
      let seen = Collected<[Int]>()
      let subscription = large.sinkState { changes in
        seen.append([changes.current.count, changes.current.other, changes.current.last, changes.previous?.count ?? -1])
      }
      large.commit { $0.bump() }
      store.commit { $0.bumpOther() }
      large.commit { $0.bump() }
      XCTAssertEqual(seen.all, [[0, 0, 0, -1], [1, 0, 1, 0], [1, 1, 1, 1], [2, 1, 2, 1]])
      XCTAssertEqual(counts(of: store), [0, 0, -1, 2, 2])
      subscription.cancel()
    }
  }

  func testEnumScopeSend() throws { try expectChildSucceeds("EnumScope") }

  func testChildEnumScope() throws {
    let makeStore = SmallStack.maker(for: "EnumScope", wideStore)
    try child("EnumScope") {
      let store = makeStore()
      let large = store.scope(state: \.large, action: WideListFeature.Action.large)
      let seen = Collected<[Int]>()
      let subscription = large.sinkState { changes in
        seen.append([changes.current.count, changes.current.last, changes.previous?.count ?? -1])
      }
      large.send(.bump)
      store.send(.row(id: 1, action: .increment))
      large.send(.bump)
      XCTAssertEqual(seen.all.first, [0, 0, -1])
      XCTAssertEqual(seen.all.last, [2, 2, 1])
      XCTAssertEqual(counts(of: store), [1, 0, -1, 2, 2])
      subscription.cancel()
    }
  }

  func testEnumScopeSendThroughMiddlewares() throws { try expectChildSucceeds("EnumScopeMiddlewares") }

  /// A scope's sends through the root's three middlewares while an event
  /// observer watches: the general pipeline, which a `TestStore` uses too.
  func testChildEnumScopeMiddlewares() throws {
    let seen = Collected<String>()
    let makeStore = SmallStack.maker(for: "EnumScopeMiddlewares") { wideStoreWithMiddlewares(recordingInto: seen) }
    try child("EnumScopeMiddlewares") {
      let store = makeStore()
      let events = Collected<Int>()
      let observation = store.observeEvents { _ in events.append(1) }
      let large = store.scope(state: \.large, action: WideListFeature.Action.large)
      large.send(.bump)
      large.send(.bump)
      observation.cancel()
      XCTAssertFalse(events.all.isEmpty)
      XCTAssertEqual(counts(of: store), [0, 0, -1, 2, 2])
    }
    XCTAssertEqual(seen.all, ["c 0->1", "b 0->1", "a 0->1", "c 1->2", "b 1->2", "a 1->2"])
  }

  func testSendThroughMiddlewares() throws { try expectChildSucceeds("Middlewares") }

  /// Sends on the root through its three middlewares with nothing
  /// observing: the direct send, twice (the second on the run the first
  /// left for reuse).
  func testChildMiddlewares() throws {
    let seen = Collected<String>()
    let makeStore = SmallStack.maker(for: "Middlewares") { wideStoreWithMiddlewares(recordingInto: seen) }
    try child("Middlewares") {
      let store = makeStore()
      store.send(.large(.bump))
      store.send(.large(.bump))
      XCTAssertEqual(counts(of: store), [0, 0, -1, 2, 2])
    }
    XCTAssertEqual(seen.all, ["c 0->1", "b 0->1", "a 0->1", "c 1->2", "b 1->2", "a 1->2"])
  }

  func testOwnReducerScopeSendThroughMiddlewares() throws { try expectChildSucceeds("OwnReducerScopeMiddlewares") }

  /// A scope with its own enum-action reducer on a method reducer's root
  /// with three middlewares, the root made on the small thread too (in
  /// optimized builds): each send is committed through the root's
  /// pipeline, the general one.
  func testChildOwnReducerScopeMiddlewares() throws {
    let seen = Collected<String>()
    let makeStore = SmallStack.maker(for: "OwnReducerScopeMiddlewares") {
      wideMethodStoreWithMiddlewares(recordingInto: seen)
    }
    try child("OwnReducerScopeMiddlewares") {
      let store = makeStore()
      let large = store.scope(\.large, reducer: LargeFeature())
      large.send(.bump)
      store.commit { $0.bumpOther() }
      large.send(.bump)
      XCTAssertEqual(counts(of: store), [0, 0, -1, 2, 2])
    }
    XCTAssertEqual(
      seen.all,
      [
        "c 0->1", "b 0->1", "a 0->1",  // the scope's .bump
        "c 1->1", "b 1->1", "a 1->1",  // the root's own mutation
        "c 1->2", "b 1->2", "a 1->2",  // the scope's second .bump
      ])
  }
}
