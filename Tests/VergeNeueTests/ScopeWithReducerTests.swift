import Foundation
import Verge
@testable import VergeNeue
import VergeTestSupport
import XCTest

// A feature with its own enum-action reducer on a part of a root that has
// none: `scope(_:reducer:)` on a core `Store`, a `ReducerStore` and a method
// `ScopedStore`.

private struct Talk: Equatable, Sendable {
  var draft = Note()
  var sent: [String] = []
  var unrelated = 0
}

private struct Note: Equatable, Sendable {
  var text = ""
  var log: [String] = []
}

private enum TalkActivity: Sendable, Equatable { case posted(String) }

/// Edits a note; its effects exercise every kind of `Effect`.
private struct NoteFeature: ActionReducer {
  typealias State = Note
  typealias Activity = TalkActivity
  enum Action: Sendable, Equatable {
    case edit(String), post
    case load(String), loaded(String), stop
    case first, second, third
  }

  var gate = Gate()

  func reduce(into state: inout Note, action: Action) -> Effect<Action, Activity> {
    state.log.append("\(action)")
    switch action {
    case .edit(let text):
      state.text = text
      return .none
    case .post:
      let text = state.text
      state.text = ""
      return .activity(.posted(text))
    case .load(let text):
      return .run { [gate] send in
        await gate.wait()
        send(.loaded(text))
      }
      .cancellable(id: "load", cancelInFlight: true)
    case .loaded(let text):
      state.text = text
      return .none
    case .stop:
      return .cancel(id: "load")
    case .first:
      return .merge(.send(.third), .run { send in send(activity: .posted("ran")) })
    case .second, .third:
      return .none
    }
  }
}

/// A feature without activities, whose effect waits until cancelled.
private struct Waiter: ActionReducer {
  typealias State = Note
  enum Action: Sendable { case wait, bump }

  let started: Gate
  let cancelled: Collected<String>

  func reduce(into state: inout Note, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .bump:
      state.log.append("bump")
      return .none
    case .wait:
      return .run { [started, cancelled] send in
        try await withTaskCancellationHandler {
          started.open()
          try await Task.sleep(for: .seconds(3600))   // long work, ended by cancellation
        } onCancel: {
          cancelled.append("wait")
        }
      }
    }
  }
}

private final class TalkReducer: ReducerType {
  typealias TargetState = Talk
  typealias TargetActivity = TalkActivity
  func bumpUnrelated() -> Mutation { .init { $0.unrelated += 1 } }
}

private final class NoteMethods: ReducerType {
  typealias TargetState = Note
  typealias TargetActivity = TalkActivity
  func clear() -> Mutation { .init { $0.text = "" } }
}

private final class PlainNoteMethods: ReducerType {
  typealias TargetState = Note
}

final class ScopeWithReducerTests: XCTestCase {
  /// The previous release's README, verbatim.
  func testPreviousReleaseReadmeSnippet() {
    struct Chat: Equatable, Sendable { var draft = Draft(); var sent: [String] = [] }
    struct Draft: Equatable, Sendable { var text = "" }
    enum ChatActivity: Sendable, Equatable { case posted(String) }
    struct DraftFeature: ActionReducer {
      typealias State = Draft
      typealias Activity = ChatActivity
      enum Action: Sendable { case edit(String), post }
      func reduce(into state: inout Draft, action: Action) -> Effect<Action, Activity> {
        switch action {
        case .edit(let text):
          state.text = text
          return .none
        case .post:
          let text = state.text
          state.text = ""
          return .activity(.posted(text))
        }
      }
    }
    let store = Store<Chat, ChatActivity>(initialState: Chat())
    store.sinkActivity { [weak store] activity in if case .posted(let text) = activity { store?.commit { $0.sent.append(text) } } }.storeWhileSourceActive()
    let draft = store.scope(\.draft, reducer: DraftFeature())
    draft.send(.edit("hello"))
    draft.send(.post)        // store.state.sent == ["hello"]

    XCTAssertEqual(store.state.sent, ["hello"])
    XCTAssertEqual(draft.state.text, "")
  }

  func testEffectsSendBackAndAreCancelledByID() async {
    let store = Store<Talk, TalkActivity>(initialState: Talk())
    let loads = NoteFeature(gate: Gate())
    let draft = store.scope(\.draft, reducer: loads)
    let loading = draft.send(.load("fetched"))
    loads.gate.open()
    await loading.finish()
    XCTAssertEqual(store.state.draft.text, "fetched", "the effect's action came back through the scope")

    let stops = NoteFeature(gate: Gate())
    let stopped = store.scope(\.draft, reducer: stops)
    let cancelled = stopped.send(.load("never"))
    stopped.send(.stop)
    stops.gate.open()
    await cancelled.finish()
    XCTAssertEqual(store.state.draft.text, "fetched", "a cancelled effect sends nothing")
    XCTAssertEqual(store.state.draft.log.suffix(2), ["load(\"never\")", "stop"])
  }

  func testQueuedSendsAreReducedInOrder() async {
    let store = Store<Talk, TalkActivity>(initialState: Talk())
    let activities = Collected<TalkActivity>()
    store.sinkActivity { activities.append($0) }.storeWhileSourceActive()
    let draft = store.scope(\.draft, reducer: NoteFeature())
    // Sent from inside the delivery of `.first`'s commit: queued behind it,
    // and ahead of `.third`, which `.first`'s effect sends after the commit.
    draft.sinkState(dropsFirst: true) { changes in
      if changes.log == ["first"] { draft.send(.second) }
    }
    .storeWhileSourceActive()
    await draft.send(.first).finish()
    XCTAssertEqual(draft.state.log, ["first", "second", "third"])
    XCTAssertEqual(activities.all, [.posted("ran")])
  }

  func testNotifiesOnlyWhenItsPartChanges() {
    let store = Store<Talk, TalkActivity>(initialState: Talk())
    let draft = store.scope(\.draft, reducer: NoteFeature())
    let seen = Collected<String>()
    draft.sinkState { seen.append($0.text) }.storeWhileSourceActive()
    store.commit { $0.unrelated += 1 }
    store.commit { $0.sent.append("elsewhere") }
    draft.send(.edit("a"))
    XCTAssertEqual(seen.all, ["", "a"])
  }

  func testCommitMiddlewaresSeeEachReductionNamedAfterItsAction() {
    let names = Collected<String>()
    let store = Store<Talk, TalkActivity>(
      initialState: Talk(),
      middlewares: [
        CommitMiddleware(name: "names") { _, after, trace in
          names.append(trace.name)
          after.unrelated += 1                              // and may adjust the new state
        }
      ])
    let draft = store.scope(\.draft, reducer: NoteFeature())
    draft.send(.edit("hi"))
    draft.send(.post)
    XCTAssertEqual(names.all, ["\(NoteFeature.Action.edit("hi"))", "\(NoteFeature.Action.post)"])
    XCTAssertEqual(store.state.unrelated, 2)
  }

  func testAReducerStoreRootCommitsThroughItsPipeline() throws {
    let names = Collected<String>()
    let seeing = Middleware<ReducerMessage<Talk>, Talk>(name: "seeing") { step in
      if case .mutation(let mutation) = step.message { names.append(mutation.name) }
      step.next()
    }
    let recorder = Recorder<ReducerMessage<Talk>, Talk>()
    let undo = try UndoHistory<Talk>(limit: 10)
    let root = ReducerStore(
      initialState: Talk(), reducer: TalkReducer(), middlewares: [seeing, recorder.middleware(), undo.middleware()])
    let activities = Collected<TalkActivity>()
    root.sinkActivity { activities.append($0) }.storeWhileSourceActive()
    let draft = root.scope(\.draft, reducer: NoteFeature())
    draft.send(.edit("hello"))
    draft.send(.post)
    XCTAssertEqual(names.all, ["\(NoteFeature.Action.edit("hello"))", "\(NoteFeature.Action.post)"])
    XCTAssertEqual(activities.all, [.posted("hello")], "its activities reach the root's subscribers")
    XCTAssertEqual(recorder.recording.messages.count, 2)

    let replayed = ReducerStore(initialState: Talk(), reducer: TalkReducer())
    try replayed.replay(recorder.recording)
    XCTAssertEqual(replayed.state.draft, root.state.draft)
    XCTAssertEqual(activities.all, [.posted("hello")], "a replay reduces without running effects")

    XCTAssertTrue(undo.undo(in: root.core))
    XCTAssertEqual(draft.state.text, "hello")
  }

  func testAReductionARootMiddlewareHoldsStartsItsEffectsWhenItRuns() async {
    let held = SharedLock<[KeptMiddlewareStep<ReducerMessage<Talk>, Talk>]>([])
    let holding = Middleware<ReducerMessage<Talk>, Talk>(name: "holding") { step in
      let kept = step.keep()
      held.withLock { $0.append(kept) }
    }
    let root = ReducerStore(initialState: Talk(), reducer: TalkReducer(), middlewares: [holding])
    let posted = Gate()
    root.sinkActivity { _ in posted.open() }.storeWhileSourceActive()
    let draft = root.scope(\.draft, reducer: NoteFeature())
    draft.send(.post)
    XCTAssertEqual(draft.state.log, [], "held by the middleware")
    for step in held.withLock({ $0 }) { step.next() }
    XCTAssertEqual(draft.state.log, ["post"])
    await posted.wait()
  }

  func testNestedScopes() {
    let names = Collected<String>()
    let seeing = Middleware<ReducerMessage<Talk>, Talk>(name: "seeing") { step in
      if case .mutation(let mutation) = step.message { names.append(mutation.name) }
      step.next()
    }
    let root = ReducerStore(initialState: Talk(), reducer: TalkReducer(), middlewares: [seeing])
    let methods = root.scope(\.draft, reducer: NoteMethods())
    let draft = methods.scope(\.self, reducer: NoteFeature())          // a ScopedStore's scope
    let editor = draft.scope(state: \.text) { NoteFeature.Action.edit($0) }   // a view onto it
    editor.send("nested")
    XCTAssertEqual(root.state.draft.text, "nested")
    XCTAssertEqual(editor.state.current, "nested")
    XCTAssertEqual(names.all, ["\(NoteFeature.Action.edit("nested"))"])
    methods.commit { $0.clear() }
    XCTAssertEqual(editor.state.current, "")

    let plain = Store<Talk, Never>(initialState: Talk())
    let waiting = plain.scope(\.draft, reducer: PlainNoteMethods()).scope(\.self, reducer: Waiter(started: Gate(), cancelled: Collected()))
    waiting.send(.bump)
    XCTAssertEqual(plain.state.draft.log, ["bump"])
  }

  func testEffectsEndWhenTheScopeAndEveryHandleAreGone() async {
    let started = Gate()
    let cancelled = Collected<String>()
    var store: Store<Talk, TalkActivity>? = Store(initialState: Talk())
    weak let weakStore = store
    var scope: ScopedActionStore<Note, Waiter.Action, TalkActivity>? =
      store?.scope(\.draft, reducer: Waiter(started: started, cancelled: cancelled))
    var handle = scope?.send(.wait)
    await started.wait()
    store = nil
    scope = nil
    XCTAssertNotNil(weakStore, "the handle keeps the scope's work, and so its root, alive")
    XCTAssertEqual(cancelled.all, [])
    XCTAssertNotNil(handle)
    handle = nil
    XCTAssertEqual(cancelled.all, ["wait"], "the effect ends with its last handle")
    XCTAssertNil(weakStore, "and the root store goes away")

    let root = Store<Talk, TalkActivity>(initialState: Talk())
    await root.scope(\.draft, reducer: NoteFeature(gate: openGate())).send(.load("once")).finish()
    XCTAssertEqual(root.state.draft.text, "once", "a scope made for one send runs its effect to the end")
  }

  func testConcurrentSendsAreSerialized() async {
    let store = Store<Talk, TalkActivity>(initialState: Talk())
    let draft = store.scope(\.draft, reducer: NoteFeature())
    let lengths = Collected<Int>()
    draft.sinkState(dropsFirst: true) { lengths.append($0.log.count) }.storeWhileSourceActive()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for i in 0..<100 {
        draft.send(.edit("\(i)"))
        store.commit { $0.unrelated += 1 }
      }
    }
    XCTAssertEqual(draft.state.log.count, 400)
    XCTAssertEqual(store.state.unrelated, 400)
    XCTAssertEqual(lengths.all, Array(1...400), "one delivery per reduction, in order")
  }

  func testConcurrentSendsThroughAReducerStoresPipeline() {
    let seen = Collected<String>()
    let seeing = Middleware<ReducerMessage<Talk>, Talk>(name: "seeing") { step in
      if case .mutation(let mutation) = step.message { seen.append(mutation.name) }
      step.next()
    }
    let root = ReducerStore(initialState: Talk(), reducer: TalkReducer(), middlewares: [seeing])
    let draft = root.scope(\.draft, reducer: NoteFeature())
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<100 {
        draft.send(.first)                                    // and its effect sends .third
        root.commit { $0.bumpUnrelated() }
      }
    }
    XCTAssertEqual(draft.state.log.count, 800)
    XCTAssertEqual(root.state.unrelated, 400)
    XCTAssertEqual(seen.all.count, 1_200)
  }
}

private func openGate() -> Gate {
  let gate = Gate()
  gate.open()
  return gate
}
