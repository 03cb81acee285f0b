import CAllocationCounter
import CCallgrind

/// Runs workloads in timed batches and reports medians per operation.
struct Measurement {
  let settings: Settings
  /// Whether allocation figures are real (see `allocationCounterWorks()`).
  let countsAllocations: Bool
  private let clock = ContinuousClock()

  init(settings: Settings, countsAllocations: Bool) {
    self.settings = settings
    self.countsAllocations = countsAllocations
  }

  /// Measures both sides of `benchmarkCase`, alternating library and
  /// baseline batches so that load from elsewhere hits both alike.
  func measure(_ benchmarkCase: BenchmarkCase) -> CaseResult {
    let library = benchmarkCase.library()
    let baseline = benchmarkCase.baseline()
    if let output = settings.callgrindOutput {
      return count(benchmarkCase, library: library, baseline: baseline, output: output)
    }
    // Calibration doubles as warm-up.
    let libraryIterations = calibrate(library)
    let baselineIterations = calibrate(baseline)
    var librarySamples: [Sample] = []
    var baselineSamples: [Sample] = []
    for repetition in 0..<settings.repetitions {
      if repetition.isMultiple(of: 2) {
        librarySamples.append(sample(library, iterations: libraryIterations))
        baselineSamples.append(sample(baseline, iterations: baselineIterations))
      } else {
        baselineSamples.append(sample(baseline, iterations: baselineIterations))
        librarySamples.append(sample(library, iterations: libraryIterations))
      }
    }
    withExtendedLifetime(library.keepAlive) {}
    withExtendedLifetime(baseline.keepAlive) {}
    return CaseResult(
      name: benchmarkCase.name, units: benchmarkCase.units,
      library: Sample.median(librarySamples, counted: countsAllocations),
      baseline: Sample.median(baselineSamples, counted: countsAllocations))
  }

  /// The number of operations that makes one batch last about
  /// `settings.batchDuration`.
  private func calibrate(_ workload: Workload) -> Int {
    var iterations = 1
    while true {
      let elapsed = clock.measure { workload.run(iterations) }
      if elapsed >= settings.batchDuration || iterations >= 1 << 28 {
        return iterations
      }
      if elapsed * 8 < settings.batchDuration {
        iterations *= 8
      } else {
        let scale = settings.batchDuration / elapsed
        return max(1, Int((Double(iterations) * scale).rounded(.up)))
      }
    }
  }

  /// Instruction-count mode: after calibration (which warms up), one batch
  /// per side runs with callgrind collecting, and nothing else does, so
  /// setup is not counted. Time is not measured (it would be valgrind's).
  private func count(
    _ benchmarkCase: BenchmarkCase, library: Workload, baseline: Workload, output: String
  ) -> CaseResult {
    let libraryIterations = settledCalibration(library)
    let baselineIterations = settledCalibration(baseline)
    let librarySide = counted(library, iterations: libraryIterations, output: output)
    let baselineSide = counted(baseline, iterations: baselineIterations, output: output)
    withExtendedLifetime(library.keepAlive) {}
    withExtendedLifetime(baseline.keepAlive) {}
    return CaseResult(
      name: benchmarkCase.name, units: benchmarkCase.units, library: librarySide, baseline: baselineSide)
  }

  /// Under valgrind the first run of each code path is slow (lazy binding,
  /// metadata, translation), and a path with many branches (a B-tree's
  /// removal and insertion at scattered rows) keeps meeting new ones for a
  /// while: one calibration then makes a batch of a handful of operations,
  /// which counts one-time costs and the rows it happened to visit.
  /// Calibrates again until the count stops growing. Then counts at least
  /// 200 operations where that takes at most 20 batches: the rows a path
  /// visits are scattered, and their costs differ (a leaf that merges, a
  /// node that moves), so a short batch depends on the rows it happened to
  /// visit. Quick mode, whose figures are not judged, calibrates twice
  /// and counts what that gives.
  private func settledCalibration(_ workload: Workload) -> Int {
    var iterations = calibrate(workload)
    if settings.isQuick { return calibrate(workload) }
    for _ in 0..<8 {
      let next = calibrate(workload)
      if next <= iterations + iterations / 2 {
        iterations = Swift.max(iterations, next)
        break
      }
      iterations = next
    }
    return Swift.max(iterations, Swift.min(200, iterations * 20))
  }

  private func counted(_ workload: Workload, iterations: Int, output: String) -> SideResult {
    let allocationsBefore = allocation_counter_count()
    let bytesBefore = allocation_counter_bytes()
    callgrind_begin()
    workload.run(iterations)
    callgrind_end("VergeBenchmarks")
    let allocations = allocation_counter_count() &- allocationsBefore
    let bytes = allocation_counter_bytes() &- bytesBefore
    let instructions = CallgrindDumps.shared.nextTotal(output: output)
    let count = Double(iterations)
    return SideResult(
      nanosecondsPerOperation: .nan,
      allocationsPerOperation: countsAllocations ? Double(allocations) / count : nil,
      bytesPerOperation: countsAllocations ? Double(bytes) / count : nil,
      instructionsPerOperation: instructions.map { Double($0) / count })
  }

  private func sample(_ workload: Workload, iterations: Int) -> Sample {
    let allocationsBefore = allocation_counter_count()
    let bytesBefore = allocation_counter_bytes()
    let elapsed = clock.measure { workload.run(iterations) }
    let allocations = allocation_counter_count() &- allocationsBefore
    let bytes = allocation_counter_bytes() &- bytesBefore
    let count = Double(iterations)
    return Sample(
      nanoseconds: elapsed.nanoseconds / count,
      allocations: Double(allocations) / count,
      bytes: Double(bytes) / count)
  }
}

/// One timed batch, per operation.
struct Sample {
  var nanoseconds: Double
  var allocations: Double
  var bytes: Double

  static func median(_ samples: [Sample], counted: Bool) -> SideResult {
    return SideResult(
      nanosecondsPerOperation: median(samples.map(\.nanoseconds)),
      allocationsPerOperation: counted ? median(samples.map(\.allocations)) : nil,
      bytesPerOperation: counted ? median(samples.map(\.bytes)) : nil)
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }
}

extension Duration {
  /// The duration in nanoseconds, as a floating-point number.
  var nanoseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}

