/// One value that only the thread holding an `ActionEngine`'s `draining`
/// flag reads or writes (the flag is taken with acquiring and released with
/// releasing ordering, so each holder sees the previous holder's writes).
@usableFromInline
final class DrainerSlot<Value: AnyObject & Sendable> {
  @usableFromInline @exclusivity(unchecked) var value: Value?

  @usableFromInline
  init() {}

  /// Takes the value out; call while holding `draining`.
  @inlinable
  func take() -> Value? {
    value.take()
  }

  /// Puts a value in; call while holding `draining`.
  @inlinable
  func put(_ newValue: consuming Value) {
    value = newValue
  }
}
