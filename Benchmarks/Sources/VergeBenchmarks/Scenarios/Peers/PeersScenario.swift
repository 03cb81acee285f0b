extension Scenario {
  /// 14. `IdentifiedArray` against its peers, swift-identified-collections'
  /// `IdentifiedArrayOf` and swift-collections' `TreeDictionary`, built into
  /// this one binary: each operation at 100, 10,000 and 100,000 rows (quick
  /// mode: 100 and 10,000) on the three collections of `PeerRow`s.
  static func peers(quick: Bool) -> Scenario {
    let sizes = quick ? [100, 10_000] : [100, 10_000, 100_000]
    var cases: [BenchmarkCase] = []
    for operation in PeerOperation.allCases {
      for size in sizes {
        cases.append(
          BenchmarkCase(
            name: peerCaseName(operation, size: size), units: operation.isPerElement ? size : 1,
            library: { VergePeer.workload(operation, size: size) },
            baseline: { IdentifiedCollectionsPeer.workload(operation, size: size) },
            others: [{ TreeDictionaryPeer.workload(operation, size: size) }]))
      }
    }
    return Scenario(
      number: 14, title: "IdentifiedArray against its peers", cases: cases,
      sides: SideNames(library: "Verge", baseline: "swift-identified-collections", others: ["TreeDictionary"]),
      pace: Pace(batchDuration: .milliseconds(20), repetitions: 11),
      targets: { peerTargets($0, sizes: sizes) },
      chart: { peerChart($0, sizes: sizes) },
      summary: { peerSummary($0, sizes: sizes) })
  }
}

/// A case's name: the operation and the size, for `--filter`.
func peerCaseName(_ operation: PeerOperation, size: Int) -> String {
  "\(operation.label), \(grouped(size)) rows"
}

/// Instructions of `side` over instructions of `reference`, `nil` in a
/// timed run or when either is missing.
private func instructionRatio(_ side: SideResult?, _ reference: SideResult?) -> Double? {
  guard let side = side?.instructionsPerOperation, let reference = reference?.instructionsPerOperation else {
    return nil
  }
  return side / reference
}

/// Time of `side` over time of `reference`, `nil` in an instruction-count
/// run (whose times are NaN) or when either is missing.
private func timeRatio(_ side: SideResult?, _ reference: SideResult?) -> Double? {
  guard let side, let reference, !side.nanosecondsPerOperation.isNaN, !reference.nanosecondsPerOperation.isNaN
  else { return nil }
  return side.nanosecondsPerOperation / reference.nanosecondsPerOperation
}

/// The collection's targets against its peers; instruction targets are
/// "not measured" in a timed run and time targets in an instruction-count
/// run.
private func peerTargets(_ results: ScenarioResults, sizes: [Int]) -> [TargetVerdict] {
  func result(_ operation: PeerOperation, _ size: Int) -> CaseResult? {
    results[peerCaseName(operation, size: size)]
  }
  var verdicts: [TargetVerdict] = []
  for size in [100, 100_000] where sizes.contains(size) {
    verdicts.append(
      .atMost(
        "write with the previous version held: at most 4× a unique write, \(grouped(size)) rows",
        instructionRatio(result(.heldWrite, size)?.library, result(.uniqueWrite, size)?.library),
        limit: 4, format: Formatting.ratio))
  }
  if sizes.contains(10_000) {
    verdicts.append(
      .atMost(
        "write with the previous version held: at most 1/20 of swift-identified-collections, 10,000 rows",
        result(.heldWrite, 10_000).flatMap { instructionRatio($0.library, $0.baseline) },
        limit: 0.05, format: { Formatting.fixed($0, digits: 4) + "×" }))
  }
  for size in sizes {
    verdicts.append(
      .atMost(
        "write with the previous version held: at most TreeDictionary, \(grouped(size)) rows",
        result(.heldWrite, size).flatMap { instructionRatio($0.library, $0.others.first ?? nil) },
        limit: 1, format: Formatting.ratio))
  }
  let againstIdentifiedCollections: [(PeerOperation, Double)] = [
    (.iterate, 2), (.forEach, 2), (.map, 2), (.filter, 2), (.contains, 2), (.countWhere, 2), (.build, 1.5),
    (.uniqueWrite, 1), (.read, 1),
  ]
  for (operation, limit) in againstIdentifiedCollections {
    for size in sizes {
      verdicts.append(
        .atMost(
          "\(operation.label): at most \(Formatting.fixed(limit, digits: limit == limit.rounded() ? 0 : 1))× swift-identified-collections, \(grouped(size)) rows",
          result(operation, size).flatMap { instructionRatio($0.library, $0.baseline) },
          limit: limit, format: Formatting.ratio))
    }
  }
  for operation in [PeerOperation.uniqueWrite, .read] where sizes.contains(100_000) {
    verdicts.append(
      .atMost(
        "\(operation.label): at most 1.5× swift-identified-collections' wall time, 100,000 rows",
        result(operation, 100_000).flatMap { timeRatio($0.library, $0.baseline) },
        limit: 1.5, format: Formatting.ratio))
  }
  verdicts.append(
    .atMost(
      "== of two versions: at most swift-identified-collections, 100 rows",
      result(.equality, 100).flatMap { instructionRatio($0.library, $0.baseline) },
      limit: 1, format: Formatting.ratio))
  return verdicts
}

/// The operations where the collections part ways as they grow: a write
/// while the previous version is held (solid) and `==` of two versions
/// (dashed), one colour per collection, against the number of rows.
func peerChart(_ results: ScenarioResults, sizes: [Int]) -> LineChart {
  let counted = results.cases.contains { $0.library.instructionsPerOperation != nil }
  let collections: [(name: String, colour: String, side: (CaseResult) -> SideResult?)] = [
    ("Verge", "#1f77b4", { $0.library }),
    ("swift-identified-collections", "#d62728", { $0.baseline }),
    ("TreeDictionary", "#2ca02c", { $0.others.first ?? nil }),
  ]
  var series: [LineChart.Series] = []
  for operation in [PeerOperation.heldWrite, .equality] {
    for collection in collections {
      let points = sizes.compactMap { size -> (x: Double, y: Double)? in
        guard let side = results[peerCaseName(operation, size: size)].flatMap(collection.side) else { return nil }
        return (Double(size), side.perOperation)
      }
      series.append(
        LineChart.Series(
          name: "\(operation == .heldWrite ? "held write" : "=="), \(collection.name)", points: points,
          colour: collection.colour,
          dashed: operation == .equality))
    }
  }
  return LineChart(
    title: "IdentifiedArray against its peers: held write (solid) and == (dashed)",
    xLabel: "rows (log scale)",
    yLabel: counted ? "instructions per operation (log scale)" : "nanoseconds per operation (log scale)",
    series: series)
}

/// One small table per operation, sizes down and collections across, as
/// `Benchmarks/README.md` shows them (instructions, or time in a timed run).
func peerSummary(_ results: ScenarioResults, sizes: [Int]) -> String {
  let counted = results.cases.contains { $0.library.instructionsPerOperation != nil }
  var lines: [String] = []
  for operation in PeerOperation.allCases {
    let rows = sizes.compactMap { size in results[peerCaseName(operation, size: size)].map { (size, $0) } }
    guard !rows.isEmpty else { continue }
    let per = operation.isPerElement ? "per element" : "per operation"
    lines += [
      "**\(operation.label)** (\(counted ? "instructions" : "time") \(per))", "",
      "| Rows | Verge | swift-identified-collections | TreeDictionary |",
      "| ---: | ---: | ---: | ---: |",
    ]
    for (size, result) in rows {
      let cells = [result.library, result.baseline, result.others.first ?? nil].map { side -> String in
        guard let side else { return "n/a" }
        let units = Double(result.units)
        if counted { return Formatting.count(side.instructionsPerOperation.map { $0 / units }) }
        return Formatting.time(side.nanosecondsPerOperation / units)
      }
      lines.append("| \(grouped(size)) | " + cells.joined(separator: " | ") + " |")
    }
    lines.append("")
  }
  return lines.joined(separator: "\n")
}
