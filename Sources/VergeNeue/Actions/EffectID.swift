/// The identity of a cancellable effect: any hashable, sendable value.
@usableFromInline
struct EffectID: Hashable {
  let value: AnyHashable

  init(_ value: some Hashable & Sendable) {
    self.value = AnyHashable(value)
  }
}
