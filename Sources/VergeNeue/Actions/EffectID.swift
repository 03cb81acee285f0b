/// The identity of a cancellable effect: any hashable, sendable value.
///
/// The value is kept as an existential rather than an `AnyHashable`: a
/// small id (a removed child's) is then stored inline, made with no
/// allocation and no run-time conformance look-up, which matters because
/// every removal of a composed child makes one, usually to cancel nothing.
@usableFromInline
struct EffectID: Hashable, Sendable {
  @usableFromInline let value: any Hashable & Sendable

  @inlinable
  init(_ value: some Hashable & Sendable) {
    self.value = value
  }

  @usableFromInline
  static func == (lhs: EffectID, rhs: EffectID) -> Bool {
    // Both ways, so that an id of a subclass and one of its base class
    // compare alike in either order.
    func isEqual<Left: Hashable>(_ left: Left) -> Bool {
      if let right = rhs.value as? Left { return left == right }
      func isEqual<Right: Hashable>(_ right: Right) -> Bool {
        (left as? Right).map { $0 == right } ?? false
      }
      return isEqual(rhs.value)
    }
    return isEqual(lhs.value)
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    value.hash(into: &hasher)
  }
}

extension EffectID {
  /// This id as it is known outside the child whose effects run under
  /// `scope`: equal only to the same id of the same child.
  @usableFromInline
  func scoped(in scope: EffectID) -> EffectID {
    EffectID(ScopedEffectID(scope: scope, id: self))
  }
}

/// An id that a composed child used, as its parent and the store see it:
/// the child's scope (its place, and in a collection its element's id)
/// with the child's own id. Nested children nest these, one per level.
@usableFromInline
struct ScopedEffectID: Hashable, Sendable {
  @usableFromInline let scope: EffectID
  @usableFromInline let id: EffectID
}
