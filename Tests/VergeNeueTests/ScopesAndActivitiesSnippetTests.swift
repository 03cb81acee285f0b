import VergeNeue
import XCTest

// Kept in step with the README section on composed features, scoped stores
// and activities.
private struct Chat: Equatable, Sendable { var draft = Draft(); var sent: [String] = [] }
private struct Draft: Equatable, Sendable { var text = "" }
private enum ChatActivity: Sendable, Equatable { case posted(String) }

private struct DraftFeature: ActionReducer {
  typealias State = Draft
  typealias Activity = ChatActivity
  enum Action: Sendable { case edit(String), post }

  func reduce(into state: inout Draft, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .edit(let text):
      state.text = text
      return .none
    case .post:
      return .activity(Activity.posted(state.text))
    }
  }
}

private struct ChatFeature: ActionReducer {
  typealias State = Chat
  typealias Activity = ChatActivity
  enum Action: Sendable { case draft(DraftFeature.Action), clearHistory }

  static let draftCase = ActionCase<Action, DraftFeature.Action>(Action.draft) {
    if case .draft(let action) = $0 { action } else { nil }
  }

  func reduce(into state: inout Chat, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .draft(.post):                      // the parent reacts to its child's action
      state.sent.append(state.draft.text)
      state.draft.text = ""
    case .draft:
      break
    case .clearHistory:
      state.sent = []
    }
    return .none
  }
}

final class ScopesAndActivitiesSnippetTests: XCTestCase {
  func testReadmeSnippet() throws {
    let posted = Collected<ChatActivity>()
    let store = ActionStore(
      initialState: Chat(),
      reducer: ChatFeature().embed(DraftFeature(), state: \.draft, action: ChatFeature.draftCase))
    store.sinkActivity { activity in posted.append(activity) }.storeWhileSourceActive()

    let draft = store.scope(state: \.draft, action: ChatFeature.Action.draft)
    draft.send(.edit("hello"))
    draft.send(.post)            // store.state.sent == ["hello"]; ChatActivity.posted("hello") was sent

    XCTAssertEqual(store.state.sent, ["hello"])
    XCTAssertEqual(draft.state.text, "")
    XCTAssertEqual(posted.all, [.posted("hello")])
  }

  func testReadmeSnippetOfAFeatureWithItsOwnReducer() {
    let chat = Store<Chat, ChatActivity>(initialState: Chat())
    chat.sinkActivity { [weak chat] activity in
      if case .posted(let text) = activity { chat?.commit { $0.sent.append(text) } }
    }
    .storeWhileSourceActive()

    let editor = chat.scope(\.draft, reducer: DraftFeature())
    editor.send(.edit("hello"))
    editor.send(.post)           // chat.state.sent == ["hello"]

    XCTAssertEqual(chat.state.sent, ["hello"])
    XCTAssertEqual(editor.state.text, "hello", "this DraftFeature leaves clearing the text to a parent")
  }
}
