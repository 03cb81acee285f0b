import Observation
import Synchronization
import Verge
import XCTest

/// The snippets of the Large states article (Verge.docc/LargeStates.md), as
/// written there, with what they promise checked.
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

  func testOneReaderPerRow() {
    let store = Store<Inbox, Never>(initialState: Inbox())
    store.commit {
      $0.messages.append(contentsOf: (0..<100_000).map { Message(id: $0, text: "Message \($0)") })
    }
    let shown = SharedLock<[Message?]>([])
    @Sendable func show(_ message: Message?) { shown.withLock { $0.append(message) } }

    // From the article:
    let readers = (0..<1_000).map { row in
      store.sinkState { changes in
        changes.ifChanged({ $0.messages[id: row] }) { message in show(message) }
      }
    }
    store.commit { $0.messages[id: 5]?.isRead = true }   // one handler runs: row 5's

    // Checked: each reader got the current state once, then only row 5's ran.
    XCTAssertEqual(readers.count, 1_000)
    let all = shown.withLock { $0 }
    XCTAssertEqual(all.count, 1_001)
    XCTAssertEqual(all.last??.id, 5)
    XCTAssertEqual(all.last??.isRead, true)
    store.commit { $0.messages[id: 50_000]?.text = "Edited" }   // a row no reader reads
    XCTAssertEqual(shown.withLock { $0.count }, 1_001)
  }

  // From the article:
  struct Feed: Equatable, Sendable {
    var posts: [Message] = []                       // scanned and copied per commit
    var messages: IdentifiedArrayOf<Message> = []   // found by id, one path copied
  }

  func testTheArrayPitfall() throws {
    // From the article:
    let rows = (0..<1_000).map { Message(id: $0, text: "Post \($0)") }
    let feed = Store<Feed, Never>(initialState: Feed(posts: rows, messages: IdentifiedArrayOf(uniqueElements: rows)))

    feed.commit { state in
      if let index = state.posts.firstIndex(where: { $0.id == 42 }) { state.posts[index].isRead = true }
    }
    feed.commit { $0.messages[id: 42]?.isRead = true }

    // Checked: the two forms do the same; the identified one encodes as a
    // plain array, so a persisted `[Message]` decodes into it.
    XCTAssertEqual(feed.state.posts, feed.state.messages.elements)
    XCTAssertEqual(feed.state.messages[id: 42]?.isRead, true)
    let data = try JSONEncoder().encode(Persisted(rows: feed.state.posts))
    let decoded = try JSONDecoder().decode(PersistedIdentified.self, from: data)
    XCTAssertEqual(decoded.rows, feed.state.messages)
  }

  private struct Persisted: Codable { var rows: [Message] }
  private struct PersistedIdentified: Codable { var rows: IdentifiedArrayOf<Message> }

  // From the article:
  struct Boxed<Value: Equatable & Sendable>: Equatable, Sendable {
    private final class Storage: Sendable {
      let value: Value
      init(_ value: Value) { self.value = value }
    }
    private var storage: Storage

    init(_ value: Value) { storage = Storage(value) }

    var value: Value {
      get { storage.value }
      set { storage = Storage(newValue) }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.storage === rhs.storage || lhs.storage.value == rhs.storage.value
    }
  }

  struct Layout: Equatable, Sendable {   // imagine hundreds of such fields
    var columns = 3
    var rowHeight = 44.0
    var showsAvatars = true
  }

  struct Editor: Equatable, Sendable {
    var layout = Boxed(Layout())        // one word inline, however large Layout grows
    var messages: IdentifiedArrayOf<Message> = []
  }

  func testBoxingALargeInlineState() {
    // From the article:
    let editor = Store<Editor, Never>(initialState: Editor())
    editor.commit { $0.layout.value.columns = 4 }

    // Checked: the box is one word inline and keeps value semantics.
    XCTAssertEqual(MemoryLayout<Boxed<Layout>>.size, MemoryLayout<Int>.size)
    XCTAssertEqual(
      MemoryLayout<Editor>.size,
      MemoryLayout<Boxed<Layout>>.size + MemoryLayout<IdentifiedArrayOf<Message>>.size)
    let before = editor.state.layout
    editor.commit { $0.layout.value.rowHeight = 60 }
    XCTAssertEqual(before.value, Layout(columns: 4))
    XCTAssertEqual(editor.state.layout.value, Layout(columns: 4, rowHeight: 60))
    XCTAssertNotEqual(before, editor.state.layout)
    XCTAssertEqual(Boxed(Layout()), Boxed(Layout()), "equal values in distinct boxes are equal")
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

/// Only for the pitfall's check that a persisted `[Message]` decodes into an
/// `IdentifiedArrayOf<Message>`.
extension LargeStatesArticleTests.Message: Codable {}
