/// Tests a feature, written either as an `ActionReducer` (enum actions and
/// effects) or as a method reducer (`ReducerType`): drive it step by step,
/// assert the exact state each step produced, receive in order what its
/// asynchronous work produced, and finish with nothing left over.
///
/// The reducer's shape decides the API; the type is inferred from
/// `reducer:` alone.
///
/// Enum actions — `send` an action, `receive` the actions its effects send:
///
/// ```swift
/// func testLoad() async {
///   let store = TestStore(
///     initialState: Feature.State(),
///     reducer: Feature(api: .stub(photos: ["a", "b"])))   // swap dependencies here
///
///   await store.send(.load) { $0.isLoading = true }
///   await store.receive(.loaded(["a", "b"])) {
///     $0.isLoading = false
///     $0.photos = ["a", "b"]
///   }
///   await store.finish()
/// }
/// ```
///
/// Method reducers — `commit` a mutation, `dispatch` an action and
/// `receive` the mutations it commits, by name:
///
/// ```swift
/// func testRefresh() async throws {
///   let store = TestStore(
///     initialState: PhotosState(),
///     reducer: PhotosReducer(api: .stub(["a"])))
///
///   store.commit({ $0.select(0) }) { $0.selection = 0 }
///   let refresh = store.dispatch { $0.refresh() }
///   await store.receive("setLoading(_:)") { $0.isLoading = true }
///   await store.receive("setPhotos(_:)") {
///     $0.isLoading = false
///     $0.photos = ["a"]
///   }
///   let count = try await refresh.value
///   XCTAssertEqual(count, 1)
///   await store.finish()
/// }
/// ```
///
/// Activities the store's work sends (an effect's `send(activity:)` or
/// `.activity(_:)`, a method-reducer action's `context.send(_:)`) are
/// received with `receiveActivity`, in the order they were sent:
///
/// ```swift
/// await store.send(.post("hi")) { $0.isPosting = true }
/// await store.receive(.posted) { $0.isPosting = false }
/// await store.receiveActivity(.commentPosted("hi"))
/// ```
///
/// Failures are recorded in the framework the test runs in — a Swift
/// Testing issue inside `@Test`, `XCTFail` inside an `XCTestCase` — at the
/// test's own source location (see ``TestFailureReporter``).
///
/// Each assertion closure mutates a copy of the state from *before* that
/// step; any difference from the state the step actually produced fails
/// the test with a field-by-field diff. Changing the state without a
/// closure fails, and so does a closure given to a step that changed
/// nothing. While ``exhaustivity`` is `.on` (the default), everything the
/// store's asynchronous work produces must be received in order — an item
/// left over fails at the next step or at
/// ``finish(timeout:fileID:file:line:column:)`` — and `finish()` fails for
/// work still running. Each of those failures points at the `send` or
/// `dispatch` that started the work, with a timeline of what it did.
///
/// Waiting is event-driven: `receive` and `finish` wake when the store
/// produces something or comes to rest, and fail after a timeout.
///
/// Use a test store from one task at a time (the test's own); its async
/// methods run on the caller's actor.
public final class TestStore<Reducer> {
  /// How strictly the test is checked; `.on` unless set.
  public var exhaustivity: Exhaustivity
  /// How long `send`, `receive` and `finish` wait before they fail.
  public var timeout: Duration
  /// Where failures go.
  public let reporter: TestFailureReporter

  /// The shape's half: an `ActionBackend<Reducer>` when `Reducer` is an
  /// `ActionReducer` (`backend.actions()`), a `ReducerBackend<Reducer>`
  /// when it is a `ReducerType` (`backend.methods()`); fixed by the
  /// initializer that made the test store.
  let backend: ShapeBackend<Reducer>
  /// The same backend, for the logic both shapes share.
  let books: any TestStoreBackend
  /// Where the test store was made; failures at release point here.
  let location: FailureLocation
  /// Set by `finish()`: nothing is reported at release then.
  var finished = false

  /// Called by the shapes' public initializers.
  init<Backend: ShapeBackend<Reducer> & TestStoreBackend>(
    backend: Backend,
    exhaustivity: Exhaustivity,
    timeout: Duration,
    reporter: TestFailureReporter,
    location: FailureLocation
  ) {
    self.backend = backend
    self.books = backend
    self.exhaustivity = exhaustivity
    self.timeout = timeout
    self.reporter = reporter
    self.location = location
  }

  deinit {
    if !finished, let reporter = exhaustivity == .on ? reporter : skippedAssertions {
      reportLeftovers(context: "The test store was released without finish()", to: reporter, at: location)
    }
    skipAndCancelRunningWork(of: books)
    books.tearDown()
  }
}
