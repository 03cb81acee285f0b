@testable import VergeCollections
import VergeTestSupport
import XCTest

final class ListNodeSearchTests: XCTestCase {
  /// The position a linear scan finds.
  private func reference(_ label: UInt64, in labels: [UInt64]) -> Int {
    labels.firstIndex { $0 >= label } ?? labels.count
  }

  private func check(_ labels: [UInt64], probes: [UInt64], file: StaticString = #filePath, line: UInt = #line) {
    for probe in probes {
      let found = labels.withUnsafeBufferPointer { ListNode<Int>.firstIndex(notBelow: probe, in: $0) }
      XCTAssertEqual(found, reference(probe, in: labels), "label \(probe) in \(labels.count) labels", file: file, line: line)
    }
  }

  /// Every label, its neighbours, and the ends of the label space.
  private func probes(around labels: [UInt64]) -> [UInt64] {
    labels.flatMap { [$0 &- 1, $0, $0 &+ 1] } + [0, 1, .max - 1, .max]
  }

  func testEvenlySpacedLabelsOfEveryWidth() {
    for width in 0...64 {
      let labels = (0..<width).map { (1 << 63) &+ UInt64($0) << 32 }
      check(labels, probes: probes(around: labels))
    }
  }

  func testUnevenClusteredAndExtremeLabels() {
    var rng = SplitMix64(seed: 23)
    for _ in 0..<300 {
      let width = Int.random(in: 1...64, using: &rng)
      var labels = Set<UInt64>()
      switch Int.random(in: 0..<4, using: &rng) {
      case 0:
        // Anywhere in the label space.
        while labels.count < width { labels.insert(UInt64.random(in: 0...UInt64.max, using: &rng)) }
      case 1:
        // A dense cluster among a few far ones, as halving insertions make.
        let base = UInt64.random(in: 1_000...(1 << 62), using: &rng)
        while labels.count < width - 2 { labels.insert(base &+ UInt64.random(in: 0..<200, using: &rng)) }
        labels.insert(0)
        labels.insert(.max)
      case 2:
        // Adjacent labels.
        let base = UInt64.random(in: 0...(UInt64.max - 64), using: &rng)
        for offset in 0..<UInt64(width) { labels.insert(base + offset) }
      default:
        // Evenly spaced, with one gap halved again and again.
        for index in 0..<UInt64(width) { labels.insert(index << 40) }
        var low: UInt64 = 0
        let high: UInt64 = 1 << 40
        while labels.count < width + 20 {
          low = low + (high - low) / 2
          labels.insert(low)
        }
      }
      let sorted = labels.sorted()
      check(sorted, probes: probes(around: sorted))
    }
  }

  /// The child a scan of the counts from the first finds, and the offset in
  /// it; a position past the end lands at the end of the last child.
  private func referenceChild(_ index: Int, counts: [Int]) -> (Int, Int) {
    var child = 0
    var offset = index
    while child < counts.count - 1 && offset >= counts[child] {
      offset -= counts[child]
      child += 1
    }
    return (child, offset)
  }

  func testTheGuessedChildOfAPositionMatchesAScanForUnevenChildren() {
    var rng = SplitMix64(seed: 11)
    let layouts: [[Int]] = [
      [1], [64], [1, 64], [64, 1], [16, 16, 16, 64], [64, 16, 16, 16],
      Array(repeating: 64, count: 63) + [1], [1] + Array(repeating: 64, count: 63),
    ] + (0..<40).map { _ in (0..<Int.random(in: 1...64, using: &rng)).map { _ in Int.random(in: 1...64, using: &rng) } }
    for counts in layouts {
      var next = 0
      let leaves = ContiguousArray(counts.map { count -> ListNode<Int> in
        defer { next += count }
        return ListNode.leaf(labels: (next..<next + count).map { UInt64($0) }, elements: next..<next + count)
      })
      let branch = ListNode.branch(children: leaves)
      XCTAssertEqual(branch.count, counts.reduce(0, +))
      for index in 0...branch.count {
        let found = branch.child(containing: index)
        let expected = referenceChild(index, counts: counts)
        XCTAssertTrue(found == expected, "position \(index) of children \(counts): \(found) instead of \(expected)")
      }
    }
  }
}
