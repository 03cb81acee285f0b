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
    var result: [Difference] = []
    collect(.present(expected), .present(actual), path: "", depth: 0, into: &result)
    return result
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

  // MARK: - Walking

  private enum Slot {
    case present(Any)
    case absent
  }

  private static let maximumDepth = 32

  private static func collect(_ expected: Slot, _ actual: Slot, path: String, depth: Int, into result: inout [Difference]) {
    guard case .present(let e) = expected, case .present(let a) = actual else {
      leaf(expected, actual, path: path, into: &result)
      return
    }
    // Before any mirror, which may list every element of a large
    // collection: a value that can name only its differing parts does.
    if depth < maximumDepth, type(of: e) == type(of: a), let e = e as? any DiffPairRepresentable,
      let (eParts, aParts) = e.diffRepresentations(against: a)
    {
      collect(eParts, aParts, path: path, depth: depth, into: &result)
      return
    }
    let eMirror = Mirror(reflecting: e)
    let aMirror = Mirror(reflecting: a)
    guard depth < maximumDepth, type(of: e) == type(of: a), eMirror.displayStyle == aMirror.displayStyle else {
      leaf(expected, actual, path: path, into: &result)
      return
    }
    if let e = e as? any DiffRepresentable, let a = a as? any DiffRepresentable {
      collect(e.diffRepresentation, a.diffRepresentation, path: path, depth: depth, into: &result)
      return
    }
    switch eMirror.displayStyle {
    case .optional:
      let eValue = eMirror.children.first?.value
      let aValue = aMirror.children.first?.value
      if let eValue, let aValue {
        collect(.present(eValue), .present(aValue), path: path, depth: depth + 1, into: &result)
      } else {
        leaf(expected, actual, path: path, into: &result)
      }
    case .struct, .class, .tuple:
      let eChildren = Array(eMirror.children)
      let aChildren = Array(aMirror.children)
      guard !eChildren.isEmpty, eChildren.map(\.label) == aChildren.map(\.label) else {
        leaf(expected, actual, path: path, into: &result)
        return
      }
      for (index, (eChild, aChild)) in zip(eChildren, aChildren).enumerated() {
        let name = eChild.label ?? ".\(index)"
        collect(.present(eChild.value), .present(aChild.value), path: join(path, field: name), depth: depth + 1, into: &result)
      }
    case .enum:
      let eCase = ValueRenderer.caseName(of: eMirror)
      guard let eCase, eCase == ValueRenderer.caseName(of: aMirror),
        let ePayload = eMirror.children.first?.value, let aPayload = aMirror.children.first?.value
      else {
        leaf(expected, actual, path: path, into: &result)
        return
      }
      collect(.present(ePayload), .present(aPayload), path: join(path, field: eCase), depth: depth + 1, into: &result)
    case .collection:
      let eChildren = Array(eMirror.children)
      let aChildren = Array(aMirror.children)
      for index in 0..<max(eChildren.count, aChildren.count) {
        let eSlot: Slot = index < eChildren.count ? .present(eChildren[index].value) : .absent
        let aSlot: Slot = index < aChildren.count ? .present(aChildren[index].value) : .absent
        collect(eSlot, aSlot, path: path + "[\(index)]", depth: depth + 1, into: &result)
      }
    case .dictionary:
      let eEntries = entries(of: eMirror, depth: depth)
      let aEntries = entries(of: aMirror, depth: depth)
      let keys = Set(eEntries.keys).union(aEntries.keys).sorted()
      for key in keys {
        let eSlot: Slot = eEntries[key].map { .present($0) } ?? .absent
        let aSlot: Slot = aEntries[key].map { .present($0) } ?? .absent
        collect(eSlot, aSlot, path: path + "[\(key)]", depth: depth + 1, into: &result)
      }
    default:
      leaf(expected, actual, path: path, into: &result)
    }
  }

  /// Compares two representations part by part: named parts as fields,
  /// keyed parts as entries; a part on one side only is `(absent)` on the
  /// other.
  private static func collect(
    _ expected: DiffRepresentation, _ actual: DiffRepresentation, path: String, depth: Int,
    into result: inout [Difference]
  ) {
    switch (expected, actual) {
    case (.fields(let e), .fields(let a)):
      for (name, eSlot, aSlot) in zipByKey(e.map { ($0.name, $0.value) }, a.map { ($0.name, $0.value) }) {
        collect(eSlot, aSlot, path: join(path, field: name), depth: depth + 1, into: &result)
      }
    case (.entries(let e), .entries(let a)):
      for (key, eSlot, aSlot) in zipByKey(e.map { ($0.key, $0.value) }, a.map { ($0.key, $0.value) }) {
        collect(eSlot, aSlot, path: (path.isEmpty ? "self" : path) + "[\(key)]", depth: depth + 1, into: &result)
      }
    default:
      leaf(.present(expected), .present(actual), path: path, into: &result)
    }
  }

  /// Pairs parts by key: the expected side's keys in order, then those
  /// only the actual side has.
  private static func zipByKey(_ expected: [(String, Any)], _ actual: [(String, Any)]) -> [(String, Slot, Slot)] {
    var actualByKey: [String: Any] = [:]
    for (key, value) in actual { actualByKey[key] = value }
    var seen = Set<String>()
    var pairs: [(String, Slot, Slot)] = []
    for (key, value) in expected where seen.insert(key).inserted {
      pairs.append((key, .present(value), actualByKey[key].map { .present($0) } ?? .absent))
    }
    for (key, value) in actual where seen.insert(key).inserted {
      pairs.append((key, .absent, .present(value)))
    }
    return pairs
  }

  private static func entries(of mirror: Mirror, depth: Int) -> [String: Any] {
    var entries: [String: Any] = [:]
    for child in mirror.children {
      let parts = Array(Mirror(reflecting: child.value).children)
      guard parts.count == 2 else { continue }
      entries[ValueRenderer.render(parts[0].value, depth: depth)] = parts[1].value
    }
    return entries
  }

  private static func leaf(_ expected: Slot, _ actual: Slot, path: String, into result: inout [Difference]) {
    let e = text(of: expected)
    let a = text(of: actual)
    guard e != a else { return }
    result.append(Difference(path: path.isEmpty ? "self" : path, expected: e, actual: a))
  }

  private static func text(of slot: Slot) -> String {
    switch slot {
    case .present(let value): return ValueRenderer.render(value)
    case .absent: return "(absent)"
    }
  }

  private static func join(_ path: String, field: String) -> String {
    if field.hasPrefix(".") { return (path.isEmpty ? "self" : path) + field }
    return path.isEmpty ? field : path + "." + field
  }
}
