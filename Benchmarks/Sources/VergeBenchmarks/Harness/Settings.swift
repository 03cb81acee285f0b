/// How long to measure; see `--quick`.
struct Settings {
  /// Each timed batch runs about this long.
  var batchDuration: Duration
  /// Timed batches per side; the median is reported.
  var repetitions: Int
  /// Only cases whose "scenario case" name contains this (case-insensitive).
  var filter: String?
  var isQuick: Bool
  /// Where valgrind writes callgrind's dumps (its `--callgrind-out-file`),
  /// in instruction-count mode; `nil` when timing.
  var callgrindOutput: String?
  /// Where to write the charts of the scenarios that have one, as SVG;
  /// `nil` for no chart.
  var svgOutput: String?

  static let full = Settings(batchDuration: .milliseconds(50), repetitions: 21, filter: nil, isQuick: false)
  static let quick = Settings(batchDuration: .milliseconds(2), repetitions: 3, filter: nil, isQuick: true)

  static let usage = """
    usage: VergeBenchmarks [--quick] [--filter TEXT] [--svg FILE]
      --quick        measure a few milliseconds per case (for CI)
      --filter TEXT  run only cases whose scenario or case name contains TEXT
      --svg FILE     write the charts (scenarios 12 and 14) to FILE
      --callgrind FILE
                     count instructions instead of timing: run under
                     valgrind --tool=callgrind --collect-atstart=no
                     --instr-atstart=no --callgrind-out-file=FILE
    """

  /// Parses the command line; `nil` when it is not understood.
  static func parse(_ arguments: [String]) -> Settings? {
    var settings = Settings.full
    var filter: String?
    var callgrindOutput: String?
    var svgOutput: String?
    var index = 0
    while index < arguments.count {
      switch arguments[index] {
      case "--quick":
        settings = .quick
      case "--filter" where index + 1 < arguments.count:
        index += 1
        filter = arguments[index]
      case "--callgrind" where index + 1 < arguments.count:
        index += 1
        callgrindOutput = arguments[index]
      case "--svg" where index + 1 < arguments.count:
        index += 1
        svgOutput = arguments[index]
      default:
        return nil
      }
      index += 1
    }
    settings.filter = filter
    settings.callgrindOutput = callgrindOutput
    settings.svgOutput = svgOutput
    if callgrindOutput != nil {
      // One counted batch per side, sized like a quick batch: the count
      // does not depend on the batch's length, and valgrind is slow.
      settings.batchDuration = Settings.quick.batchDuration
      settings.repetitions = 1
    }
    return settings
  }

  /// These settings with `pace`'s batches, for a full timed run; quick
  /// and instruction-count runs keep their own.
  func paced(_ pace: Pace?) -> Settings {
    guard let pace, !isQuick, !countsInstructions else { return self }
    var settings = self
    settings.batchDuration = pace.batchDuration
    settings.repetitions = pace.repetitions
    return settings
  }

  /// Whether instructions are counted (under callgrind) instead of time.
  var countsInstructions: Bool { callgrindOutput != nil }

  func includes(_ scenario: Scenario, _ benchmarkCase: BenchmarkCase) -> Bool {
    includes(scenario, named: benchmarkCase.name)
  }

  func includes(_ scenario: Scenario, _ probe: Probe) -> Bool {
    includes(scenario, named: probe.name)
  }

  private func includes(_ scenario: Scenario, named name: String) -> Bool {
    guard let filter, !filter.isEmpty else { return true }
    let name = "\(scenario.number) \(scenario.title) \(name)".lowercased()
    return name.contains(filter.lowercased())
  }
}
