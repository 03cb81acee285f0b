import Foundation

/// An order for encoding that does not depend on hashing, so that encoding
/// equal contents gives equal bytes in every run (a `Dictionary`, a `Set`
/// and a hash trie iterate in an order that changes from one process to
/// the next).
///
/// Keys that are `Comparable` are ordered by `<`; other keys by the bytes
/// of their JSON encoding.
enum StableOrder {
  /// The positions of `keys` in ascending order of key.
  ///
  /// Strings and integers (the usual raw IDs and index keys) are compared
  /// with code specialized for them; other `Comparable` keys through their
  /// conformance; the rest by their JSON bytes.
  ///
  /// - Throws: The error of encoding a key that is not `Comparable`.
  /// - Complexity: O(n log n) comparisons; only positions move.
  static func order<Key: Encodable>(of keys: [Key]) throws -> [Int] {
    // The bit casts are between one type's two spellings, checked first.
    if Key.self == String.self {
      return ascending(unsafeBitCast(keys, to: [String].self))
    }
    if Key.self == Int.self {
      return ascending(unsafeBitCast(keys, to: [Int].self))
    }
    if let comparable = Key.self as? any Comparable.Type {
      return order(of: keys, as: comparable)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try keys.indices.sorted(by: comparing(keys.map { Array(try encoder.encode($0)) }) {
      $0.lexicographicallyPrecedes($1)
    })
  }

  private static func order<Key, Order: Comparable>(of keys: [Key], as order: Order.Type) -> [Int] {
    ascending(keys.map { $0 as! Order })
  }

  private static func ascending<Order: Comparable>(_ keys: [Order]) -> [Int] {
    keys.indices.sorted(by: comparing(keys, by: <))
  }

  private static func comparing<Order>(
    _ keys: [Order], by areInIncreasingOrder: @escaping (Order, Order) -> Bool
  ) -> (Int, Int) -> Bool {
    { areInIncreasingOrder(keys[$0], keys[$1]) }
  }

  /// Encodes `dictionary` in the shape `Dictionary` encodes itself (an
  /// object for `String`, `Int` and `CodingKeyRepresentable` keys, otherwise
  /// an array of keys and values, one after the other), so that
  /// `Dictionary`'s decoding reads it, with its entries ordered by
  /// `sortKey`.
  ///
  /// - Throws: The encoder's error.
  static func encode<Key: Hashable & Encodable, Value: Encodable, SortKey: Encodable>(
    _ dictionary: [Key: Value], sortedBy sortKey: (Key) -> SortKey, to encoder: any Encoder
  ) throws {
    // A dictionary's keys and values come in one order.
    let keys = Array(dictionary.keys)
    let values = Array(dictionary.values)
    let positions = try order(of: keys.map(sortKey))
    if Key.self == String.self || Key.self == Int.self || Key.self is any CodingKeyRepresentable.Type {
      var container = encoder.container(keyedBy: EntryKey.self)
      for position in positions {
        try container.encode(values[position], forKey: EntryKey(keys[position]))
      }
    } else {
      var container = encoder.unkeyedContainer()
      for position in positions {
        try container.encode(keys[position])
        try container.encode(values[position])
      }
    }
  }

  /// The key of one entry of a dictionary encoded as an object.
  private struct EntryKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ key: some Hashable) {
      switch key {
      case let string as String:
        self.init(stringValue: string)
      case let int as Int:
        self.init(intValue: int)
      case let representable as any CodingKeyRepresentable:
        let codingKey = representable.codingKey
        self.init(stringValue: codingKey.stringValue, intValue: codingKey.intValue)
      default:
        fatalError("VergeORM: \(type(of: key)) keys are encoded as an array")
      }
    }

    init(stringValue: String, intValue: Int?) {
      self.stringValue = stringValue
      self.intValue = intValue
    }

    init(stringValue: String) {
      self.init(stringValue: stringValue, intValue: nil)
    }

    init(intValue: Int) {
      self.init(stringValue: String(intValue), intValue: intValue)
    }
  }
}
