import Foundation
import VergeNeue

extension CounterSession {
  /// Starts a trace of the store of the style the session started with:
  /// the free style's commits, the method reducer's mutations (commits of
  /// its core store), or the enum-action counter's actions and effects.
  func trace(to url: URL) throws(TraceError) -> Trace {
    switch current {
    case let counter as FreeCommitCounter: return try Trace(counter.store, writingTo: url)
    case let counter as MethodReducerCounter: return try Trace(counter.store.core, writingTo: url)
    case let counter as EnumActionCounter: return try Trace(counter.store, writingTo: url)
    default: preconditionFailure("a counter style without a store to trace")
    }
  }
}
