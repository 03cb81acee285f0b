/// One operation measured on the library and on the baseline store.
struct BenchmarkCase {
  /// A short name, unique within its scenario.
  let name: String
  /// How many units one operation covers (derived values per commit, for
  /// example), for per-unit figures; 1 when that means nothing.
  var units = 1
  /// Sets up the library's side.
  let library: () -> Workload
  /// Sets up the baseline's side.
  let baseline: () -> Workload
  /// Further sides measured beside the two, in the order of the scenario's
  /// `sides.others` (another implementation of the same operation); a side
  /// that returns `nil` has no such operation and reads `n/a`. Empty for
  /// a case with two sides.
  var others: [() -> Workload?] = []
}

/// What a scenario's sides are called in its report.
struct SideNames {
  /// The library's side ("Verge").
  var library = "Verge"
  /// The side ratios are taken against ("Baseline").
  var baseline = "Baseline"
  /// The names of the cases' further sides (`BenchmarkCase.others`).
  var others: [String] = []
}

/// A numbered scenario of the suite: its cases and how its targets are judged.
struct Scenario {
  let number: Int
  let title: String
  let cases: [BenchmarkCase]
  /// What the sides are called in the report.
  var sides = SideNames()
  /// Figures measured once per side rather than timed (memory held).
  var probes: [Probe] = []
  /// Shorter batches for a full timed run of a scenario with many cases;
  /// `nil` keeps the suite's (quick and instruction-count runs keep
  /// theirs in any case).
  var pace: Pace? = nil
  /// Judges the scenario's targets from its results.
  let targets: (ScenarioResults) -> [TargetVerdict]
  /// The scenario's chart, drawn from its results, for `--svg`; `nil` for
  /// none.
  var chart: ((ScenarioResults) -> LineChart)? = nil
  /// Markdown printed after the scenario's table (a digest of its
  /// results); `nil` for none.
  var summary: ((ScenarioResults) -> String)? = nil
}

/// How long a full timed run measures each case of one scenario.
struct Pace {
  /// Each timed batch runs about this long.
  let batchDuration: Duration
  /// Timed batches per side; the median is reported.
  let repetitions: Int
}

/// The measured figures of one side of one case (medians over repetitions).
struct SideResult {
  var nanosecondsPerOperation: Double
  /// `nil` when allocation counting is unavailable on this platform.
  var allocationsPerOperation: Double?
  var bytesPerOperation: Double?
  /// Instructions executed per operation, counted by callgrind; `nil` when
  /// the run was timed instead.
  var instructionsPerOperation: Double? = nil

  /// The figure a growth, a sum or a chart uses: instructions when they
  /// were counted, time otherwise.
  var perOperation: Double {
    instructionsPerOperation ?? nanosecondsPerOperation
  }
}

/// Both sides of one case.
struct CaseResult {
  let name: String
  let units: Int
  let library: SideResult
  let baseline: SideResult
  /// The further sides' figures (`BenchmarkCase.others`), `nil` where a
  /// side has no such operation.
  var others: [SideResult?] = []

  /// Library instructions over baseline instructions when they were
  /// counted (`--callgrind`), otherwise library time over baseline time.
  var ratio: Double {
    if let library = library.instructionsPerOperation, let baseline = baseline.instructionsPerOperation {
      return library / baseline
    }
    return library.nanosecondsPerOperation / baseline.nanosecondsPerOperation
  }

  /// Library over the further side `index`, as `ratio` is over the
  /// baseline; `nil` when that side has no such operation.
  func ratio(toOther index: Int) -> Double? {
    guard others.indices.contains(index), let other = others[index] else { return nil }
    return CaseResult(name: name, units: units, library: library, baseline: other).ratio
  }
}

/// The results of one scenario, by case name.
struct ScenarioResults {
  let cases: [CaseResult]
  var probes: [ProbeResult] = []

  subscript(name: String) -> CaseResult? {
    cases.first { $0.name == name }
  }

  /// The probe named `name`, when it ran.
  func probe(_ name: String) -> ProbeResult? {
    probes.first { $0.name == name }
  }
}

/// Whether one performance target is met, and by how much.
struct TargetVerdict {
  enum Outcome: String {
    case met = "met"
    case missed = "MISSED"
    case notMeasured = "not measured"
  }

  let target: String
  let outcome: Outcome
  let measured: String
}

extension TargetVerdict {
  /// Judges "at most `limit`" for a measured value, or "not measured" when
  /// the case was filtered out.
  static func atMost(
    _ target: String, _ value: Double?, limit: Double, format: (Double) -> String
  ) -> TargetVerdict {
    // NaN: a time that an instruction-count run does not measure.
    guard let value, !value.isNaN else { return TargetVerdict(target: target, outcome: .notMeasured, measured: "-") }
    return TargetVerdict(
      target: target, outcome: value <= limit ? .met : .missed,
      measured: value <= limit
        ? format(value)
        : "\(format(value)) (\(Formatting.ratio(value / limit)) over the limit)")
  }
}
