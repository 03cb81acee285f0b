/// The scope under which a composed child's effects run: the key path of
/// its state and, in a collection, its element's id (for `embed`, its
/// feature's type; for `ifLet`, `0`). The child's own ids are taken into
/// it (`EffectID.scoped(in:)`), and, for `forEach` and `ifLet`, its tasks
/// are marked with it, so that removing the child cancels them.
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
