import Foundation
import Verge
import XCTest

/// The snippets of the Persistence article (Verge.docc/Persistence.md),
/// as written there, with what they promise checked. The `SIGXFSZ` snippet
/// runs in a child process: see PersistenceFileSizeLimitTests.
final class PersistenceArticleTests: XCTestCase {
  struct Settings: Equatable, Codable, Sendable {
    var theme = "light"
    var fontSize = 12
  }

  struct AppState: Equatable, Sendable {
    var settings = Settings()   // persisted
    var isLoading = false       // not persisted
  }

  func testOverview() async throws {
    let directory = try PersistenceDirectoryFixture()
    let settingsURL = directory.file("settings.state")
    let reports = Recorder<String>()
    func report(_ text: String) { reports.append(text) }

    // From the article:
    let store = Store<AppState, Never>(initialState: AppState())
    let persistence = try store.persist(\.settings, to: settingsURL, version: 1)

    switch persistence.restoreOutcome {
    case .nothingStored, .restored, .migrated:
      break
    case .refused(let error, let movedAside):
      report("Settings were reset (\(error)); the old file is at \(movedAside.path)")
    }

    store.commit { $0.settings.theme = "dark" }   // written shortly after

    // When the app is about to quit or move to the background:
    try await persistence.flush()
    // End of the snippet.

    XCTAssertEqual(reports.values, [])
    XCTAssertEqual(persistence.restoreOutcome, .nothingStored)
    try persistence.close()
    let next = Store<AppState, Never>(initialState: AppState(isLoading: true))
    try next.persist(\.settings, to: settingsURL).close()
    XCTAssertEqual(next.state.current, AppState(settings: Settings(theme: "dark"), isLoading: true))
  }

  func testMigration() throws {
    let directory = try PersistenceDirectoryFixture()
    let settingsURL = directory.file("settings.state")
    struct StoredV1: Encodable { var dark = true }
    try writeStateFile(StoredV1(), version: 1, to: settingsURL)
    let store = Store<AppState, Never>(initialState: AppState())

    // From the article:
    struct SettingsV1: Decodable { var dark: Bool }

    let persistence = try store.persist(\.settings, to: settingsURL, version: 2) { stored in
      let old = try stored.decode(SettingsV1.self)
      return Settings(theme: old.dark ? "dark" : "light")
    }
    // End of the snippet.

    XCTAssertEqual(persistence.restoreOutcome, .migrated(from: 1, to: 2))
    XCTAssertEqual(store.state.settings.theme, "dark")
    try persistence.close()
  }

  func testCreatingTheDirectory() throws {
    let directory = try PersistenceDirectoryFixture()
    let supportDirectory = directory.url.appendingPathComponent("Application Support", isDirectory: true)
    let store = Store<AppState, Never>(initialState: AppState())
    // Without asking, a missing directory is refused and nothing is made.
    XCTAssertThrowsError(
      try store.persist(\.settings, to: supportDirectory.appendingPathComponent("MyApp/settings.state"))
    ) { error in
      XCTAssertEqual(
        error as? PersistenceError,
        .missingDirectory(path: supportDirectory.appendingPathComponent("MyApp").path))
    }
    XCTAssertEqual(directory.names, [])

    // From the article:
    let stateURL = supportDirectory
      .appendingPathComponent("MyApp", isDirectory: true)
      .appendingPathComponent("settings.state")
    let persistence = try store.persist(\.settings, to: stateURL, createDirectories: true)
    // End of the snippet.

    XCTAssertEqual(persistence.restoreOutcome, .nothingStored)
    store.commit { $0.settings.fontSize = 14 }
    try persistence.close()
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: stateURL.deletingLastPathComponent().path).sorted(),
      ["settings.state", "settings.state.lock"])
    XCTAssertEqual(try readStateFile(stateURL, as: Settings.self).value.fontSize, 14)
  }
}
