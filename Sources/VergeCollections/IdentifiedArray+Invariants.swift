extension IdentifiedArray {
  /// Structural problems, for invariant checks in tests; empty when sound:
  /// the tree's own invariants, the id map's, and every element's id mapped
  /// to that element's label.
  func invariantViolations() -> [String] {
    var problems = list.invariantViolations() + positions.invariantViolations()
    if positions.count != list.count {
      problems.append("\(positions.count) ids for \(list.count) elements")
    }
    list.forEachLabelled { element, label in
      let id = identify(element)
      if positions[id] != label { problems.append("id \(id) not mapped to its element's label") }
    }
    return problems
  }
}
