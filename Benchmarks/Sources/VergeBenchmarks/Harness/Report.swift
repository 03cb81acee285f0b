/// Prints results as Markdown, ready to paste into `Benchmarks/README.md`.
enum Report {
  static func header(settings: Settings, machine: Machine) {
    print("# Verge benchmarks")
    print("")
    print("- date: \(machine.date)")
    if settings.countsInstructions {
      print("- mode: instruction count (callgrind), \(settings.isQuick ? "quick" : "full") sizes, one counted batch per side after warm-up; ratios are of instructions")
    } else {
      print("- mode: \(settings.isQuick ? "quick" : "full"), \(settings.repetitions) batches of ~\(settings.batchDuration) per side")
    }
    print("- machine: \(machine.processors) processors, \(machine.architecture), \(machine.system)")
    #if DEBUG
    print("- WARNING: debug build; figures are meaningless. Use `swift run -c release`.")
    #endif
    if !machine.countsAllocations {
      print("- allocation counting is unavailable on this platform (Linux with glibc only)")
    }
    print("")
  }

  static func table(_ scenario: Scenario, _ results: ScenarioResults) {
    print("## \(scenario.number). \(scenario.title)")
    print("")
    guard !results.cases.isEmpty else { return }
    if results.cases.contains(where: { $0.library.instructionsPerOperation != nil }) {
      instructionTable(results)
      return
    }
    print("| Case | Verge time/op | Baseline time/op | Ratio | Verge allocs/op | Baseline allocs/op | Verge bytes/op | Baseline bytes/op |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for result in results.cases {
      var name = result.name
      if result.units > 1 {
        let perUnit = result.library.nanosecondsPerOperation / Double(result.units)
        let basePerUnit = result.baseline.nanosecondsPerOperation / Double(result.units)
        name += " (per unit: \(Formatting.time(perUnit)) vs \(Formatting.time(basePerUnit)))"
      }
      let cells = [
        name,
        Formatting.time(result.library.nanosecondsPerOperation),
        Formatting.time(result.baseline.nanosecondsPerOperation),
        Formatting.ratio(result.ratio),
        Formatting.count(result.library.allocationsPerOperation),
        Formatting.count(result.baseline.allocationsPerOperation),
        Formatting.bytes(result.library.bytesPerOperation),
        Formatting.bytes(result.baseline.bytesPerOperation),
      ]
      print("| " + cells.joined(separator: " | ") + " |")
    }
    print("")
  }

  /// The table of an instruction-count run.
  private static func instructionTable(_ results: ScenarioResults) {
    print("| Case | Verge instr/op | Baseline instr/op | Ratio | Verge allocs/op | Baseline allocs/op | Verge bytes/op | Baseline bytes/op |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for result in results.cases {
      var name = result.name
      if result.units > 1, let library = result.library.instructionsPerOperation,
        let baseline = result.baseline.instructionsPerOperation
      {
        let units = Double(result.units)
        name += " (per unit: \(Formatting.count(library / units)) vs \(Formatting.count(baseline / units)))"
      }
      let cells = [
        name,
        Formatting.count(result.library.instructionsPerOperation),
        Formatting.count(result.baseline.instructionsPerOperation),
        Formatting.ratio(result.ratio),
        Formatting.count(result.library.allocationsPerOperation),
        Formatting.count(result.baseline.allocationsPerOperation),
        Formatting.bytes(result.library.bytesPerOperation),
        Formatting.bytes(result.baseline.bytesPerOperation),
      ]
      print("| " + cells.joined(separator: " | ") + " |")
    }
    print("")
  }

  static func probes(_ results: [ProbeResult]) {
    guard !results.isEmpty else { return }
    print("| Measured once | Verge | Baseline | Ratio |")
    print("| --- | ---: | ---: | ---: |")
    for result in results {
      let cells = [
        "\(result.name) (\(result.unit))",
        result.library.map { Formatting.fixed($0, digits: 1) } ?? "n/a",
        result.baseline.map { Formatting.fixed($0, digits: 1) } ?? "n/a",
        result.ratio.map(Formatting.ratio) ?? "n/a",
      ]
      print("| " + cells.joined(separator: " | ") + " |")
    }
    print("")
  }

  static func targets(_ verdicts: [TargetVerdict]) {
    guard !verdicts.isEmpty else { return }
    print("| Target | Measured | Verdict |")
    print("| --- | --- | --- |")
    for verdict in verdicts {
      print("| \(verdict.target) | \(verdict.measured) | \(verdict.outcome.rawValue) |")
    }
    print("")
  }
}
