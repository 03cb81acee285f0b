/// Every scenario of the suite, in the order they run.
///
/// To add a scenario (VergeNeue, VergeORM, TestStore), write one file in
/// `Scenarios/` that extends `Scenario` with a static property, and list it
/// here.
enum Suite {
  /// The scenarios; `quick` shrinks the big setups (1,000,000 entities
  /// become 10,000; the app-scale rows and the peers' run at 100 and 10,000
  /// only) so that
  /// quick mode stays within seconds.
  static func scenarios(quick: Bool) -> [Scenario] {
    [
      .commit,
      .largeState,
      .derivedValues,
      .neue,
      .orm(quick: quick),
      .testing,
      .persistence(quick: quick),
      .idiomatic,
      .scopesAsViews,
      .identifiedArray,
      .forEachRows,
      .appScale(quick: quick),
      .compositionLevels,
      .peers(quick: quick),
      .dependencies,
    ]
  }
}

/// `1000000` as `1,000,000`, for case names.
func grouped(_ value: Int) -> String {
  let digits = Array(String(value))
  var text = ""
  for (index, digit) in digits.enumerated() {
    if index > 0, (digits.count - index).isMultiple(of: 3) { text += "," }
    text.append(digit)
  }
  return text
}
