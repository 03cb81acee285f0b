/// A value that shows itself in test diffs as a tree of named parts, in its
/// users' terms, rather than as the stored fields reflection would find
/// (storage, caches, version stamps).
///
/// VergeTesting's `StateDiff` — the field-by-field difference a failing
/// `TestStore` assertion prints — walks values with `Mirror` unless they
/// conform to this protocol; then it compares the parts given here. A
/// VergeORM database conforms, so a diff names a table, an entity ID and a
/// field:
///
/// ```text
/// database.book["b1"].name
///   expected: "A"
///   actual:   "B"
/// ```
///
/// A type of your own conforms the same way:
///
/// ```swift
/// struct Inbox: Equatable, DiffRepresentable {
///   private var storage: [String: Message]
///   private var revision: Int
///
///   var diffRepresentation: DiffRepresentation {
///     .entries(storage.sorted { $0.key < $1.key }.map { (key: $0.key.debugDescription, value: $0.value) })
///   }
/// }
/// ```
///
/// Only diffs read it: equality is still the type's own `==`.
public protocol DiffRepresentable {
  /// The parts of this value that a diff compares, each under the name
  /// a diff path shows for it.
  ///
  /// - Complexity: Called only while a diff is formed (when a test fails);
  ///   it may visit every part.
  var diffRepresentation: DiffRepresentation { get }
}

/// How a ``DiffRepresentable`` value shows in a diff: its parts, by name or
/// by key. A part may itself be ``DiffRepresentable`` (or a
/// `DiffRepresentation`), and is then shown the same way.
///
/// Two values compare part by part: a part on one side only shows as
/// `(absent)` on the other, so an inserted or deleted entry reads as such.
public enum DiffRepresentation: DiffRepresentable {
  /// Named parts, shown in a path as `.name`: a database's tables and its
  /// indexes.
  case fields([(name: String, value: Any)])
  /// Parts by key, shown in a path as `[key]`, with `key` written as given
  /// (`"b1"` quoted for a string key, `3` for a number): a table's entities
  /// by ID. Keys are compared as text and listed in the order given.
  case entries([(key: String, value: Any)])

  /// Itself: a representation nests inside another.
  public var diffRepresentation: DiffRepresentation { self }
}
