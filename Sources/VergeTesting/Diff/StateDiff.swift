import Verge

/// A field-by-field difference between two values, for test failures.
///
/// `StateDiff` walks both values with `Mirror` — through nested structs,
/// classes, tuples, enums with payloads, optionals, arrays and dictionaries —
/// and lists only the paths whose values differ, each with the expected and
/// the actual value:
///
/// ```swift
/// let text = StateDiff.render(expected: expected, actual: actual)
/// // profile.name
/// //   expected: "Blob"
/// //   actual:   "Blob Jr."
/// // items[2]
/// //   expected: (absent)
/// //   actual:   "c"
/// ```
///
/// A value that is `DiffRepresentable` is compared by the parts it names
/// instead: a VergeORM database by table, entity ID and field
/// (`database.book["b1"].name`), its indexes by their contents; an entry
/// on one side only shows as `(absent)` on the other.
///
/// Values are compared through their rendering, so two values that render
/// the same count as equal here; ``render(expected:actual:indent:)`` falls back to
/// showing both whole values when the walk finds no difference.
public enum StateDiff {
  /// One differing path.
  public struct Difference: Sendable, Equatable, CustomStringConvertible {
    /// Where the values differ: `profile.name`, `items[2]`,
    /// `scores["alice"]`, `mode.loaded`; `self` for the values themselves.
    public let path: String
    /// The expected value at `path`, rendered; `(absent)` when it has no
    /// such element or key.
    public let expected: String
    /// The actual value at `path`, rendered; `(absent)` when it has no such
    /// element or key.
    public let actual: String

    /// Creates a difference.
    ///
    /// - Parameters:
    ///   - path: Where the values differ.
    ///   - expected: The expected value there, rendered.
    ///   - actual: The actual value there, rendered.
    public init(path: String, expected: String, actual: String) {
      self.path = path
      self.expected = expected
      self.actual = actual
    }

    /// Three lines: the path, then the expected and the actual value.
    public var description: String {
      "\(path)\n  expected: \(expected)\n  actual:   \(actual)"
    }
  }

  /// At most this many differences are listed; the rest are counted.
  public static let maximumListed = 40

  /// The paths at which `expected` and `actual` differ, in field order.
  ///
  /// - Parameters:
  ///   - expected: The value the test expected.
  ///   - actual: The value it got.
  /// - Returns: The differing paths; empty when none was found.
  /// - Complexity: O(n) in the size of both values (every element of
  ///   every collection is visited).
  public static func differences<Value>(expected: Value, actual: Value) -> [Difference] {
    ValueDiff.differences(expected, actual).map {
      Difference(path: $0.path, expected: $0.old, actual: $0.new)
    }
  }

  /// The differences as indented text, one block per path.
  ///
  /// - Parameters:
  ///   - expected: The value the test expected.
  ///   - actual: The value it got.
  ///   - indent: Put before every line.
  /// - Returns: The text; when no path differs, both whole values.
  /// - Complexity: O(n) in the size of both values.
  public static func render<Value>(expected: Value, actual: Value, indent: String = "  ") -> String {
    var differences = differences(expected: expected, actual: actual)
    if differences.isEmpty {
      differences = [
        Difference(
          path: "self", expected: ValueRenderer.render(expected), actual: ValueRenderer.render(actual))
      ]
    }
    var lines: [String] = []
    for difference in differences.prefix(maximumListed) {
      lines.append(indent + difference.path)
      lines.append(indent + "  expected: " + difference.expected)
      lines.append(indent + "  actual:   " + difference.actual)
    }
    if differences.count > maximumListed {
      lines.append(indent + "… and \(differences.count - maximumListed) more differences")
    }
    return lines.joined(separator: "\n")
  }
}
