#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A line chart with logarithmic axes, written as SVG text (no dependency).
///
/// Each series is one `<polyline>` of its points (x and y both on a log
/// scale, so that sizes from 100 to 100,000 sit evenly and a path that grows
/// with the size climbs while a flat one stays level), with its name in the
/// legend. Points whose x or y is not a positive finite number are left out;
/// a series with no point left is left out entirely.
struct LineChart {
  /// One line: its name in the legend, its points, and how it is drawn.
  struct Series {
    let name: String
    let points: [(x: Double, y: Double)]
    /// An SVG colour (`#1f77b4`).
    let colour: String
    /// Drawn dashed rather than solid.
    var dashed = false
  }

  let title: String
  let xLabel: String
  let yLabel: String
  let series: [Series]

  // Layout, in SVG user units.
  static let width = 1_000.0
  static let height = 620.0
  private static let plotLeft = 90.0
  private static let plotTop = 50.0
  private static let plotWidth = 560.0
  private static let plotHeight = 480.0
  private static let legendLeft = 680.0

  /// The series that have something to draw, with only their drawable points.
  var drawnSeries: [Series] {
    series.compactMap { series in
      let points = series.points.filter { $0.x > 0 && $0.y > 0 && $0.x.isFinite && $0.y.isFinite }
      guard !points.isEmpty else { return nil }
      return Series(name: series.name, points: points, colour: series.colour, dashed: series.dashed)
    }
  }

  /// The chart as a standalone SVG document.
  func svg() -> String {
    var body = ""
    let height = group(into: &body)
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(Self.width))" \
      height="\(Self.number(height))" viewBox="0 0 \(Self.number(Self.width)) \(Self.number(height))" \
      font-family="sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>
      \(body)</svg>

      """
  }

  /// Several charts, one under the other, as one SVG document.
  static func svg(_ charts: [LineChart]) -> String {
    guard charts.count != 1 else { return charts[0].svg() }
    var body = ""
    var top = 0.0
    for chart in charts {
      body += "<g transform=\"translate(0,\(number(top)))\">\n"
      top += chart.group(into: &body)
      body += "</g>\n"
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(number(width))" height="\(number(top))" \
      viewBox="0 0 \(number(width)) \(number(top))" font-family="sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>
      \(body)</svg>

      """
  }

  /// Appends the chart's elements; returns the height they take.
  private func group(into body: inout String) -> Double {
    let drawn = drawnSeries
    let xs = drawn.flatMap { $0.points.map(\.x) }
    let ys = drawn.flatMap { $0.points.map(\.y) }
    // Whole decades around the data, at least one decade wide.
    let xRange = Self.decades(xs)
    let yRange = Self.decades(ys)
    func px(_ x: Double) -> Double {
      Self.plotLeft + (log10(x) - xRange.lower) / (xRange.upper - xRange.lower) * Self.plotWidth
    }
    func py(_ y: Double) -> Double {
      Self.plotTop + Self.plotHeight - (log10(y) - yRange.lower) / (yRange.upper - yRange.lower) * Self.plotHeight
    }
    let n = Self.number
    body += "<text x=\"\(n(Self.width / 2))\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">\(Self.escaped(title))</text>\n"
    // Grid and ticks: one line per decade on each axis.
    for decade in Int(yRange.lower)...Int(yRange.upper) {
      let y = py(Self.power(decade))
      body += "<line x1=\"\(n(Self.plotLeft))\" y1=\"\(n(y))\" x2=\"\(n(Self.plotLeft + Self.plotWidth))\" y2=\"\(n(y))\" stroke=\"#dddddd\"/>\n"
      body += "<text x=\"\(n(Self.plotLeft - 6))\" y=\"\(n(y + 4))\" text-anchor=\"end\">\(Self.escaped(Self.decadeLabel(decade)))</text>\n"
    }
    for decade in Int(xRange.lower)...Int(xRange.upper) {
      let x = px(Self.power(decade))
      body += "<line x1=\"\(n(x))\" y1=\"\(n(Self.plotTop))\" x2=\"\(n(x))\" y2=\"\(n(Self.plotTop + Self.plotHeight))\" stroke=\"#dddddd\"/>\n"
      body += "<text x=\"\(n(x))\" y=\"\(n(Self.plotTop + Self.plotHeight + 18))\" text-anchor=\"middle\">\(Self.escaped(Self.decadeLabel(decade)))</text>\n"
    }
    body += "<rect x=\"\(n(Self.plotLeft))\" y=\"\(n(Self.plotTop))\" width=\"\(n(Self.plotWidth))\" height=\"\(n(Self.plotHeight))\" fill=\"none\" stroke=\"#333333\"/>\n"
    body += "<text x=\"\(n(Self.plotLeft + Self.plotWidth / 2))\" y=\"\(n(Self.plotTop + Self.plotHeight + 42))\" text-anchor=\"middle\">\(Self.escaped(xLabel))</text>\n"
    let yLabelX = Self.plotLeft - 62
    let yLabelY = Self.plotTop + Self.plotHeight / 2
    body += "<text x=\"\(n(yLabelX))\" y=\"\(n(yLabelY))\" text-anchor=\"middle\" transform=\"rotate(-90 \(n(yLabelX)) \(n(yLabelY)))\">\(Self.escaped(yLabel))</text>\n"
    // The lines, then the legend.
    for series in drawn {
      let points = series.points.map { "\(n(px($0.x))),\(n(py($0.y)))" }.joined(separator: " ")
      let dash = series.dashed ? " stroke-dasharray=\"6 4\"" : ""
      body += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(Self.escaped(series.colour))\" stroke-width=\"2\"\(dash)><title>\(Self.escaped(series.name))</title></polyline>\n"
      for point in series.points {
        body += "<circle cx=\"\(n(px(point.x)))\" cy=\"\(n(py(point.y)))\" r=\"2.5\" fill=\"\(Self.escaped(series.colour))\"/>\n"
      }
    }
    var legendY = Self.plotTop + 6
    for series in drawn {
      let dash = series.dashed ? " stroke-dasharray=\"6 4\"" : ""
      body += "<line x1=\"\(n(Self.legendLeft))\" y1=\"\(n(legendY))\" x2=\"\(n(Self.legendLeft + 28))\" y2=\"\(n(legendY))\" stroke=\"\(Self.escaped(series.colour))\" stroke-width=\"2\"\(dash)/>\n"
      body += "<text x=\"\(n(Self.legendLeft + 34))\" y=\"\(n(legendY + 4))\">\(Self.escaped(series.name))</text>\n"
      legendY += 18
    }
    return max(Self.height, legendY + 10)
  }

  /// The whole decades (as exponents of 10) that enclose `values`.
  static func decades(_ values: [Double]) -> (lower: Double, upper: Double) {
    guard let low = values.min(), let high = values.max() else { return (0, 1) }
    let lower = (log10(low) + 1e-9).rounded(.down)
    let upper = max((log10(high) - 1e-9).rounded(.up), lower + 1)
    return (lower, upper)
  }

  /// `10^decade` as a label: `100`, `10k`, `1M`, `0.1`.
  static func decadeLabel(_ decade: Int) -> String {
    switch decade {
    case ..<0: return Formatting.fixed(power(decade), digits: -decade)
    case 0..<3: return grouped(Int(power(decade)))
    case 3..<6: return "\(Int(power(decade - 3)))k"
    case 6..<9: return "\(Int(power(decade - 6)))M"
    default: return "\(Int(power(decade - 9)))G"
    }
  }

  /// Text with the characters that XML reserves replaced by entities.
  static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      default: result.append(character)
      }
    }
    return result
  }

  /// A coordinate with one decimal.
  static func number(_ value: Double) -> String {
    Formatting.fixed(value, digits: 1)
  }

  private static func power(_ exponent: Int) -> Double {
    var value = 1.0
    for _ in 0..<abs(exponent) { value *= 10 }
    return exponent < 0 ? 1 / value : value
  }
}
