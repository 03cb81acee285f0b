import VergeNeue
import XCTest

// Kept in step with the README section on scoped stores and activities.
private struct Chat: Equatable, Sendable {
  var draft = Draft()
  var sent: [String] = []
}

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
      let text = state.text
      state.text = ""
      return .activity(Activity.posted(text))
    }
  }
}

final class ScopesAndActivitiesSnippetTests: XCTestCase {
  func testReadmeSnippet() throws {
    let store = Store<Chat, ChatActivity>(initialState: Chat())
    store.sinkActivity { [weak store] activity in
      if case .posted(let text) = activity { store?.commit { $0.sent.append(text) } }
    }
    .storeWhileSourceActive()

    let draft = store.scope(\.draft, reducer: DraftFeature())
    draft.send(.edit("hello"))
    draft.send(.post)

    XCTAssertEqual(store.state.sent, ["hello"])
    XCTAssertEqual(draft.state.text, "")
  }
}
