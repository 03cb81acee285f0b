import Observation
import Synchronization
import Verge
import XCTest

/// The snippet of the Large states article (Verge.docc/LargeStates.md), as
/// written there, with what it promises checked.
final class LargeStatesArticleTests: XCTestCase {
  struct Message: Identifiable, Equatable, Sendable {
    let id: Int
    var text: String
    var isRead = false
  }

  struct Inbox: Equatable, Sendable {
    var messages: IdentifiedArrayOf<Message> = []
  }

  func testOverview() {
    // From the article:
    let store = Store<Inbox, Never>(initialState: Inbox())
    store.commit {
      $0.messages.append(contentsOf: (0..<100_000).map { Message(id: $0, text: "Message \($0)") })
    }

    let before = store.state.messages          // a copy: O(1)
    store.commit { $0.messages[id: 42]?.isRead = true }  // O(log n); `before` is untouched
    store.commit { $0.messages[id: 7] = nil }            // removes the row with id 7
    let after = store.state.messages

    // Compares only the paths the two commits changed, not 100,000 rows.
    let changed = after != before                        // true
    let index = after.index(id: 42)                      // 41

    // Checked:
    XCTAssertTrue(changed)
    XCTAssertEqual(index, 41)
    XCTAssertEqual(before.count, 100_000)
    XCTAssertEqual(before[id: 42]?.isRead, false)
    XCTAssertEqual(after[id: 42]?.isRead, true)
    XCTAssertNil(after[id: 7])
    XCTAssertEqual(after.count, 99_999)
  }

  func testViewsOfOneRow() {
    let store = Store<Inbox, Never>(initialState: Inbox())
    store.commit { $0.messages.append(contentsOf: (0..<1_000).map { Message(id: $0, text: "Message \($0)") }) }
    let id = 42
    let rowInvalidated = Atomic<Int>(0)
    let listInvalidated = Atomic<Int>(0)
    var message: Message?
    var ids: IdentifiedArrayOf<Message>.IDs?
    withObservationTracking {
      // From the article:
      // A row view: invalidated only when message `id` changes or goes away.
      message = store.state[\.messages[id: id]]
    } onChange: {
      rowInvalidated.add(1, ordering: .relaxed)
    }
    withObservationTracking {
      // From the article:
      // The list view's `ForEach`: invalidated by insertions, removals and moves,
      // not by edits of a row.
      ids = store.state[\.messages.ids]
    } onChange: {
      listInvalidated.add(1, ordering: .relaxed)
    }

    // Checked:
    XCTAssertEqual(message?.text, "Message 42")
    XCTAssertEqual(ids?.count, 1_000)
    store.commit { $0.messages[id: 41]?.isRead = true }
    XCTAssertEqual(rowInvalidated.load(ordering: .relaxed), 0, "another row's edit invalidated the row view")
    XCTAssertEqual(listInvalidated.load(ordering: .relaxed), 0, "a row edit invalidated the list view")
    store.commit { $0.messages[id: 42]?.isRead = true }
    XCTAssertEqual(rowInvalidated.load(ordering: .relaxed), 1)
    XCTAssertEqual(listInvalidated.load(ordering: .relaxed), 0)
    store.commit { $0.messages.remove(id: 7) }
    XCTAssertEqual(listInvalidated.load(ordering: .relaxed), 1)
  }
}
