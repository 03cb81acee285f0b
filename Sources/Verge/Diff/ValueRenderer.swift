/// Renders values compactly for test failures and traces: strings quoted, enum
/// cases as `.name(payload)`, structs as `Type(field: value)`, collections
/// in brackets. Sets and dictionaries are sorted so the text is stable.
package enum ValueRenderer {
  /// Deeper values are shown as `…`.
  package static let maximumDepth = 8

  /// A one-line rendering of `value`.
  package static func render(_ value: Any, depth: Int = 0) -> String {
    if let text = value as? String { return text.debugDescription }
    if let character = value as? Character { return String(character).debugDescription }
    guard depth < maximumDepth else { return "…" }
    if let value = value as? any DiffRepresentable {
      return render(value.diffRepresentation, depth: depth)
    }
    let mirror = Mirror(reflecting: value)
    let children = Array(mirror.children)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = children.first?.value else { return "nil" }
      return render(wrapped, depth: depth)
    case .enum:
      return renderEnum(value, children: children, depth: depth)
    case .struct, .class:
      if children.isEmpty || value is any CustomStringConvertible {
        return String(describing: value)
      }
      return "\(typeName(of: value))(\(renderFields(children, depth: depth + 1)))"
    case .tuple:
      return "(\(renderFields(children, depth: depth + 1)))"
    case .collection:
      return "[\(children.map { render($0.value, depth: depth + 1) }.joined(separator: ", "))]"
    case .set:
      return "Set([\(children.map { render($0.value, depth: depth + 1) }.sorted().joined(separator: ", "))])"
    case .dictionary:
      let pairs = children.map { renderPair($0.value, depth: depth + 1) }.sorted()
      return pairs.isEmpty ? "[:]" : "[\(pairs.joined(separator: ", "))]"
    default:
      return String(describing: value)
    }
  }

  /// `(book: […], author: […])` for named parts, `["b1": …]` for keyed
  /// ones.
  private static func render(_ representation: DiffRepresentation, depth: Int) -> String {
    switch representation {
    case .fields(let parts):
      return "(" + parts.map { "\($0.name): \(render($0.value, depth: depth + 1))" }.joined(separator: ", ") + ")"
    case .entries(let parts):
      guard !parts.isEmpty else { return "[:]" }
      return "[" + parts.map { "\($0.key): \(render($0.value, depth: depth + 1))" }.joined(separator: ", ") + "]"
    }
  }

  /// The case name of an enum value, or `nil` when `value` is not an enum
  /// with a payload (payload-free cases are compared by their rendering).
  package static func caseName(of mirror: Mirror) -> String? {
    guard mirror.displayStyle == .enum else { return nil }
    return mirror.children.first?.label
  }

  /// `key: value` for a dictionary element (reflected as a two-element tuple).
  package static func renderPair(_ element: Any, depth: Int) -> String {
    let parts = Array(Mirror(reflecting: element).children)
    guard parts.count == 2 else { return render(element, depth: depth) }
    return "\(render(parts[0].value, depth: depth)): \(render(parts[1].value, depth: depth))"
  }

  private static func renderEnum(_ value: Any, children: [Mirror.Child], depth: Int) -> String {
    if value is any CustomStringConvertible { return String(describing: value) }
    guard let payload = children.first, let name = payload.label else {
      return ".\(String(describing: value))"
    }
    let payloadMirror = Mirror(reflecting: payload.value)
    if payloadMirror.displayStyle == .tuple {
      return ".\(name)(\(renderFields(Array(payloadMirror.children), depth: depth + 1)))"
    }
    return ".\(name)(\(render(payload.value, depth: depth + 1)))"
  }

  private static func renderFields(_ children: [Mirror.Child], depth: Int) -> String {
    children.map { child in
      let rendered = render(child.value, depth: depth)
      guard let label = child.label, !label.hasPrefix(".") else { return rendered }
      return "\(label): \(rendered)"
    }
    .joined(separator: ", ")
  }

  private static func typeName(of value: Any) -> String {
    String(describing: type(of: value))
  }
}
