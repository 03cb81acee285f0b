/// One operation of the app-scale scenario, measured at each
/// number of rows.
enum AppScalePath: CaseIterable {
  case rowAction
  case unrelatedAction
  case removeAndReAdd
  case ifChangedClosure
  case ifChangedKeyPath
  case derivedMap
  case derivedSelect
  case observation
  case scopeCommit
  case derivedEntity
  case testStore
  case persistedCommit

  /// The letter of the brief, and the operation.
  var label: String {
    switch self {
    case .rowAction: "(a) row action through the list feature (forEach)"
    case .unrelatedAction: "(b) unrelated parent action"
    case .removeAndReAdd: "(c) remove a row and re-add it"
    case .ifChangedClosure: "(d) commit, 1,000 sinkState { $0.ifChanged({ $0.rows[k] }) }"
    case .ifChangedKeyPath: "(d) commit, 1,000 sinkState { $0.ifChanged(path) }, path = \\.rows[k]"
    case .derivedMap: "(e) commit, 1,000 derived(.map { $0.rows[k] })"
    case .derivedSelect: "(e) commit, 1,000 derived(.select(\\.rows[k]))"
    case .observation: "(e) commit, 100 withObservationTracking { store.state[\\.rows[k]] }"
    case .scopeCommit: "(f) method ScopedStore commit on one row"
    case .derivedEntity: "(g) VergeORM update, 1,000 derivedEntity"
    case .testStore: "(h) TestStore send + assertion of a row action"
    case .persistedCommit: "(i) commit with persist attached"
    }
  }

  /// A short name for the chart's legend.
  var shortName: String {
    switch self {
    case .rowAction: "(a) row action"
    case .unrelatedAction: "(b) unrelated action"
    case .removeAndReAdd: "(c) remove + re-add"
    case .ifChangedClosure: "(d) ifChanged closure"
    case .ifChangedKeyPath: "(d) ifChanged key path"
    case .derivedMap: "(e) derived .map"
    case .derivedSelect: "(e) derived .select"
    case .observation: "(e) Observation"
    case .scopeCommit: "(f) scope commit"
    case .derivedEntity: "(g) ORM derivedEntity"
    case .testStore: "(h) TestStore step"
    case .persistedCommit: "(i) persisted commit"
    }
  }

  /// What the library's side is compared with.
  var baseline: String {
    switch self {
    case .rowAction, .unrelatedAction: "the same reduction sent to the row's own ActionStore"
    case .removeAndReAdd: "the same removal and insertion in a BaselineStore of the same collection"
    case .ifChangedClosure, .ifChangedKeyPath, .derivedMap, .derivedSelect, .observation:
      "a BaselineStore of the same collection with \(grouped(readers)) select-and-compare closures"
    case .scopeCommit: "the same mutation committed on the row's own ReducerStore, one subscriber each"
    case .derivedEntity: "a BaselineStore of a Dictionary with 1,000 select-and-compare closures"
    case .testStore: "the same step on a TestStore of the row's own feature"
    case .persistedCommit: "the same commit on the same store without persistence"
    }
  }

  /// Readers per operation, for per-unit figures.
  var units: Int {
    switch self {
    case .ifChangedClosure, .ifChangedKeyPath, .derivedMap, .derivedSelect, .observation, .derivedEntity:
      readers
    default: 1
    }
  }

  /// How many per-row readers the path registers, at every size.
  ///
  /// Observation readers of one row share one check, so 1,000 readers of
  /// 100 rows would make 100 checks at 100 rows and 1,000 at 100,000: the
  /// path keeps one reader per row at 100 rows, and as many at every size,
  /// so that its growth is the rows' and not the watched rows'.
  var readers: Int {
    self == .observation ? appScaleObservationReaders : appScaleReaders
  }

  /// The chart's colour of the path (both collections use it; the plain
  /// array's line is dashed).
  var colour: String {
    switch self {
    case .rowAction: "#1f77b4"
    case .unrelatedAction: "#ff7f0e"
    case .removeAndReAdd: "#2ca02c"
    case .ifChangedClosure: "#d62728"
    case .ifChangedKeyPath: "#9467bd"
    case .derivedMap: "#8c564b"
    case .derivedSelect: "#e377c2"
    case .observation: "#7f7f7f"
    case .scopeCommit: "#bcbd22"
    case .derivedEntity: "#17becf"
    case .testStore: "#393b79"
    case .persistedCommit: "#ad494a"
    }
  }

  /// Whether the path runs once per row collection (otherwise once: the
  /// VergeORM path keeps its entities in a VergeORM table).
  var isPerCollection: Bool { self != .derivedEntity }
}

/// How many per-row readers (subscribers, derived values, observers,
/// derived entities) the reader paths register, at every size.
let appScaleReaders = 1_000

/// How many Observation readers the Observation path registers, at every
/// size (see `AppScalePath.readers`).
let appScaleObservationReaders = 100
