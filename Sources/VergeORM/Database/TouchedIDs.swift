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
  /// More IDs than `listLimit`: any ID may have changed. Listing them would
  /// hash every ID once more in a big batch, while a reader that must look
  /// an entity up pays about what a set look-up costs.
  case unlisted

  /// The most IDs a batch lists in `many`.
  @usableFromInline static var listLimit: Int { 64 }

  /// Whether `id` is among them.
  ///
  /// - Complexity: O(1).
  @inlinable
  func contains(_ id: ID) -> Bool {
    switch self {
    case .none: false
    case .one(let only): only == id
    case .many(let ids): ids.contains(id)
    case .unlisted: true
    }
  }
}
