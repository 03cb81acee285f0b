/// A value that can show, against another value of its type, only the parts
/// that differ, without visiting the parts the two share: VergeTesting's
/// `StateDiff` asks it before walking a value's parts, so that the diff of
/// two versions of a large collection costs what differs.
package protocol DiffPairRepresentable {
  /// The parts of `self` and of `other` that differ, each side as a
  /// ``DiffRepresentation``; `nil` when `other` is not of this type.
  ///
  /// - Parameter other: The value to compare with.
  /// - Returns: This value's differing parts and `other`'s.
  func diffRepresentations(against other: Any) -> (own: DiffRepresentation, other: DiffRepresentation)?
}
