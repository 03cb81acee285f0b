import Verge

/// The row collections the app-scale scenario runs each path on, side by
/// side.
var appScaleForms: [AppScaleForm] { [.of([AppRow].self), .of(IdentifiedArrayOf<AppRow>.self)] }

/// One row collection of the app-scale scenario: its name and how to make
/// its cases.
///
/// Made from the concrete collection type, so that the workloads are
/// compiled specialized for it, as an app's code is. (Reached through an
/// existential metatype instead, they would run as unspecialized generic
/// code, looking metadata up on every operation.)
struct AppScaleForm {
  let name: String
  let makeCase: (AppScalePath, Int) -> BenchmarkCase?
  let makeProbe: (Int) -> Probe

  static func of<Rows: AppScaleRows>(_ rows: Rows.Type) -> AppScaleForm {
    AppScaleForm(
      name: Rows.formName,
      makeCase: { path, count in appScaleCase(path, rows: rows, count: count) },
      makeProbe: { count in observationProbe(rows: rows, count: count) })
  }
}

/// The sizes of the app-scale scenario; quick mode keeps two.
struct AppScaleSizes {
  let counts: [Int]

  static let full = AppScaleSizes(counts: [100, 1_000, 10_000, 100_000])
  static let quick = AppScaleSizes(counts: [100, 10_000])
}

/// The VergeORM path's "collection": its entities live in a VergeORM table.
let appScaleORMForm = "VergeORM table"

/// The case name of `path` on the collection `form` with `count` rows.
func appScaleCaseName(_ path: AppScalePath, form: String, count: Int) -> String {
  "\(path.label), \(form), \(grouped(count)) rows"
}

extension Scenario {
  /// 12. App scale: every operation of an app with a list of
  /// rows, from 100 to 100,000 rows, on a plain array and on an identified
  /// collection; the targets are a growth of at most 1.3× from the smallest
  /// to the largest size on every path but removing and re-adding a row
  /// (which grows at most as the same writes in a hand-written store of the
  /// same collection), no copy of the rows, and Observation readers
  /// invalidated only by their row. Scenario 13 judges a row's action.
  static func appScale(quick: Bool) -> Scenario {
    let sizes = quick ? AppScaleSizes.quick : .full
    var cases: [BenchmarkCase] = []
    for count in sizes.counts {
      for path in AppScalePath.allCases {
        if path.isPerCollection {
          for form in appScaleForms {
            if let benchmarkCase = form.makeCase(path, count) {
              cases.append(benchmarkCase)
            }
          }
        } else {
          cases.append(
            BenchmarkCase(
              name: appScaleCaseName(path, form: appScaleORMForm, count: count), units: path.units,
              library: { derivedEntitiesWatched(count: count) },
              baseline: { baselineDictionarySelectors(count: count) }))
        }
      }
    }
    var probes: [Probe] = []
    for count in sizes.counts {
      for form in appScaleForms {
        probes.append(form.makeProbe(count))
      }
    }
    let forms = appScaleForms.map(\.name)
    return Scenario(
      number: 12,
      title: "App scale: each operation from \(grouped(sizes.counts[0])) to \(grouped(sizes.counts.last ?? 0)) rows",
      cases: cases,
      probes: probes,
      // About 90 cases: shorter batches keep the full run near a minute.
      pace: Pace(batchDuration: .milliseconds(20), repetitions: 11),
      targets: { appScaleTargets($0, counts: sizes.counts, forms: forms) },
      chart: { appScaleChart($0, counts: sizes.counts, forms: forms) },
      summary: { appScaleSummary($0, counts: sizes.counts, forms: forms) })
  }
}

/// The probe name of the Observation readers that one row's commit
/// invalidates.
func appScaleObservationProbeName(form: String, count: Int) -> String {
  "(e) Observation readers invalidated by a commit of one row, \(form), \(grouped(count)) rows"
}

func observationProbe<Rows: AppScaleRows>(rows: Rows.Type, count: Int) -> Probe {
  Probe(
    name: appScaleObservationProbeName(form: Rows.formName, count: count),
    unit: "of \(grouped(appScaleObservationReaders)) readers; baseline: select-and-compare closures called",
    library: { observationInvalidations(rows, count: count) },
    baseline: { baselineSelectorCalls(rows, count: count, readers: appScaleObservationReaders) })
}

/// The case of `path` on the collection `rows`; `nil` for the path that
/// does not run per collection.
func appScaleCase<Rows: AppScaleRows>(
  _ path: AppScalePath, rows: Rows.Type, count: Int
) -> BenchmarkCase? {
  let name = appScaleCaseName(path, form: Rows.formName, count: count)
  func make(_ library: @escaping () -> Workload, _ baseline: @escaping () -> Workload) -> BenchmarkCase {
    BenchmarkCase(name: name, units: path.units, library: library, baseline: baseline)
  }
  switch path {
  case .rowAction:
    return make({ rowActionThroughForEach(rows, count: count) }, { rowOwnSend() })
  case .unrelatedAction:
    return make({ unrelatedAction(rows, count: count) }, { rowOwnSend() })
  case .removeAndReAdd:
    return make(
      { removeAndReAdd(rows, count: count) }, { baselineRemoveAndReAdd(rows, count: count) })
  case .ifChangedClosure:
    return make(
      { ifChangedClosureSubscribers(rows, count: count) }, { baselineRowSelectors(rows, count: count) })
  case .ifChangedKeyPath:
    return make(
      { ifChangedKeyPathSubscribers(rows, count: count) }, { baselineRowSelectors(rows, count: count) })
  case .derivedMap:
    return make({ mapDerivedRows(rows, count: count) }, { baselineRowSelectors(rows, count: count) })
  case .derivedSelect:
    return make({ selectDerivedRows(rows, count: count) }, { baselineRowSelectors(rows, count: count) })
  case .observation:
    return make(
      { observationReaders(rows, count: count) },
      { baselineRowSelectors(rows, count: count, readers: appScaleObservationReaders) })
  case .scopeCommit:
    return make({ scopedRowCommit(rows, count: count) }, { rowOwnCommit() })
  case .derivedEntity:
    return nil
  case .testStore:
    return make({ testStoreRowStep(rows, count: count) }, { rowOwnTestStoreStep() })
  case .persistedCommit:
    return make(
      { persistedRowCommit(rows, count: count, persisted: true) },
      { persistedRowCommit(rows, count: count, persisted: false) })
  }
}

// MARK: - Judging, summary, chart

/// The forms each path ran on.
private func forms(of path: AppScalePath, _ forms: [String]) -> [String] {
  path.isPerCollection ? forms : [appScaleORMForm]
}

private func appScaleTargets(_ results: ScenarioResults, counts: [Int], forms all: [String]) -> [TargetVerdict] {
  guard let small = counts.first, let large = counts.last else { return [] }
  // A row's action is judged by scenario 13, against the same action of
  // an id the list does not hold plus the list's own write by id: the
  // collection's write alone costs more than the row's own store's send.
  var verdicts: [TargetVerdict] = []
  // Instruction counts hardly see a copy (`memcpy` moves many bytes per
  // counted instruction): judge copies by the bytes allocated. Not for the
  // Observation path, whose invalidated readers register again each
  // operation (about 1 KiB each); its probe counts the invalidations.
  let rowsBytes = Double(large * MemoryLayout<AppRow>.stride)
  for path in AppScalePath.allCases where path.isPerCollection && path != .observation {
    for form in all {
      verdicts.append(
        .atMost(
          "\(path.shortName), \(form), \(grouped(large)) rows: no copy of the rows "
            + "(less than 1% of their \(Formatting.bytes(rowsBytes)) allocated per operation)",
          results[appScaleCaseName(path, form: form, count: large)]?.library.bytesPerOperation,
          limit: rowsBytes / 100, format: { "\(Formatting.bytes($0))/op" }))
    }
  }
  for form in all {
    verdicts.append(
      .atMost(
        "(e) Observation, \(form), \(grouped(large)) rows: a commit of one row invalidates "
          + "only that row's readers (at most 1 of \(grouped(appScaleObservationReaders)))",
        results.probe(appScaleObservationProbeName(form: form, count: large))?.library, limit: 1,
        format: { "\(Formatting.count($0)) invalidated" }))
  }
  // Removing a row and putting it back is O(log n) on this collection: its
  // growth is judged against the same two writes on the same collection in
  // a hand-written store, not against a constant.
  for form in all {
    let first = results[appScaleCaseName(.removeAndReAdd, form: form, count: small)]
    let last = results[appScaleCaseName(.removeAndReAdd, form: form, count: large)]
    let growth: (KeyPath<CaseResult, SideResult>) -> Double? = { side in
      first.flatMap { first in last.map { $0[keyPath: side].perOperation / first[keyPath: side].perOperation } }
    }
    let ratio = growth(\.library).flatMap { library in growth(\.baseline).map { library / $0 } }
    verdicts.append(
      .atMost(
        "\(AppScalePath.removeAndReAdd.shortName), \(form): grows from \(grouped(small)) to \(grouped(large)) rows "
          + "at most as the same writes in a BaselineStore of the same collection",
        ratio, limit: 1,
        format: { ratio in
          let library = growth(\.library).map(Formatting.ratio) ?? "-"
          let baseline = growth(\.baseline).map(Formatting.ratio) ?? "-"
          return "\(Formatting.ratio(ratio)) (\(library) against \(baseline))"
        }))
  }
  for path in AppScalePath.allCases where path != .removeAndReAdd {
    for form in forms(of: path, all) {
      let first = results[appScaleCaseName(path, form: form, count: small)]
      let last = results[appScaleCaseName(path, form: form, count: large)]
      let growth = first.flatMap { first in last.map { $0.library.perOperation / first.library.perOperation } }
      let unit = first?.library.instructionsPerOperation != nil ? "instr/op" : "ns/op"
      verdicts.append(
        .atMost(
          "\(path.shortName), \(form): at most 1.3× from \(grouped(small)) to \(grouped(large)) rows",
          growth, limit: 1.3,
          format: { growth in
            let from = first.map { Formatting.count($0.library.perOperation) } ?? "-"
            let to = last.map { Formatting.count($0.library.perOperation) } ?? "-"
            return "\(Formatting.ratio(growth)) (\(from) → \(to) \(unit))"
          }))
    }
  }
  return verdicts
}

/// One row per path and collection: the library's figure per operation at
/// each size, and the growth from the smallest to the largest.
private func appScaleSummary(_ results: ScenarioResults, counts: [Int], forms all: [String]) -> String {
  guard let small = counts.first, let large = counts.last,
    let any = results.cases.first
  else { return "" }
  let unit = any.library.instructionsPerOperation != nil ? "instructions" : "time"
  var lines = [
    "Per operation (\(unit)), Verge's side:",
    "",
    "| Path | Collection | " + counts.map { "\(grouped($0)) rows" }.joined(separator: " | ")
      + " | Growth \(grouped(small)) → \(grouped(large)) |",
    "| --- | --- | " + counts.map { _ in "---:" }.joined(separator: " | ") + " | ---: |",
  ]
  for path in AppScalePath.allCases {
    for form in forms(of: path, all) {
      let cells = counts.map { count -> String in
        guard let result = results[appScaleCaseName(path, form: form, count: count)] else { return "-" }
        return result.library.instructionsPerOperation.map { Formatting.count($0) }
          ?? Formatting.time(result.library.nanosecondsPerOperation)
      }
      guard cells.contains(where: { $0 != "-" }) else { continue }
      let growth: String
      if let first = results[appScaleCaseName(path, form: form, count: small)],
        let last = results[appScaleCaseName(path, form: form, count: large)]
      {
        growth = Formatting.ratio(last.library.perOperation / first.library.perOperation)
      } else {
        growth = "-"
      }
      lines.append("| \(path.shortName) | \(form) | " + cells.joined(separator: " | ") + " | \(growth) |")
    }
  }
  return lines.joined(separator: "\n") + "\n"
}

private func appScaleChart(_ results: ScenarioResults, counts: [Int], forms all: [String]) -> LineChart {
  let counted = results.cases.first?.library.instructionsPerOperation != nil
  var series: [LineChart.Series] = []
  for path in AppScalePath.allCases {
    for form in forms(of: path, all) {
      let points = counts.compactMap { count -> (x: Double, y: Double)? in
        results[appScaleCaseName(path, form: form, count: count)].map { (Double(count), $0.library.perOperation) }
      }
      series.append(
        LineChart.Series(
          name: "\(path.shortName), \(form)", points: points, colour: path.colour,
          dashed: form == [AppRow].formName))
    }
  }
  return LineChart(
    title: "App scale: Verge's cost per operation against the number of rows",
    xLabel: "rows (log scale)",
    yLabel: counted ? "instructions per operation (log scale)" : "nanoseconds per operation (log scale)",
    series: series)
}
