import Foundation
import Testing
import VergeTesting

// The snippets of the Dependencies article (Verge.docc/Dependencies.md),
// as written there, with what each one promises asserted.

// MARK: Declaring a dependency

struct APIClient: Sendable {
  var fetchMessages: @Sendable () async throws -> [String]
}

enum APIClientKey: DependencyKey {
  static let liveValue = APIClient(fetchMessages: { ["from the server"] })
  static let testValue = APIClient(fetchMessages: { [] })
}

extension DependencyValues {
  var apiClient: APIClient {
    get { self[APIClientKey.self] }
    set { self[APIClientKey.self] = newValue }
  }
}

// MARK: Injecting them where a store is made

final class InboxViewModel: StoreComponentType {
  let store = Store<[String], Never>(initialState: [])

  func refresh() async throws {
    let messages = try await store.dependencies.apiClient.fetchMessages()
    commit { $0.modify { $0 = messages } }
  }
}

// MARK: Reading them in reducers

struct InboxFeature: ActionReducer {
  struct State: Equatable, Sendable {
    var messages: [String] = []
    var refreshedAt: Date?
  }
  enum Action: Sendable, Equatable {
    case refresh
    case loaded([String])
  }

  @Dependency(\.apiClient) var apiClient
  @Dependency(\.date) var date

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    switch action {
    case .refresh:
      state.refreshedAt = date.now
      return .run { send in
        send(.loaded(try await apiClient.fetchMessages()))
      }
    case .loaded(let messages):
      state.messages = messages
      return .none
    }
  }
}

struct InboxMethods: ReducerType {
  typealias TargetState = [String]
  @Dependency(\.apiClient) var apiClient
  @Dependency(\.uuid) var uuid

  func addDraft() -> Mutation {
    .init { $0.append("draft \(self.uuid().uuidString.suffix(1))") }
  }

  func refresh() -> Action<Void> {
    .init { context in
      let messages = try await self.apiClient.fetchMessages()
      context.commit { _ in .init { $0 = messages } }
    }
  }
}

struct MessageCounter: ActionReducer {
  enum Action: Sendable, Equatable { case refresh, counted(Int) }

  @Dependency(APIClientKey.self) var apiClient

  func reduce(into state: inout Int, action: Action) -> Effect<Action, Never> {
    switch action {
    case .refresh:
      return .run { send in send(.counted(try await apiClient.fetchMessages().count)) }
    case .counted(let count):
      state = count
      return .none
    }
  }
}

// MARK: Scopes and composed features

struct Row: ActionReducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var loaded: [String] = []
  }
  enum Action: Sendable, Equatable { case load, loaded([String]) }

  @Dependency(\.apiClient) var apiClient

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    switch action {
    case .load:
      return .run { send in send(.loaded(try await apiClient.fetchMessages())) }
    case .loaded(let messages):
      state.loaded = messages
      return .none
    }
  }
}

struct Mailboxes: ActionReducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row.State> = []
    var archive = Row.State(id: 0)
  }
  enum Action: Sendable, Equatable {
    case row(id: Int, action: Row.Action)
    case archive(Row.Action)
  }

  static let rowCase = ActionCase<Action, (id: Int, action: Row.Action)>({ .row(id: $0.id, action: $0.action) }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }
  static let archiveCase = ActionCase<Action, Row.Action>(Action.archive) {
    if case .archive(let action) = $0 { action } else { nil }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> { .none }
}

struct InboxScreen: Equatable, Sendable {
  var inbox: [String] = []
}

@Suite struct DependenciesArticleTests {
  @Test func aStoreIsGivenItsValuesWhereItIsMade() async throws {
    let store = Store<[String], Never>(initialState: []) {
      $0.apiClient = APIClient(fetchMessages: { ["canned"] })
    }
    #expect(try await store.dependencies.apiClient.fetchMessages() == ["canned"])
    #expect(DependencyContext.process == .test)
    #expect(store.dependencies.uuid().uuidString == "00000000-0000-0000-0000-000000000000")
  }

  @Test func aViewModelReadsItsServicesFromItsStore() async throws {
    let model = withDependencies {
      $0.apiClient = APIClient(fetchMessages: { ["preview"] })
    } operation: {
      InboxViewModel()
    }
    try await model.refresh()
    #expect(model.state.current == ["preview"])
    let plain = InboxViewModel()
    try await plain.refresh()
    #expect(plain.state.current == [], "the test value")
  }

  @Test func aReducerAndItsEffectReadTheStoresValues() async {
    let store = ActionStore(
      initialState: InboxFeature.State(), reducer: InboxFeature(),
      withDependencies: { $0.apiClient = APIClient(fetchMessages: { ["mine"] }) })
    await store.send(.refresh).finish()
    #expect(store.state.current == InboxFeature.State(messages: ["mine"], refreshedAt: DateGenerator.testDate))
  }

  @Test func aReducerReadsADependencyByItsKey() async {
    let store = ActionStore(initialState: 0, reducer: MessageCounter()) {
      $0.apiClient = APIClient(fetchMessages: { ["one", "two", "three"] })
    }
    await store.send(.refresh).finish()
    #expect(store.state.current == 3)
    // Unset: the key's test value, which has no messages.
    let unset = ActionStore(initialState: -1, reducer: MessageCounter())
    await unset.send(.refresh).finish()
    #expect(unset.state.current == 0)
  }

  @Test func aMethodReducerReadsThemInMutationsAndActions() async throws {
    let store = ReducerStore(
      initialState: [], reducer: InboxMethods(),
      withDependencies: { $0.apiClient = APIClient(fetchMessages: { ["one", "two"] }) })
    store.commit { $0.addDraft() }
    #expect(store.state.current == ["draft 0"])
    try await store.dispatch { $0.refresh() }
    #expect(store.state.current == ["one", "two"])
  }

  @Test func childrenInheritAndAnOverrideCoversOneChild() async {
    let offline = APIClient(fetchMessages: { ["offline copy"] })
    let mailboxes = Mailboxes()
      .forEach(\.rows, action: Mailboxes.rowCase, element: Row())  // inherits
      .embed(Row().dependency(\.apiClient, offline), state: \.archive, action: Mailboxes.archiveCase)

    let store = ActionStore(
      initialState: Mailboxes.State(rows: [Row.State(id: 1)]), reducer: mailboxes,
      withDependencies: { $0.apiClient = APIClient(fetchMessages: { ["online"] }) })
    await store.send(.row(id: 1, action: .load)).finish()
    await store.send(.archive(.load)).finish()
    #expect(store.state.current.rows[id: 1]?.loaded == ["online"])
    #expect(store.state.current.archive.loaded == ["offline copy"])
  }

  @Test func aMethodScopeOverridesOnTheScope() async throws {
    let offline = APIClient(fetchMessages: { ["offline copy"] })
    let screen = Store<InboxScreen, Never>(initialState: InboxScreen())
    let offlineInbox = screen
      .scope(\.inbox, reducer: InboxMethods())
      .dependency(\.apiClient, offline)
    try await offlineInbox.dispatch { $0.refresh() }  // screen's inbox: ["offline copy"]
    #expect(screen.state.current.inbox == ["offline copy"])

    // The scope it was made from reads the root's (here the test value).
    let inbox = screen.scope(\.inbox, reducer: InboxMethods())
    try await inbox.dispatch { $0.refresh() }
    #expect(screen.state.current.inbox == [])
    #expect(try await offlineInbox.dependencies.apiClient.fetchMessages() == ["offline copy"])
  }

  @Test func aTestStoreOverridesWhatTheTestControls() async {
    let clock = TestClock()
    let store = TestStore(initialState: InboxFeature.State(), reducer: InboxFeature()) {
      $0.apiClient = APIClient(fetchMessages: { ["hello"] })
      $0.clock = clock
    }
    await store.send(.refresh) { $0.refreshedAt = DateGenerator.testDate }
    await store.receive(.loaded(["hello"])) { $0.messages = ["hello"] }
    await store.finish()
  }

  @Test func aTestStoreReadsBackItsValues() async throws {
    let drafts = TestStore(initialState: [], reducer: InboxMethods())
    let first = drafts.dependencies.uuid()  // 00000000-0000-0000-0000-000000000000
    drafts.commit({ $0.addDraft() }) { $0 = ["draft 1"] }
    #expect(first.uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(try await drafts.dependencies.apiClient.fetchMessages() == [], "the test value")
    await drafts.finish()

    let clock = TestClock()
    let inbox = TestStore(initialState: InboxFeature.State(), reducer: InboxFeature()) {
      $0.apiClient = APIClient(fetchMessages: { ["hello"] })
      $0.clock = clock
    }
    #expect(try await inbox.dependencies.apiClient.fetchMessages() == ["hello"])
    #expect((inbox.dependencies.clock as? TestClock) === clock)
    #expect(inbox.dependencies.date.now == DateGenerator.testDate)
    await inbox.finish()
  }

  @Test func aContextCanBeForced() async throws {
    let demo = Store<[String], Never>(initialState: []) { $0.context = .preview }
    #expect(demo.dependencies.context == .preview)
    // The key has no previewValue: the live one stands in.
    #expect(try await demo.dependencies.apiClient.fetchMessages() == ["from the server"])
  }
}
