import Foundation
@testable import Verge
import VergeTestSupport
import XCTest

/// A fresh directory for one test's state files, removed afterwards.
final class PersistenceDirectoryFixture {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("verge-persistence-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// A file in the directory.
  func file(_ name: String = "saved.state") -> URL {
    url.appendingPathComponent(name)
  }

  /// The names in the directory, sorted.
  var names: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
  }
}

/// A state with a persisted part and a part that is not.
struct Preferences: Equatable, Codable, Sendable {
  var theme = "light"
  var fontSize = 12
}

struct ProfileState: Equatable, Sendable {
  var preferences = Preferences()
  var session = 0
}

struct Notebook: Equatable, Codable, Sendable {
  var count = 0
  var names: [String] = []
}

/// Reads a state file as persistence wrote it: its schema version and value.
func readStateFile<Value: Decodable>(_ url: URL, as type: Value.Type) throws -> (version: Int, value: Value) {
  let data = try Data(contentsOf: url)
  let (version, payload) = try StateFile.unframe(data)
  return (version, try JSONDecoder().decode(type, from: payload))
}

/// Writes a state file as persistence would, with any version and value.
func writeStateFile<Value: Encodable>(_ value: Value, version: Int, to url: URL) throws {
  try StateFile.frame(JSONEncoder().encode(value), version: version).write(to: url)
}

/// Runs one test of this test binary (`VergeTests.Class/testName`) in a
/// child process with `environment` added, and returns its exit status and
/// what it printed; a child still running after 30 seconds is killed and
/// reported with status -1, so a hang fails the test, not the run.
func runChildTest(_ name: String, environment added: [String: String]) throws -> (status: Int32, output: String) {
  let outcome = try ChildProcess(variable: "VERGE_PERSISTENCE_CHILD").run(
    test: name, scenario: name, timeout: 30, environment: added)
  guard !outcome.hung else {
    return (-1, "the child did not finish within 30 seconds\n" + outcome.stderr + outcome.stdout)
  }
  return (outcome.status, outcome.stderr + outcome.stdout)
}
