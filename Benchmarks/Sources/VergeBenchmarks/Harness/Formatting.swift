/// Number formatting for the report, without Foundation.
enum Formatting {
  /// A time per operation with a unit that keeps 3 significant digits.
  static func time(_ nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<1_000: return "\(fixed(nanoseconds, digits: nanoseconds < 100 ? 1 : 0)) ns"
    case ..<1_000_000: return "\(fixed(nanoseconds / 1_000, digits: 2)) µs"
    case ..<1_000_000_000: return "\(fixed(nanoseconds / 1_000_000, digits: 2)) ms"
    default: return "\(fixed(nanoseconds / 1_000_000_000, digits: 2)) s"
    }
  }

  /// Two decimals below 10 (four below 0.01, so that a side thousands of
  /// times cheaper does not read 0.00×), one below 100, none above.
  static func ratio(_ value: Double) -> String {
    "\(fixed(value, digits: value < 0.01 ? 4 : value < 10 ? 2 : value < 100 ? 1 : 0))×"
  }

  static func count(_ value: Double?) -> String {
    guard let value else { return "n/a" }
    return fixed(value, digits: value == value.rounded() || value >= 100 ? 0 : 2)
  }

  static func bytes(_ value: Double?) -> String {
    guard let value else { return "n/a" }
    switch value {
    case ..<1_024: return "\(fixed(value, digits: 0)) B"
    case ..<(1_024 * 1_024): return "\(fixed(value / 1_024, digits: 1)) KiB"
    default: return "\(fixed(value / (1_024 * 1_024), digits: 2)) MiB"
    }
  }

  /// `value` rounded to `digits` decimals.
  static func fixed(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled - Double(whole) * scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard digits > 0 else { return "\(sign)\(whole)" }
    let fractionText = String(fraction)
    return "\(sign)\(whole).\(String(repeating: "0", count: digits - fractionText.count))\(fractionText)"
  }
}
