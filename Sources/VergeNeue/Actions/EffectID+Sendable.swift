// Safe: the wrapped AnyHashable is only ever built from a `Hashable & Sendable` value.
extension EffectID: @unchecked Sendable {}
