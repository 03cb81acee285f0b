import Foundation
import Testing
import Verge

/// A `@MainActor` view model tested in Swift Testing, as `swift package
/// init` sets a package up: on Linux its tests run with the main actor off
/// the main thread (the test runner's `main` is async), and the handler
/// still runs at once when the test commits, as it does in an app.
@MainActor private final class CounterScreen {
  struct State: Equatable { var count = 0 }
  let store = Store<State, Never>(initialState: State())
  private(set) var label = ""
  private var subscriptions = Set<VergeAnyCancellable>()

  func viewDidLoad() {
    store.sinkState { [weak self] changes in
      changes.ifChanged(\.count) { count in self?.label = "count: \(count)" }
    }
    .store(in: &subscriptions)
  }

  func increment() { store.commit { $0.count += 1 } }
}

@Suite struct MainActorSwiftTestingTests {
  // The Concurrency article's snippet, as written there.
  @MainActor @Test func incrementShowsTheCount() {
    let screen = CounterScreen()   // subscribes in viewDidLoad()
    screen.viewDidLoad()
    screen.increment()             // commits
    #expect(screen.label == "count: 1")
  }

  @MainActor @Test func theFirstDeliveryAndEachCommitRunTheHandlerAtOnce() {
    let screen = CounterScreen()
    screen.viewDidLoad()
    #expect(screen.label == "count: 0")
    screen.increment()
    #expect(screen.label == "count: 1")
    screen.increment()
    #expect(screen.label == "count: 2")
  }

  @MainActor @Test func aCommitFromAnotherThreadWaitsForTheMainActor() async {
    let screen = CounterScreen()
    screen.viewDidLoad()
    // The main actor is held here while another thread commits: the
    // handler cannot run until this code suspends.
    let committed = DispatchSemaphore(value: 0)
    let store = screen.store
    Thread.detachNewThread {
      store.commit { $0.count = 5 }
      committed.signal()
    }
    committed.wait()
    #expect(screen.label == "count: 0")
    await Task.yield()
    #expect(screen.label == "count: 5")
  }
}
