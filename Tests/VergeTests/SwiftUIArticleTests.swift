import Observation
import Verge
import XCTest

/// The SwiftUI article's model halves, as written there, observed through
/// `withObservationTracking` as a SwiftUI body would be. The view halves
/// compile only on Apple platforms and are not built here.
final class SwiftUIArticleTests: XCTestCase {
  // From the article ("A view reads a store"):
  struct Counter: Equatable, Sendable {
    var count = 0
    var title = "Clicks"
  }

  // From the article ("A view owns a view model"):
  @MainActor
  final class CounterModel: StoreComponentType {
    struct State: Equatable {
      var count = 0
      var isSaving = false
    }

    let store: DefaultStore = .init(initialState: .init())

    func increment() { commit { $0.count += 1 } }
  }

  /// Runs `body` as a SwiftUI body would be run, and counts how often it
  /// would be rendered again.
  final class Renders: Sendable {
    private let count = SharedLock(0)
    var value: Int { count.withLock { $0 } }
    func track(_ body: () -> Void) {
      withObservationTracking(body) { [self] in count.withLock { $0 += 1 } }
    }
  }

  func testAViewIsRenderedAgainOnlyForWhatItsBodyRead() {
    let store = Store<Counter, Never>(initialState: Counter())

    let renders = Renders()
    var shown = ""
    renders.track { shown = "\(store.state.title): \(store.state.count)" }  // CounterView.body
    XCTAssertEqual(shown, "Clicks: 0")

    store.commit { $0.count += 0 }  // an equal value: nothing read changed
    XCTAssertEqual(renders.value, 0)
    store.commit { $0.count += 1 }  // the button's action
    XCTAssertEqual(renders.value, 1)
  }

  @MainActor
  func testAViewModelRendersForTheFieldsTheBodyRead() {
    let model = CounterModel()
    let renders = Renders()
    var label = ""
    renders.track { label = "Add \(model.state.count)" }  // CounterScreen.body
    XCTAssertEqual(label, "Add 0")

    model.commit { $0.isSaving = true }
    XCTAssertEqual(renders.value, 0)
    model.increment()
    XCTAssertEqual(renders.value, 1)
    XCTAssertEqual(model.state.count, 1)
  }

  func testABindingCommitsAndTheBodyThatReadsTheFieldRendersAgain() {
    let store = Store<Counter, Never>(initialState: Counter())

    // From the article ("A control bound to the state"):
    let title = store.bindingDerived(get: .select(\.title), set: { state, title in state.title = title })

    let renders = Renders()
    renders.track { _ = store.state.title }  // TitleEditor.body's Text
    title.wrappedValue = "Taps"  // commits: store.state.title == "Taps"
    XCTAssertEqual(store.state.title, "Taps")
    XCTAssertEqual(title.value, "Taps")
    XCTAssertEqual(renders.value, 1)
  }
}
