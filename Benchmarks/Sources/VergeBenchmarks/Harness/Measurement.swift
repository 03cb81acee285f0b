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

  /// Measures every side of `benchmarkCase` (the library, the baseline and
  /// any further sides), alternating the order of their batches so that
  /// load from elsewhere hits them alike.
  func measure(_ benchmarkCase: BenchmarkCase) -> CaseResult {
    let library = benchmarkCase.library()
    let baseline = benchmarkCase.baseline()
    let others = benchmarkCase.others.map { $0() }
    // The sides that run: library, baseline, then the further sides that
    // have the operation.
    let workloads = [library, baseline] + others.compactMap { $0 }
    let sides: [SideResult]
    if let output = settings.callgrindOutput {
      sides = count(workloads, output: output)
    } else {
      sides = time(workloads)
    }
    for workload in workloads { withExtendedLifetime(workload.keepAlive) {} }
    var measuredOthers = sides.dropFirst(2).makeIterator()
    return CaseResult(
      name: benchmarkCase.name, units: benchmarkCase.units, library: sides[0], baseline: sides[1],
      others: others.map { $0 == nil ? nil : measuredOthers.next() })
  }

  /// Timed mode: calibration (which doubles as warm-up), then batches of
  /// every side in turn, forwards on even repetitions and backwards on odd
  /// ones; medians per side, in the order of `workloads`.
  private func time(_ workloads: [Workload]) -> [SideResult] {
    let iterations = workloads.map(calibrate)
    var samples = Array(repeating: [Sample](), count: workloads.count)
    for repetition in 0..<settings.repetitions {
      let order = repetition.isMultiple(of: 2)
        ? Array(workloads.indices) : Array(workloads.indices.reversed())
      for side in order {
        samples[side].append(sample(workloads[side], iterations: iterations[side]))
      }
    }
    return samples.map { Sample.median($0, counted: countsAllocations) }
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
  private func count(_ workloads: [Workload], output: String) -> [SideResult] {
    let iterations = workloads.map(settledCalibration)
    return zip(workloads, iterations).map { counted($0, iterations: $1, output: output) }
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

