import Verge

/// Hands the result of a reduction sent through a root's pipeline (as a
/// named mutation) back to the engine that sent it, exactly once.
///
/// When the pipeline runs the mutation before returning, the sender
/// collects the result. When a middleware held the mutation and runs it
/// after the sender has moved on, `deliver` says so and the running body
/// handles the result itself. Any later run of the same body (a `Recorder`
/// replay) finds the handoff done and is ignored.
final class ReductionHandoff<Value: Sendable>: Sendable {
  private enum Stage {
    case waiting
    case delivered(Value)
    case abandoned
    case done
  }

  private let stage = SharedLock(Stage.waiting)

  /// Records the result of the body's run.
  ///
  /// - Returns: `true` when the sender has already moved on, so the caller
  ///   must handle `value` itself (this happens once at most).
  func deliver(_ value: Value) -> Bool {
    stage.withLock { stage in
      switch stage {
      case .waiting:
        stage = .delivered(value)
        return false
      case .abandoned:
        stage = .done
        return true
      case .delivered, .done:
        return false
      }
    }
  }

  /// The result, when the body ran before the pipeline returned; `nil`
  /// otherwise (a middleware dropped, replaced or held the mutation).
  func collect() -> Value? {
    stage.withLock { stage in
      if case .delivered(let value) = stage {
        stage = .done
        return value
      }
      if case .waiting = stage { stage = .abandoned }
      return nil
    }
  }
}
