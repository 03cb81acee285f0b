import Foundation

/// Eight `Int`s: 64 bytes, inline.
public struct Row: Equatable, Codable, Sendable {
  public var a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0

  /// A row of zeros.
  public init() {}
}

/// Sixteen rows: 1 KiB, inline.
public struct Kilobyte: Equatable, Sendable {
  public var rows: (Row, Row, Row, Row, Row, Row, Row, Row, Row, Row, Row, Row, Row, Row, Row, Row) = (Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row())

  /// A kilobyte of zeros.
  public init() {}

  /// Compares row by row, as a synthesized `==` would.
  public static func == (lhs: Kilobyte, rhs: Kilobyte) -> Bool {
    lhs.rows.0 == rhs.rows.0 && lhs.rows.1 == rhs.rows.1 && lhs.rows.2 == rhs.rows.2 && lhs.rows.3 == rhs.rows.3 && lhs.rows.4 == rhs.rows.4 && lhs.rows.5 == rhs.rows.5 && lhs.rows.6 == rhs.rows.6 && lhs.rows.7 == rhs.rows.7 && lhs.rows.8 == rhs.rows.8 && lhs.rows.9 == rhs.rows.9 && lhs.rows.10 == rhs.rows.10 && lhs.rows.11 == rhs.rows.11 && lhs.rows.12 == rhs.rows.12 && lhs.rows.13 == rhs.rows.13 && lhs.rows.14 == rhs.rows.14 && lhs.rows.15 == rhs.rows.15
  }
}

/// A state of exactly 64 KiB stored inline (1,024 rows of eight `Int`s),
/// for tests that run on threads with small stacks (512 KiB):
/// every copy of it on a stack costs 64 KiB.
public struct LargeState: Equatable, Codable, Sendable {
  /// A counter.
  public var count = 0
  /// A second counter, changed independently of `count`.
  public var other = 0
  public var headPadding = (0, 0, 0, 0, 0, 0)
  public var blocks: (Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte, Kilobyte) = (Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte(), Kilobyte())
  public var tail: (Row, Row, Row, Row, Row, Row, Row, Row, Row, Row, Row, Row, Row, Row) = (Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row())
  public var tailPadding = (0, 0, 0, 0, 0, 0, 0)
  /// The last `Int` of the state, to check that whole copies arrive.
  public var last = 0

  /// A state of zeros.
  public init() {}

  /// Compares field by field, as a synthesized `==` would.
  public static func == (lhs: LargeState, rhs: LargeState) -> Bool {
    lhs.count == rhs.count
      && lhs.other == rhs.other
      && lhs.headPadding == rhs.headPadding
      && lhs.blocks.0 == rhs.blocks.0
      && lhs.blocks.1 == rhs.blocks.1
      && lhs.blocks.2 == rhs.blocks.2
      && lhs.blocks.3 == rhs.blocks.3
      && lhs.blocks.4 == rhs.blocks.4
      && lhs.blocks.5 == rhs.blocks.5
      && lhs.blocks.6 == rhs.blocks.6
      && lhs.blocks.7 == rhs.blocks.7
      && lhs.blocks.8 == rhs.blocks.8
      && lhs.blocks.9 == rhs.blocks.9
      && lhs.blocks.10 == rhs.blocks.10
      && lhs.blocks.11 == rhs.blocks.11
      && lhs.blocks.12 == rhs.blocks.12
      && lhs.blocks.13 == rhs.blocks.13
      && lhs.blocks.14 == rhs.blocks.14
      && lhs.blocks.15 == rhs.blocks.15
      && lhs.blocks.16 == rhs.blocks.16
      && lhs.blocks.17 == rhs.blocks.17
      && lhs.blocks.18 == rhs.blocks.18
      && lhs.blocks.19 == rhs.blocks.19
      && lhs.blocks.20 == rhs.blocks.20
      && lhs.blocks.21 == rhs.blocks.21
      && lhs.blocks.22 == rhs.blocks.22
      && lhs.blocks.23 == rhs.blocks.23
      && lhs.blocks.24 == rhs.blocks.24
      && lhs.blocks.25 == rhs.blocks.25
      && lhs.blocks.26 == rhs.blocks.26
      && lhs.blocks.27 == rhs.blocks.27
      && lhs.blocks.28 == rhs.blocks.28
      && lhs.blocks.29 == rhs.blocks.29
      && lhs.blocks.30 == rhs.blocks.30
      && lhs.blocks.31 == rhs.blocks.31
      && lhs.blocks.32 == rhs.blocks.32
      && lhs.blocks.33 == rhs.blocks.33
      && lhs.blocks.34 == rhs.blocks.34
      && lhs.blocks.35 == rhs.blocks.35
      && lhs.blocks.36 == rhs.blocks.36
      && lhs.blocks.37 == rhs.blocks.37
      && lhs.blocks.38 == rhs.blocks.38
      && lhs.blocks.39 == rhs.blocks.39
      && lhs.blocks.40 == rhs.blocks.40
      && lhs.blocks.41 == rhs.blocks.41
      && lhs.blocks.42 == rhs.blocks.42
      && lhs.blocks.43 == rhs.blocks.43
      && lhs.blocks.44 == rhs.blocks.44
      && lhs.blocks.45 == rhs.blocks.45
      && lhs.blocks.46 == rhs.blocks.46
      && lhs.blocks.47 == rhs.blocks.47
      && lhs.blocks.48 == rhs.blocks.48
      && lhs.blocks.49 == rhs.blocks.49
      && lhs.blocks.50 == rhs.blocks.50
      && lhs.blocks.51 == rhs.blocks.51
      && lhs.blocks.52 == rhs.blocks.52
      && lhs.blocks.53 == rhs.blocks.53
      && lhs.blocks.54 == rhs.blocks.54
      && lhs.blocks.55 == rhs.blocks.55
      && lhs.blocks.56 == rhs.blocks.56
      && lhs.blocks.57 == rhs.blocks.57
      && lhs.blocks.58 == rhs.blocks.58
      && lhs.blocks.59 == rhs.blocks.59
      && lhs.blocks.60 == rhs.blocks.60
      && lhs.blocks.61 == rhs.blocks.61
      && lhs.blocks.62 == rhs.blocks.62
      && lhs.tail.0 == rhs.tail.0
      && lhs.tail.1 == rhs.tail.1
      && lhs.tail.2 == rhs.tail.2
      && lhs.tail.3 == rhs.tail.3
      && lhs.tail.4 == rhs.tail.4
      && lhs.tail.5 == rhs.tail.5
      && lhs.tail.6 == rhs.tail.6
      && lhs.tail.7 == rhs.tail.7
      && lhs.tail.8 == rhs.tail.8
      && lhs.tail.9 == rhs.tail.9
      && lhs.tail.10 == rhs.tail.10
      && lhs.tail.11 == rhs.tail.11
      && lhs.tail.12 == rhs.tail.12
      && lhs.tail.13 == rhs.tail.13
      && lhs.tailPadding.0 == rhs.tailPadding.0 && lhs.tailPadding.1 == rhs.tailPadding.1 && lhs.tailPadding.2 == rhs.tailPadding.2 && lhs.tailPadding.3 == rhs.tailPadding.3 && lhs.tailPadding.4 == rhs.tailPadding.4 && lhs.tailPadding.5 == rhs.tailPadding.5 && lhs.tailPadding.6 == rhs.tailPadding.6
      && lhs.last == rhs.last
  }

  private static let intCount = MemoryLayout<LargeState>.size / MemoryLayout<Int>.stride

  public func encode(to encoder: any Encoder) throws {
    let ints = withUnsafeBytes(of: self) { Array($0.bindMemory(to: Int.self)) }
    var container = encoder.singleValueContainer()
    try container.encode(ints)
  }

  public init(from decoder: any Decoder) throws {
    let ints = try decoder.singleValueContainer().decode([Int].self)
    guard ints.count == Self.intCount else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "expected \(Self.intCount) integers"))
    }
    self.init()
    withUnsafeMutableBytes(of: &self) { bytes in
      ints.withUnsafeBytes { bytes.copyMemory(from: $0) }
    }
  }
}
