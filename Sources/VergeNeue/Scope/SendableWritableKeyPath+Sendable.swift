// Safe: it is built only from key paths checked `& Sendable`, or by appending
// two of those, and key paths are immutable values.
extension SendableWritableKeyPath: @unchecked Sendable {}
