// Touched only from the baseline's callbacks, which the benchmarks call from one thread.
extension LastValue: @unchecked Sendable {}
