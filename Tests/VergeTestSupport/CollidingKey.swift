/// A key whose hash collides on purpose (three hash values in all), to
/// exercise the collision buckets of hash tries.
public struct CollidingKey: Hashable, Sendable, Codable {
  /// The key's value; keys are equal when their values are.
  public let value: Int

  /// A key for `value`.
  public init(value: Int) {
    self.value = value
  }

  /// Hashes only `value % 3`, so most keys collide.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(value % 3)
  }
}
