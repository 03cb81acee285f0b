import Verge
import VergeTestSupport
import XCTest

/// The snippets of the "Coming from Verge" article, compiled and asserted.
final class ComingFromVergeTests: XCTestCase {
  @MainActor final class Label { var text = "" }

  final class MyViewModel: StoreComponentType {
    struct State: Equatable {
      var name: String = ""
      var count: Int = 0
    }
    let store: DefaultStore = .init(initialState: .init())
    func myAction() { commit { $0.name = "Hello, Verge" } }
  }

  @MainActor
  func testAViewModelWrittenForVergeCompilesAndBehaves() async {
    let viewModel = MyViewModel()
    let nameLabel = Label()
    let summary = Label()

    var subscriptions = Set<VergeAnyCancellable>()
    viewModel.sinkState { (state: Changes<MyViewModel.State>) in
      state.ifChanged(\.name) { name in nameLabel.text = name }
      state.ifChanged({ ($0.name, $0.count) }, ==) { name, count in
        summary.text = "\(name): \(count)"
      }
    }
    .store(in: &subscriptions)

    XCTAssertEqual(summary.text, ": 0")
    viewModel.myAction()
    XCTAssertEqual(nameLabel.text, "Hello, Verge")
    XCTAssertEqual(summary.text, "Hello, Verge: 0")
    viewModel.commit { $0.count = 2 }
    XCTAssertEqual(summary.text, "Hello, Verge: 2")
  }

  struct State: Equatable { var isSelectingAspectRatio = false }

  @MainActor final class CropViewController {
    private let store: Store<State, Never> = .init(initialState: .init())
    private var subscriptions = Set<VergeAnyCancellable>()
    let label = Label()

    func viewDidLoad() {
      store.sinkState { [weak self] state in
        guard let self else { return }
        state.ifChanged(\.isSelectingAspectRatio) { value in
          self.label.text = "\(value)"
        }
      }
      .store(in: &subscriptions)
    }

    func select() { store.commit { $0.isSelectingAspectRatio = true } }
  }

  @MainActor
  func testTheMainActorViewControllerUpdatesItsLabel() async {
    let controller = CropViewController()
    controller.viewDidLoad()
    XCTAssertEqual(controller.label.text, "false")
    controller.select()
    XCTAssertEqual(controller.label.text, "true")
  }

  struct Cart: StateType {
    var prices: [Int] = []
    var total = 0
    var edits = 0

    // Runs inside every commit (and at init): keeps `total` consistent.
    static func reduce(modifying: inout InoutRef<Cart>, current: Changes<Cart>) {
      guard current.hasModified(\.prices) else { return }
      modifying.total = current.prices.reduce(0, +)
    }
  }

  struct Summary: Equatable { var total = 0 }

  func testVergesWiderAPIKeepsItsShape() {
    var totals: [Int] = []
    var counts: [Int] = []

    let cart = Store<Cart, Never>(initialState: .init())
    let summary = Store<Summary, Never>(initialState: .init())
    let mirror = cart.derived(.select(\.total)).assign(to: summary.assignee(\.total))

    let firstPrice = cart.bindingDerived(
      get: .map { $0.prices.first ?? 0 },
      set: { state, price in state.prices = [price] + state.prices.dropFirst() })
    firstPrice.wrappedValue = 4

    let log = cart.accumulate { state in
      state.ifChanged(\.total).do { total in totals.append(total) }
      state.ifChanged(\.prices.count).dropFirst().do { count in counts.append(count) }
    }
    cart.commit { $0.markAsModified() }   // notifies without writing

    XCTAssertEqual(cart.state.total, 4)
    XCTAssertEqual(summary.state.total, 4)
    XCTAssertEqual(firstPrice.value, 4)
    cart.commit { $0.prices.append(6) }
    XCTAssertEqual(summary.state.total, 10)
    XCTAssertEqual(totals, [4, 10])
    XCTAssertEqual(counts, [2])
    withExtendedLifetime((mirror, log)) {}
  }

  @MainActor
  func testQueuesScansComparatorsAndWaitingKeepVergesShape() async {
    var deliveryCount = 0
    var line = ""
    var lengths: [Int] = []
    let refreshed = Gate()
    @Sendable func refresh() async { refreshed.open() }
    let cart = Store<Cart, Never>(initialState: .init(prices: [2]))

    let shown = cart.derived(.select(\.total), queue: .main)   // publishes on the main queue
    cart.add(middleware: .modify { modifying, _, current in
      current.ifChanged(\.prices).do { _ in modifying.edits += 1 }
    })
    cart.sinkState(scan: .counter()) { _, deliveries in deliveryCount = deliveries }
      .storeWhileSourceActive()
    let sameLength = EqualityComparator<[Int]>().or(AnyEqualityComparator { $0.count == $1.count })
    let render = cart.sinkState { changes in
      changes.ifChanged({ ($0.total, $0.edits) }) { pair in line = "\(pair.0) after \(pair.1) edits" }
      changes.ifChanged({ $0.prices }, sameLength) { prices in lengths.append(prices.count) }
    }
    cart.commit { $0.prices.append(1) }
    cart.taskDetached { await refresh() }
    await cart.waitUntilAllEventConsumed()   // `shown` is up to date

    await refreshed.wait()
    XCTAssertEqual(shown.value, 3)
    XCTAssertEqual(deliveryCount, 2)
    XCTAssertEqual(line, "3 after 1 edits")
    XCTAssertEqual(lengths, [1, 2])
    cart.commit { $0.prices[0] = 5 }   // the same length: not a change for `sameLength`
    XCTAssertEqual(lengths, [1, 2])
    withExtendedLifetime(render) {}
  }

  struct Photo: Equatable {
    @Edge var size = (width: 0, height: 0)      // equal by write stamp, or by value
    @ReferenceEdge var tags: [String] = []      // one heap copy, copied on write
  }

  func testStateFieldsKeepVergesWrappers() {
    let photo = Photo()
    var copy = photo
    copy.size = (width: 0, height: 0)
    XCTAssertEqual(copy, photo, "an equal tuple after a write is equal")
    copy.tags.append("sea")
    XCTAssertEqual(photo.tags, [])
    XCTAssertNotEqual(copy, photo)
  }
}
