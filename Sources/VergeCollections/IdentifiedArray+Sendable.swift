// The list and the id map are Sendable for Sendable elements and ids (their shared nodes are never written); the id closure captures nothing, or only an immutable key path, and is only called.
extension IdentifiedArray: @unchecked Sendable where ID: Sendable, Element: Sendable {}

// A view of an array, Sendable when the array is.
extension IdentifiedArray.IDs: @unchecked Sendable where ID: Sendable, Element: Sendable {}
