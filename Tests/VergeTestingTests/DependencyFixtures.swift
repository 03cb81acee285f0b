import Foundation
import VergeTesting

/// A service with a name, so a test can tell which value a reducer read.
struct Greeter: Sendable, Equatable {
  var name: String

  static func named(_ name: String) -> Greeter { Greeter(name: name) }
}

enum GreeterKey: DependencyKey {
  static let liveValue = Greeter.named("live")
  static let testValue = Greeter.named("test")
  static let previewValue = Greeter.named("preview")
}

/// A dependency with no test value: using it in a test fails the test.
enum MeaningKey: DependencyKey {
  static let liveValue = 42
}

extension DependencyValues {
  var greeter: Greeter {
    get { self[GreeterKey.self] }
    set { self[GreeterKey.self] = newValue }
  }

  var meaning: Int {
    get { self[MeaningKey.self] }
    set { self[MeaningKey.self] = newValue }
  }
}

/// Records which greeter it saw, in its reduction and in an effect that
/// resumes on another thread.
struct GreetingFeature: ActionReducer {
  struct State: Equatable, Sendable, Identifiable {
    var id = 0
    var seen: [String] = []
  }
  enum Action: Sendable, Equatable {
    case greet
    case greetLater
    case greeted(String)
  }

  @Dependency(\.greeter) var greeter

  /// Reads the greeter by its property, or by its key when `byKey` is set.
  init(byKey: Bool = false) {
    if byKey { _greeter = Dependency(GreeterKey.self) }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    switch action {
    case .greet:
      state.seen.append(greeter.name)
      return .none
    case .greetLater:
      return .run { send in
        await resumeOnAnotherThread()
        send(.greeted(greeter.name))
      }
    case .greeted(let name):
      state.seen.append(name)
      return .none
    }
  }
}

/// Suspends and resumes from a thread of Dispatch's, not the caller's.
func resumeOnAnotherThread() async {
  await withCheckedContinuation { continuation in
    DispatchQueue.global().async { continuation.resume() }
  }
}

/// A parent that composes the greeting feature three ways.
struct GreetingParent: ActionReducer {
  struct State: Equatable, Sendable {
    var embedded = GreetingFeature.State()
    var rows: IdentifiedArrayOf<GreetingFeature.State> = [.init(id: 1), .init(id: 2)]
    var optional: GreetingFeature.State? = .init()
    var seen: [String] = []
  }
  enum Action: Sendable, Equatable {
    case parent
    case embedded(GreetingFeature.Action)
    case row(id: Int, action: GreetingFeature.Action)
    case optional(GreetingFeature.Action)
  }

  static let embeddedCase = ActionCase<Action, GreetingFeature.Action>(Action.embedded) {
    if case .embedded(let action) = $0 { action } else { nil }
  }
  static let rowCase = ActionCase<Action, (id: Int, action: GreetingFeature.Action)>({
    Action.row(id: $0.id, action: $0.action)
  }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }
  static let optionalCase = ActionCase<Action, GreetingFeature.Action>(Action.optional) {
    if case .optional(let action) = $0 { action } else { nil }
  }

  @Dependency(\.greeter) var greeter

  func reduce(into state: inout State, action: Action) -> Effect<Action, Never> {
    if case .parent = action { state.seen.append(greeter.name) }
    return .none
  }
}

/// The composed parent, with the rows' and the optional child's greeter
/// overridden when `override` is set, and the children reading it by key
/// when `byKey` is.
func composedGreetingParent(override: Bool, byKey: Bool = false) -> Composed<Composed<Composed<GreetingParent>>> {
  let row = GreetingFeature(byKey: byKey)
  let optional = GreetingFeature(byKey: byKey)
  if override {
    return GreetingParent()
      .embed(GreetingFeature(byKey: byKey), state: \.embedded, action: GreetingParent.embeddedCase)
      .forEach(\.rows, action: GreetingParent.rowCase, element: row.dependency(\.greeter, .named("row")))
      .ifLet(\.optional, action: GreetingParent.optionalCase, then: optional.dependency(\.greeter, .named("optional")))
  }
  return GreetingParent()
    .embed(GreetingFeature(byKey: byKey), state: \.embedded, action: GreetingParent.embeddedCase)
    .forEach(\.rows, action: GreetingParent.rowCase, element: row)
    .ifLet(\.optional, action: GreetingParent.optionalCase, then: optional)
}
