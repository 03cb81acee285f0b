import Synchronization

/// A copy-on-write buffer that counts how often its storage is copied, so
/// tests can prove that a commit mutated in place.
public struct CopyCountingBuffer: Equatable, Sendable {
  final class Storage: @unchecked Sendable {
    // Mutated only through the uniquely referenced path of `CopyCountingBuffer`.
    var elements: [Int]
    init(_ elements: [Int]) { self.elements = elements }
  }

  /// Storage copies made so far, by every buffer.
  public static let copies = Atomic<Int>(0)

  private var storage: Storage

  /// A buffer of `count` zeros.
  public init(count: Int) {
    storage = Storage(Array(repeating: 0, count: count))
  }

  /// The number at `index`; a write copies the storage when it is shared.
  public subscript(index: Int) -> Int {
    get { storage.elements[index] }
    set {
      if !isKnownUniquelyReferenced(&storage) {
        Self.copies.add(1, ordering: .relaxed)
        storage = Storage(storage.elements)
      }
      storage.elements[index] = newValue
    }
  }

  /// Equal numbers, in order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.elements == rhs.storage.elements
  }
}
