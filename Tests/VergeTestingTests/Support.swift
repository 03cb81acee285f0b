import Verge
import VergeTesting
import VergeTestSupport
import XCTest

/// Captures the failures a test store reports, so tests check their text.
final class FailureLog: Sendable {
  struct Failure: Sendable, Equatable {
    let message: String
    let line: UInt
  }

  private let failures = SharedLock<[Failure]>([])
  private let skippedAssertions = SharedLock<[Failure]>([])

  var reporter: TestFailureReporter {
    TestFailureReporter(
      { [failures] message, _, line in
        failures.withLock { $0.append(Failure(message: message, line: line)) }
      },
      skippedAssertion: { [skippedAssertions] message, _, line in
        skippedAssertions.withLock { $0.append(Failure(message: message, line: line)) }
      })
  }

  var all: [Failure] { failures.withLock { $0 } }
  /// What `.off(showSkippedAssertions: true)` showed.
  var skipped: [Failure] { skippedAssertions.withLock { $0 } }
  var messages: [String] { all.map(\.message) }
}

struct StubError: Error, CustomStringConvertible {
  var description: String { "stub failure" }
}

/// A photo API whose answers the test decides.
struct PhotoAPI: Sendable {
  var photos: @Sendable () async throws -> [String]

  static func stub(_ photos: [String], gate: Gate? = nil) -> PhotoAPI {
    PhotoAPI {
      await gate?.wait()
      return photos
    }
  }
}

/// The enum-action feature the tests drive.
struct Gallery: ActionReducer {
  struct State: Equatable, Sendable {
    var photos: [String] = []
    var isLoading = false
    var ticks = 0
    var tags: [String: Int] = [:]
    var owner = Owner()
  }

  struct Owner: Equatable, Sendable {
    var name = "Blob"
    var age: Int? = nil
  }

  enum Action: Sendable, Equatable {
    case load
    case loaded([String])
    case startTimer
    case tick
    case stopTimer
    case rename(String)
    case noop
    case failingEffect
    case chain
    /// Posts `text` in an effect, which announces it (an activity) and
    /// then sends `.postFinished`.
    case post(String)
    case postFinished
    /// Announces `text` at once (`Effect.activity`).
    case announce(String)
  }

  /// The one-off events the feature's effects send.
  enum Activity: Sendable, Equatable {
    case posted(String)
    case announced(String)
  }

  let api: PhotoAPI
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action, Activity> {
    switch action {
    case .load:
      state.isLoading = true
      return .run { [api] send in send(.loaded(try await api.photos())) }
    case .loaded(let photos):
      state.isLoading = false
      state.photos = photos
      return .none
    case .startTimer:
      return .run { [clock] send in
        for _ in 0..<3 {
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      }
      .cancellable(id: "timer", cancelInFlight: true)
    case .tick:
      state.ticks += 1
      return .none
    case .stopTimer:
      return .cancel(id: "timer")
    case .rename(let name):
      state.owner.name = name
      return .none
    case .noop:
      return .none
    case .failingEffect:
      return .run { _ in throw StubError() }
    case .chain:
      return .send(.tick)
    case .post(let text):
      state.isLoading = true
      return .run { send in
        send(activity: .posted(text))
        send(.postFinished)
      }
    case .postFinished:
      state.isLoading = false
      return .none
    case .announce(let text):
      return .activity(.announced(text))
    }
  }
}
