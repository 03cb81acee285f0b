/// Consumes a value so that the optimizer cannot delete the work that
/// produced it.
@_optimize(none)
@inline(never)
func blackHole<T>(_ value: T) {}
