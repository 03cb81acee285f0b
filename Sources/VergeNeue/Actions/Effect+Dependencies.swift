import Verge

extension Effect {
  /// This effect with each task running with `values` in effect (for a
  /// reducer whose dependencies are overridden).
  func runningWith(_ values: DependencyValues) -> Effect {
    guard let storage else { return self }
    return Effect(
      items: storage.map { item in
        guard case .run(let run) = item else { return item }
        let operation = run.operation
        var bound = run
        bound.operation = { send in try await DependencyValues.withValues(values) { try await operation(send) } }
        return .run(bound)
      })
  }
}
