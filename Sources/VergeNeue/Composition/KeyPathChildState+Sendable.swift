// Safe: it is made only from a key path checked `& Sendable` (`init(_:)`),
// or by appending two of those (`appending(_:)`), and key paths are
// immutable values.
extension KeyPathChildState: @unchecked Sendable {}
