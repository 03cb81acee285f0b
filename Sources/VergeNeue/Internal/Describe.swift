/// Field-by-field descriptions of values, for logs and error messages.
enum Describe {
  /// `label old → new` for each top-level property whose description differs.
  static func differences<Value>(_ old: Value, _ new: Value, limit: Int = 60) -> [String] {
    let oldFields = fields(of: old)
    let newFields = fields(of: new)
    guard let oldFields, let newFields, oldFields.count == newFields.count else {
      let a = clip("\(old)", limit)
      let b = clip("\(new)", limit)
      return a == b ? [] : ["\(a) → \(b)"]
    }
    var result: [String] = []
    for (o, n) in zip(oldFields, newFields) where o.value != n.value {
      result.append("\(o.label) \(clip(o.value, limit)) → \(clip(n.value, limit))")
    }
    return result
  }

  private static func fields<Value>(of value: Value) -> [(label: String, value: String)]? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .struct || mirror.displayStyle == .class, !mirror.children.isEmpty else {
      return nil
    }
    return mirror.children.enumerated().map { index, child in
      (child.label ?? "#\(index)", String(describing: child.value))
    }
  }

  private static func clip(_ text: String, _ length: Int) -> String {
    text.count <= length ? text : String(text.prefix(max(length - 1, 0))) + "…"
  }
}
