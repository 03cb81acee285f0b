import Foundation
import Verge
import Observation
import XCTest

/// The core tour in README.md, kept here so that it compiles and does what
/// the README says. Keep the two in step.
final class ReadmeTests: XCTestCase {
  func testCoreTour() async throws {
    let log = SharedLock<[String]>([])
    @Sendable func show(_ line: String) { log.withLock { $0.append(line) } }

    // README: "Verge: a store and a closure"
    struct Counter: Equatable {
      var count = 0
      var title = "Clicks"
    }

    let store = Store<Counter, Never>(initialState: Counter())
    store.commit { $0.count += 1 }
    print(store.state.count)  // 1

    store.sinkState { changes in
      changes.ifChanged(\.count) { count in show("count is \(count)") }
    }
    .storeWhileSourceActive()

    // README: "Derived values"
    let doubled: Derived<Int> = store.derived(.map { $0.count * 2 })
    let label: Derived<String> = store.derived(.map(\.title, \.count) { "\($0): \($1)" })
    store.commit { $0.title = "Taps" }
    print(doubled.value, label.value)  // 2 Taps: 1

    // README: "Async work, async sequences and Observation"
    store.task(key: TaskKey("refresh"), mode: .dropCurrent) {
      store.commit { $0.count = 10 }
    }
    for await changes in store.changes {
      if changes.count == 10 { break }
    }

    // README: the same section's Observation snippet (its `import Observation` is at the top of this file)
    withObservationTracking {
      _ = store.state.count
    } onChange: {
      show("count will change")
    }
    store.commit { $0.title = "Not observed" }
    store.commit { $0.count += 1 }

    XCTAssertEqual(
      log.withLock { $0 },
      ["count is 1", "count is 10", "count is 11", "count will change"])
    XCTAssertEqual(printed, ["1", "2 Taps: 1"])
  }

  func testMiddlewareSnippet() {
    struct Counter: Equatable { var count = 0 }
    struct Logger: Sendable {
      let lines = SharedLock<[String]>([])
      func info(_ line: String) { lines.withLock { $0.append(line) } }
    }
    let logger = Logger()

    // README: "Middleware and persistence"
    let store = Store<Counter, Never>(
      initialState: Counter(),
      middlewares: [.logging { line in logger.info("\(line)") }])

    store.commit("increment") { $0.count += 1 }
    XCTAssertEqual(logger.lines.withLock { $0.count }, 1)
    XCTAssertTrue(logger.lines.withLock { $0[0] }.hasSuffix("): count 0 → 1"))
  }

  func testPersistenceSnippet() async throws {
    enum Theme: Codable, Sendable { case light, dark }
    struct Settings: Equatable, Codable, Sendable { var theme = Theme.light }
    struct Session: Equatable, Sendable { var token = "" }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ReadmePersistence-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("settings.state")

    // README: "Middleware and persistence"
    struct AppState: Equatable {
      var settings = Settings()   // Codable
      var session = Session()     // not saved
    }
    let store = Store<AppState, Never>(initialState: AppState())
    let persistence = try store.persist(\.settings, to: url, version: 1)
    store.commit { $0.settings.theme = .dark }   // written within half a second
    try await persistence.flush()                  // or now

    try persistence.close()
    let again = Store<AppState, Never>(initialState: AppState())
    let restored = try again.persist(\.settings, to: url, version: 1)
    XCTAssertEqual(again.state.settings.theme, .dark)
    try restored.close()
  }

  // `print` in the README's snippet, captured here instead of written out.
  private var printed: [String] = []
  private func print(_ items: Any...) {
    printed.append(items.map { "\($0)" }.joined(separator: " "))
  }
}

/// README, "Coming from Verge": a Verge view model with a mutable
/// `subscriptions` set compiles once it is on the main actor.
extension ReadmeTests {
  @MainActor final class Label { var text = "" }

  // From the README:
  @MainActor
  final class ViewModel: StoreComponentType {
    struct State: Equatable { var name = "" }
    let store: DefaultStore = .init(initialState: .init())
    var subscriptions = Set<VergeAnyCancellable>()

    func start(_ label: Label) {
      sinkState { state in
        state.ifChanged(\.name) { name in label.text = name }
      }
      .store(in: &subscriptions)
    }
  }

  @MainActor
  func testAVergeViewModelOnTheMainActor() {
    let label = Label()
    let model = ViewModel()
    model.start(label)
    model.commit { $0.name = "Verge" }
    XCTAssertEqual(label.text, "Verge")
    XCTAssertEqual(model.subscriptions.count, 1)
  }
}
