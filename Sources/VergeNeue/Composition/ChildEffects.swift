/// The id under which an embedded child's effects run: the key path of its
/// state and, in a collection, its element's id.
@usableFromInline
struct ChildEffects<Path: Hashable & Sendable, Element: Hashable & Sendable>: Hashable, Sendable {
  @usableFromInline let owner: Path
  @usableFromInline let element: Element

  @inlinable
  init(owner: Path, element: Element) {
    self.owner = owner
    self.element = element
  }
}
