// Key paths are immutable once formed; reading through one from any thread is safe.
extension SendableKeyPath: @unchecked Sendable {}
