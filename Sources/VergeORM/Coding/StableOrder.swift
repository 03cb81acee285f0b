import Foundation

/// An order for encoding that does not depend on hashing, so that encoding
/// equal contents gives equal bytes in every run (a `Dictionary`, a `Set`
/// and a hash trie iterate in an order that changes from one process to
/// the next).
///
/// Keys that are `Comparable` are ordered by `<`; other keys by the bytes
/// of their JSON encoding.
enum StableOrder {
  /// `elements` ordered by `key`.
  ///
  /// - Throws: The error of encoding a key that is not `Comparable`.
  /// - Complexity: O(n log n) comparisons.
  static func sorted<Element, Key: Encodable>(
    _ elements: [Element], by key: (Element) -> Key
  ) throws -> [Element] {
    if let comparable = Key.self as? any Comparable.Type {
      return sorted(elements, by: key, as: comparable)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try elements
      .map { (key: Array(try encoder.encode(key($0))), element: $0) }
      .sorted { $0.key.lexicographicallyPrecedes($1.key) }
      .map(\.element)
  }

  private static func sorted<Element, Key, Order: Comparable>(
    _ elements: [Element], by key: (Element) -> Key, as order: Order.Type
  ) -> [Element] {
    elements
      .map { (key: key($0) as! Order, element: $0) }
      .sorted { $0.key < $1.key }
      .map(\.element)
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
    let entries = try sorted(Array(dictionary), by: { sortKey($0.key) })
    if Key.self == String.self || Key.self == Int.self || Key.self is any CodingKeyRepresentable.Type {
      var container = encoder.container(keyedBy: EntryKey.self)
      for (key, value) in entries {
        try container.encode(value, forKey: EntryKey(key))
      }
    } else {
      var container = encoder.unkeyedContainer()
      for (key, value) in entries {
        try container.encode(key)
        try container.encode(value)
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
        preconditionFailure("VergeORM: \(type(of: key)) keys are encoded as an array")
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
