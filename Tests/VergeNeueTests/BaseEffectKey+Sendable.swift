// Safe: its only stored property is a `let Int`.
extension BaseEffectKey: @unchecked Sendable {}

// Safe: it adds no stored property to `BaseEffectKey`.
extension DerivedEffectKey: @unchecked Sendable {}
