// Every access to the boxed value goes through the mutex, and the value itself is Sendable.
extension LockedBox: @unchecked Sendable {}
