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
    for line in tableLines(scenario.sides, results) { print(line) }
    print("")
  }

  /// The Markdown lines of a scenario's table: per case, each side's time
  /// (or instructions, in an instruction-count run) per operation, the
  /// library's ratio to the baseline and to each further side, then each
  /// side's allocations and bytes per operation.
  static func tableLines(_ sides: SideNames, _ results: ScenarioResults) -> [String] {
    let counted = results.cases.contains { $0.library.instructionsPerOperation != nil }
    let unit = counted ? "instr/op" : "time/op"
    let names = [sides.library, sides.baseline] + sides.others
    let cost: (SideResult?) -> String = { side in
      guard let side else { return "n/a" }
      return counted ? Formatting.count(side.instructionsPerOperation) : Formatting.time(side.nanosecondsPerOperation)
    }
    let perOperation: (SideResult) -> Double? = { side in
      counted ? side.instructionsPerOperation : side.nanosecondsPerOperation
    }
    var header = ["Case", "\(sides.library) \(unit)", "\(sides.baseline) \(unit)", "Ratio"]
    for other in sides.others { header += ["\(other) \(unit)", "Ratio to \(other)"] }
    header += names.map { "\($0) allocs/op" } + names.map { "\($0) bytes/op" }
    var lines = [
      "| " + header.joined(separator: " | ") + " |",
      "| --- |" + String(repeating: " ---: |", count: header.count - 1),
    ]
    for result in results.cases {
      let all: [SideResult?] = [result.library, result.baseline] + sides.others.indices.map {
        result.others.indices.contains($0) ? result.others[$0] : nil
      }
      var name = result.name
      if result.units > 1, all.allSatisfy({ $0.map(perOperation) != nil }) {
        let units = Double(result.units)
        let perUnit = all.map { side -> String in
          guard let side, let value = perOperation(side) else { return "n/a" }
          return counted ? Formatting.count(value / units) : Formatting.time(value / units)
        }
        name += " (per unit: \(perUnit.joined(separator: " vs ")))"
      }
      var cells = [name, cost(result.library), cost(result.baseline), Formatting.ratio(result.ratio)]
      for index in sides.others.indices {
        cells += [cost(all[2 + index]), result.ratio(toOther: index).map(Formatting.ratio) ?? "n/a"]
      }
      cells += all.map { $0.map { Formatting.count($0.allocationsPerOperation) } ?? "n/a" }
      cells += all.map { $0.map { Formatting.bytes($0.bytesPerOperation) } ?? "n/a" }
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines
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
