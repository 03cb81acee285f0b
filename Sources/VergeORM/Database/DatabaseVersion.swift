import Synchronization

/// Source of version stamps: each table or index a batch changes gets a
/// fresh one, so equal stamps mean "the same, untouched contents".
private let databaseVersionCounter = Atomic<UInt64>(0)

/// A version stamp never handed out before (0 is reserved for "empty").
@usableFromInline
func nextDatabaseVersion() -> UInt64 {
  databaseVersionCounter.wrappingAdd(1, ordering: .relaxed).newValue
}
