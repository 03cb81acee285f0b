import VergeNeue
import XCTest

/// The README's "Lists: IdentifiedArray" snippet, as written there, with
/// what its comments promise checked.
final class ReadmeListsTests: XCTestCase {
  // From the README (nested here so the names stay out of the module):
  struct Message: Identifiable, Equatable, Sendable {
    let id: Int
    var text: String
    var isRead = false
  }

  struct MessageFeature: ActionReducer {
    typealias State = Message
    enum Action: Sendable { case markRead }

    func reduce(into state: inout Message, action: Action) -> Effect<Action, Activity> {
      state.isRead = true
      return .none
    }
  }

  struct InboxFeature: ActionReducer {
    struct State: Equatable, Sendable {
      var messages: IdentifiedArrayOf<Message> = []
    }
    enum Action: Sendable { case message(id: Int, action: MessageFeature.Action), removeRead }

    static let messageCase = ActionCase<Action, (id: Int, action: MessageFeature.Action)>(
      { .message(id: $0.id, action: $0.action) }
    ) {
      if case .message(let id, let action) = $0 { (id, action) } else { nil }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
      if case .removeRead = action { state.messages.removeAll { $0.isRead } }
      return .none
    }
  }

  func testTheInbox() {
    // From the README:
    let messages = (0..<100_000).map { Message(id: $0, text: "Message \($0)") }
    let inbox = ActionStore(
      initialState: InboxFeature.State(messages: IdentifiedArrayOf(uniqueElements: messages)),
      reducer: InboxFeature().forEach(\.messages, action: InboxFeature.messageCase, element: MessageFeature()))

    inbox.send(.message(id: 42, action: .markRead))  // finds row 42 by id, O(log n); copies no rows
    let isRead = inbox.state.messages[id: 42]?.isRead  // true
    inbox.send(.removeRead)                           // 99,999 rows left

    // Checked:
    XCTAssertEqual(isRead, true)
    XCTAssertEqual(inbox.state.messages.count, 99_999)
    XCTAssertNil(inbox.state.messages[id: 42])
    XCTAssertEqual(inbox.state.messages[id: 43]?.isRead, false)
    XCTAssertEqual(inbox.state.messages.ids.first, 0)
  }
}
