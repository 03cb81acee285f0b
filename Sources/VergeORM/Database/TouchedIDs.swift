/// The IDs whose entities the last batch changed in one table, stored
/// without a set (and its allocation) when there is only one.
@usableFromInline
enum TouchedIDs<ID: Hashable & Sendable>: Sendable {
  /// No ID.
  case none
  /// Exactly one ID.
  case one(ID)
  /// Several IDs.
  case many(Set<ID>)

  /// Whether `id` is among them.
  ///
  /// - Complexity: O(1).
  @inlinable
  func contains(_ id: ID) -> Bool {
    switch self {
    case .none: false
    case .one(let only): only == id
    case .many(let ids): ids.contains(id)
    }
  }
}
