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
var missed = 0
var met = 0
var charts: [LineChart] = []

Report.header(settings: settings, machine: machine)
for scenario in Suite.scenarios(quick: settings.isQuick) {
  let cases = scenario.cases.filter { settings.includes(scenario, $0) }
  let probes = scenario.probes.filter { settings.includes(scenario, $0) }
  guard !cases.isEmpty || !probes.isEmpty else { continue }
  var results: [CaseResult] = []
  let paced = Measurement(settings: settings.paced(scenario.pace), countsAllocations: machine.countsAllocations)
  for benchmarkCase in cases {
    progress("running \(scenario.number). \(benchmarkCase.name)")
    results.append(paced.measure(benchmarkCase))
  }
  var probeResults: [ProbeResult] = []
  for probe in probes {
    progress("measuring \(scenario.number). \(probe.name)")
    probeResults.append(ProbeResult(probe))
  }
  let scenarioResults = ScenarioResults(cases: results, probes: probeResults)
  Report.table(scenario, scenarioResults)
  if let summary = scenario.summary, !results.isEmpty {
    print(summary(scenarioResults))
  }
  Report.probes(probeResults)
  let verdicts = scenario.targets(scenarioResults).filter { $0.outcome != .notMeasured }
  Report.targets(verdicts)
  if let chart = scenario.chart, !results.isEmpty {
    charts.append(chart(scenarioResults))
  }
  met += verdicts.filter { $0.outcome == .met }.count
  missed += verdicts.filter { $0.outcome == .missed }.count
}
print("Targets: \(met) met, \(missed) missed. Elapsed: \(Formatting.time((clock.now - started).nanoseconds)).")

if let path = settings.svgOutput {
  if charts.isEmpty {
    progress("--svg: no scenario with a chart ran; \(path) not written")
  } else if !writeFile(path, LineChart.svg(charts)) {
    progress("--svg: cannot write \(path)")
    exit(1)
  }
}

/// Writes `text` to the file at `path`, replacing it; whether it succeeded.
func writeFile(_ path: String, _ text: String) -> Bool {
  guard let file = fopen(path, "w") else { return false }
  var text = text
  let written = text.withUTF8 { bytes in fwrite(bytes.baseAddress, 1, bytes.count, file) == bytes.count }
  return fclose(file) == 0 && written
}

/// Writes a progress line to standard error, keeping standard output Markdown.
func progress(_ line: String) {
  var text = line + "\n"
  text.withUTF8 { bytes in
    _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count)
  }
}
