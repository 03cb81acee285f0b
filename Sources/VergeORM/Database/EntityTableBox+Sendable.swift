// Safe: the base class has no stored state, and a box's only stored
// property is an immutable `let` of a Sendable table.
extension AnyEntityTableBox: @unchecked Sendable {}
extension EntityTableBox: @unchecked Sendable {}
