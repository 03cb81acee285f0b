/// The tables of a database, declared as `EntityTableKey` properties.
///
/// ```swift
/// struct Schema: EntitySchemaType {
///   let book = Book.EntityTableKey()
///   let author = Author.EntityTableKey()
/// }
/// ```
///
/// The property names name the tables in the encoded database; declare each
/// entity type once.
public protocol EntitySchemaType: Sendable {
  /// Creates the schema; the synthesised initializer does.
  init()
}

/// The indexes of a database, declared as `IndexKey` properties.
///
/// ```swift
/// struct Indexes: IndexesType {
///   let allBooks = IndexKey<OrderedIDIndex<Book>>()
///   let bookByISBN = IndexKey<HashIndex<String, Book>>()
///   let booksByAuthor = IndexKey<GroupByEntityIndex<Author, Book>>()
/// }
/// ```
///
/// The property names name the indexes in the encoded database.
public protocol IndexesType: Sendable {
  /// Creates the declaration; the synthesised initializer does.
  init()
}
