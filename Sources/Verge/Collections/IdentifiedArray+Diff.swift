extension IdentifiedArray: DiffPairRepresentable where Element: Equatable {
  /// The elements that differ from `other`'s, by id (a diff path reads
  /// `rows[id: 7].title`); an element on one side only shows as absent on
  /// the other. Arrays holding equal elements in another order show their
  /// `ids`.
  ///
  /// - Complexity: O(changed × log n) for two versions of one array (the
  ///   nodes they share are skipped); O(n) for unrelated arrays.
  package func diffRepresentations(against other: Any) -> (own: DiffRepresentation, other: DiffRepresentation)? {
    guard let other = other as? IdentifiedArray else { return nil }
    let candidates = idsOfElementsNotShared(with: other)
    var own: [(key: String, value: Any)] = []
    var theirs: [(key: String, value: Any)] = []
    for id in candidates {
      let mine = self[id: id]
      let their = other[id: id]
      guard mine != their else { continue }
      let key = "id: \(String(reflecting: id))"
      if let mine { own.append((key, mine)) }
      if let their { theirs.append((key, their)) }
    }
    if own.isEmpty && theirs.isEmpty && self != other {
      return (.fields([("ids", Array(ids))]), .fields([("ids", Array(other.ids))]))
    }
    return (.entries(own), .entries(theirs))
  }
}
