extension IdentifiedArray {
  /// The ids of the elements of `self` and `other` that lie in nodes the two
  /// arrays do not share, each once, in the order met: a superset of the ids
  /// whose elements differ between them (an element in a shared node is in
  /// both with the same value).
  ///
  /// - Complexity: O(changed × log n) for two versions of one array (the
  ///   nodes they share are skipped); O(n) for unrelated arrays.
  package func idsOfElementsNotShared(with other: Self) -> [ID] {
    var candidates: [ID] = []
    var seen = Set<ID>()
    list.forEachElementNotShared(
      with: other.list,
      { element in
        let id = identify(element)
        if seen.insert(id).inserted { candidates.append(id) }
      },
      { element in
        let id = other.identify(element)
        if seen.insert(id).inserted { candidates.append(id) }
      })
    return candidates
  }
}
