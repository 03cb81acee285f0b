// The list and the id map are Sendable for Sendable elements and ids (their shared nodes are never written); the key path is immutable once formed.
extension IdentifiedArray: @unchecked Sendable where ID: Sendable, Element: Sendable {}

// A view of an array, Sendable when the array is.
extension IdentifiedArray.IDs: @unchecked Sendable where ID: Sendable, Element: Sendable {}
