// Safe: a field is made only from a key path checked `& Sendable`
// (`init(_:)`), or by appending two fields made so; key paths and offsets
// are immutable values.
extension StateField: @unchecked Sendable {}
