extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as a plain array (a JSON array of the elements).
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What encoding an element throws.
  /// - Complexity: O(n).
  @inlinable
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in self { try container.encode(element) }
  }
}

extension IdentifiedArray: Decodable where Element: Decodable & Identifiable, ID == Element.ID {
  /// Decodes a plain array of elements.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.dataCorrupted` naming the id when two elements
  ///   share one; what decoding an element throws.
  /// - Complexity: O(n log n).
  @inlinable
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    var elements = ContiguousArray<Element>()
    if let count = container.count { elements.reserveCapacity(count) }
    while !container.isAtEnd { elements.append(try container.decode(Element.self)) }
    let (array, duplicate) = Self.building(elements, identify: { $0.id })
    if let duplicate {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "IdentifiedArray: duplicate id \(String(reflecting: duplicate))"))
    }
    self = array
  }
}
