import CCallgrind

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The Verge benchmark suite: every case runs on the library and on a
// hand-written baseline store in the same run; see README.md.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
  print(Settings.usage)
  exit(0)
}
guard let settings = Settings.parse(arguments) else {
  progress(Settings.usage)
  exit(2)
}

if settings.countsInstructions && callgrind_is_running() == 0 {
  progress("--callgrind: not running under valgrind (or built without valgrind/callgrind.h); run:")
  progress("  valgrind --tool=callgrind --collect-atstart=no --instr-atstart=no --callgrind-out-file=FILE VergeBenchmarks --callgrind FILE")
  exit(2)
}

let clock = ContinuousClock()
let started = clock.now
let machine = Machine.current
let measurement = Measurement(settings: settings, countsAllocations: machine.countsAllocations)
var missed = 0
var met = 0

Report.header(settings: settings, machine: machine)
for scenario in Suite.scenarios(quick: settings.isQuick) {
  let cases = scenario.cases.filter { settings.includes(scenario, $0) }
  let probes = scenario.probes.filter { settings.includes(scenario, $0) }
  guard !cases.isEmpty || !probes.isEmpty else { continue }
  var results: [CaseResult] = []
  for benchmarkCase in cases {
    progress("running \(scenario.number). \(benchmarkCase.name)")
    results.append(measurement.measure(benchmarkCase))
  }
  var probeResults: [ProbeResult] = []
  for probe in probes {
    progress("measuring \(scenario.number). \(probe.name)")
    probeResults.append(ProbeResult(probe))
  }
  let scenarioResults = ScenarioResults(cases: results, probes: probeResults)
  Report.table(scenario, scenarioResults)
  Report.probes(probeResults)
  let verdicts = scenario.targets(scenarioResults).filter { $0.outcome != .notMeasured }
  Report.targets(verdicts)
  met += verdicts.filter { $0.outcome == .met }.count
  missed += verdicts.filter { $0.outcome == .missed }.count
}
print("Targets: \(met) met, \(missed) missed. Elapsed: \(Formatting.time((clock.now - started).nanoseconds)).")

/// Writes a progress line to standard error, keeping standard output Markdown.
func progress(_ line: String) {
  var text = line + "\n"
  text.withUTF8 { bytes in
    _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count)
  }
}
