// The boxed copy is written once, in the initializer, and only read after that; the value
// itself is Sendable.
extension ValueBox: @unchecked Sendable {}
