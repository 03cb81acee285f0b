/// The walk under VergeTesting's `StateDiff` and a store trace's state
/// diffs: two values compared part by part (through `Mirror`, or the parts
/// a `DiffRepresentable` or `DiffPairRepresentable` value names), listing
/// each path whose rendering differs. Shared by the package's targets.
package enum ValueDiff {
  /// One differing path, each side rendered by `ValueRenderer`.
  package struct Difference: Sendable, Equatable {
    /// `profile.name`, `items[2]`, `rows[id: 7].title`; `self` for the
    /// values themselves.
    package let path: String
    /// The first value at `path`; `(absent)` when it has no such part.
    package let old: String
    /// The second value at `path`; `(absent)` when it has no such part.
    package let new: String

    package init(path: String, old: String, new: String) {
      self.path = path
      self.old = old
      self.new = new
    }
  }

  /// The paths at which `old` and `new` differ, in field order.
  ///
  /// - Complexity: What the walk visits: every element of a collection
  ///   reflected with `Mirror`; only the differing parts of a
  ///   `DiffPairRepresentable` one (an `IdentifiedArray`).
  package static func differences<Value>(_ old: Value, _ new: Value) -> [Difference] {
    var result: [Difference] = []
    collect(.present(old), .present(new), path: "", depth: 0, into: &result)
    return result
  }

  private enum Slot {
    case present(Any)
    case absent
  }

  private static let maximumDepth = 32

  private static func collect(_ old: Slot, _ new: Slot, path: String, depth: Int, into result: inout [ValueDiff.Difference]) {
    guard case .present(let e) = old, case .present(let a) = new else {
      leaf(old, new, path: path, into: &result)
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
      leaf(old, new, path: path, into: &result)
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
        leaf(old, new, path: path, into: &result)
      }
    case .struct, .class, .tuple:
      let eChildren = Array(eMirror.children)
      let aChildren = Array(aMirror.children)
      guard !eChildren.isEmpty, eChildren.map(\.label) == aChildren.map(\.label) else {
        leaf(old, new, path: path, into: &result)
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
        leaf(old, new, path: path, into: &result)
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
      leaf(old, new, path: path, into: &result)
    }
  }

  /// Compares two representations part by part: named parts as fields,
  /// keyed parts as entries; a part on one side only is `(absent)` on the
  /// other.
  private static func collect(
    _ old: DiffRepresentation, _ new: DiffRepresentation, path: String, depth: Int,
    into result: inout [ValueDiff.Difference]
  ) {
    switch (old, new) {
    case (.fields(let e), .fields(let a)):
      for (name, eSlot, aSlot) in zipByKey(e.map { ($0.name, $0.value) }, a.map { ($0.name, $0.value) }) {
        collect(eSlot, aSlot, path: join(path, field: name), depth: depth + 1, into: &result)
      }
    case (.entries(let e), .entries(let a)):
      for (key, eSlot, aSlot) in zipByKey(e.map { ($0.key, $0.value) }, a.map { ($0.key, $0.value) }) {
        collect(eSlot, aSlot, path: (path.isEmpty ? "self" : path) + "[\(key)]", depth: depth + 1, into: &result)
      }
    default:
      leaf(.present(old), .present(new), path: path, into: &result)
    }
  }

  /// Pairs parts by key: the old side's keys in order, then those
  /// only the new side has.
  private static func zipByKey(_ old: [(String, Any)], _ new: [(String, Any)]) -> [(String, Slot, Slot)] {
    var newByKey: [String: Any] = [:]
    for (key, value) in new { newByKey[key] = value }
    var seen = Set<String>()
    var pairs: [(String, Slot, Slot)] = []
    for (key, value) in old where seen.insert(key).inserted {
      pairs.append((key, .present(value), newByKey[key].map { .present($0) } ?? .absent))
    }
    for (key, value) in new where seen.insert(key).inserted {
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

  private static func leaf(_ old: Slot, _ new: Slot, path: String, into result: inout [ValueDiff.Difference]) {
    let e = text(of: old)
    let a = text(of: new)
    guard e != a else { return }
    result.append(ValueDiff.Difference(path: path.isEmpty ? "self" : path, old: e, new: a))
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
