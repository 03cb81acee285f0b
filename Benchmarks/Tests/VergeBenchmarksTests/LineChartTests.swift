import XCTest

#if canImport(FoundationXML)
import FoundationXML
#else
import Foundation
#endif

@testable import VergeBenchmarks

final class LineChartTests: XCTestCase {
  private func chart(_ series: [LineChart.Series]) -> LineChart {
    LineChart(title: "Cost <per> op & more", xLabel: "rows", yLabel: "instructions", series: series)
  }

  private let twoSeries = [
    LineChart.Series(
      name: "(a) row action, [Row]", points: [(100, 5_000), (1_000, 50_000), (100_000, 5_000_000)],
      colour: "#1f77b4", dashed: true),
    LineChart.Series(
      name: "(a) row action, IdentifiedArray<Int, Row>", points: [(100, 300), (1_000, 320), (100_000, 360)],
      colour: "#1f77b4"),
  ]

  func testTheSVGIsWellFormedWithOnePolylinePerSeries() throws {
    let elements = try parse(chart(twoSeries).svg())
    XCTAssertEqual(elements.names.first, "svg")
    XCTAssertEqual(elements.polylines.count, 2)
    // Every point of every series is drawn.
    XCTAssertEqual(elements.polylines.map { $0.split(separator: " ").count }, [3, 3])
    // Names with XML's reserved characters come back as written.
    XCTAssertTrue(elements.texts.contains("(a) row action, IdentifiedArray<Int, Row>"))
    XCTAssertTrue(elements.texts.contains("Cost <per> op & more"))
  }

  func testAxesAreLogarithmicAndUpIsMore() throws {
    let elements = try parse(chart(twoSeries).svg())
    let growing = points(elements.polylines[0])
    // x: 100, 1,000 and 100,000 are evenly spaced per decade.
    XCTAssertEqual(growing[1].x - growing[0].x, (growing[2].x - growing[1].x) / 2, accuracy: 0.2)
    // y: SVG's y grows downwards, so a growing series climbs.
    XCTAssertGreaterThan(growing[0].y, growing[1].y)
    XCTAssertGreaterThan(growing[1].y, growing[2].y)
    let flat = points(elements.polylines[1])
    XCTAssertGreaterThan(flat[2].y, growing[2].y)
  }

  func testSeriesWithoutDrawablePointsAreLeftOut() throws {
    let series = twoSeries + [
      LineChart.Series(name: "not measured", points: [(100, .nan), (1_000, 0)], colour: "#000000")
    ]
    let elements = try parse(chart(series).svg())
    XCTAssertEqual(elements.polylines.count, 2)
    XCTAssertFalse(elements.texts.contains("not measured"))
  }

  func testSeveralChartsStackInOneDocument() throws {
    let elements = try parse(LineChart.svg([chart(twoSeries), chart(Array(twoSeries.prefix(1)))]))
    XCTAssertEqual(elements.names.filter { $0 == "svg" }.count, 1)
    XCTAssertEqual(elements.polylines.count, 3)
  }

  func testDecadesAndLabels() {
    XCTAssertTrue(LineChart.decades([100, 100_000]) == (2, 5))
    XCTAssertTrue(LineChart.decades([150, 250]) == (2, 3))
    XCTAssertTrue(LineChart.decades([1_000]) == (3, 4))
    XCTAssertEqual(LineChart.decadeLabel(2), "100")
    XCTAssertEqual(LineChart.decadeLabel(4), "10k")
    XCTAssertEqual(LineChart.decadeLabel(6), "1M")
    XCTAssertEqual(LineChart.escaped("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;")
  }

  // MARK: - Reading the SVG back

  private struct NotWellFormed: Error {
    let reason: String
  }

  private struct Elements {
    var names: [String] = []
    var polylines: [String] = []
    var texts: [String] = []
  }

  private func points(_ attribute: String) -> [(x: Double, y: Double)] {
    attribute.split(separator: " ").map { pair in
      let xy = pair.split(separator: ",").map { Double($0) ?? .nan }
      return (xy[0], xy[1])
    }
  }

  private func parse(_ svg: String) throws -> Elements {
    let collector = Collector()
    let parser = XMLParser(data: Data(svg.utf8))
    parser.delegate = collector
    guard parser.parse() else {
      throw NotWellFormed(reason: parser.parserError.map { "\($0)" } ?? "unknown error")
    }
    return collector.elements
  }

  private final class Collector: NSObject, XMLParserDelegate {
    var elements = Elements()
    private var text: String?

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      elements.names.append(name)
      if name == "polyline" { elements.polylines.append(attributes["points"] ?? "") }
      if name == "text" || name == "title" { text = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      text? += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      if let text, name == "text" || name == "title" { elements.texts.append(text) }
      text = nil
    }
  }
}
