/// A one-off figure measured once per side instead of timed in batches:
/// memory held by a data structure, for example.
struct Probe {
  /// A short name, unique within its scenario.
  let name: String
  /// What the figure counts, for the report ("bytes per entity").
  let unit: String
  /// Measures the library's side; `nil` when it cannot be measured here.
  let library: () -> Double?
  /// Measures the baseline's side; `nil` when it cannot be measured here.
  let baseline: () -> Double?
}

/// Both sides of one probe.
struct ProbeResult {
  let name: String
  let unit: String
  let library: Double?
  let baseline: Double?

  /// Library over baseline, when both were measured.
  var ratio: Double? {
    guard let library, let baseline, baseline > 0 else { return nil }
    return library / baseline
  }

  init(name: String, unit: String, library: Double?, baseline: Double?) {
    self.name = name
    self.unit = unit
    self.library = library
    self.baseline = baseline
  }

  /// Runs `probe`, the library's side first.
  init(_ probe: Probe) {
    self.init(name: probe.name, unit: probe.unit, library: probe.library(), baseline: probe.baseline())
  }
}
