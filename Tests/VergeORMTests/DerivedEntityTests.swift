import VergeORM
import XCTest

final class DerivedEntityTests: XCTestCase {
  private func makeStore() -> Store<LibraryState, Never> {
    let store = Store<LibraryState, Never>(initialState: LibraryState())
    store.commit {
      $0.library.performBatchUpdates { context in
        context.entities.author.insert((0..<100).map { Author(rawID: "a\($0)", name: "\($0)") })
        for i in 0..<10 {
          let book = context.entities.book.insert(Book(rawID: "b\(i)", authorID: .init("a0")))
          try? context.indexes.allBooks.append(book.entityID)
        }
      }
    }
    return store
  }

  func testUpdateToAnotherEntityDoesNotWakeSubscriber() {
    let store = makeStore()
    let authorA = store.derivedEntity(Author.EntityID("a1"), in: \.library)
    let authorB = store.derivedEntity(Author.EntityID("a2"), in: \.library)
    let wakesA = LockedCounter()
    let wakesB = LockedCounter()
    authorA.sinkState(dropsFirst: true) { _ in wakesA.increment() }.storeWhileSourceActive()
    authorB.sinkState(dropsFirst: true) { _ in wakesB.increment() }.storeWhileSourceActive()

    store.commit {
      $0.library.performBatchUpdates { context in
        _ = try? context.entities.author.update(.init("a1")) { $0.name = "changed" }
      }
    }
    XCTAssertEqual(wakesA.value, 1)
    XCTAssertEqual(wakesB.value, 0)
    XCTAssertEqual(authorA.value?.name, "changed")

    // Other tables and unrelated state do not wake either.
    store.commit { $0.counter += 1 }
    store.commit {
      $0.library.performBatchUpdates { context in
        _ = try? context.entities.book.update(.init("b1")) { $0.name = "x" }
      }
    }
    XCTAssertEqual(wakesA.value, 1)
    XCTAssertEqual(wakesB.value, 0)

    // Deleting publishes nil.
    store.commit { $0.library.performBatchUpdates { $0.entities.author.delete(.init("a2")) } }
    XCTAssertEqual(wakesB.value, 1)
    XCTAssertNil(authorB.value)
  }

  func testNonNullEntityKeepsLastValueAfterDeletion() throws {
    let store = makeStore()
    let author = try store.derivedNonNullEntity(Author.EntityID("a3"), in: \.library)
    store.commit {
      $0.library.performBatchUpdates { context in
        _ = try? context.entities.author.update(.init("a3")) { $0.name = "last" }
      }
    }
    store.commit { $0.library.performBatchUpdates { $0.entities.author.delete(.init("a3")) } }
    XCTAssertEqual(author.value.name, "last")
    XCTAssertThrowsError(try store.derivedNonNullEntity(Author.EntityID("nobody"), in: \.library)) {
      XCTAssertEqual($0 as? DatabaseError, .entityNotFound("Author(nobody)"))
    }
  }

  func testEntitiesInIndexOrder() {
    let store = makeStore()
    let shelf = store.derivedEntities(in: \.library, orderedBy: \.allBooks)
    let wakes = LockedCounter()
    shelf.sinkState(dropsFirst: true) { _ in wakes.increment() }.storeWhileSourceActive()
    XCTAssertEqual(shelf.value.map(\.rawID), (0..<10).map { "b\($0)" })
    store.commit { $0.counter += 1 }
    store.commit {
      $0.library.performBatchUpdates { context in
        context.entities.author.insert(Author(rawID: "new"))
      }
    }
    XCTAssertEqual(wakes.value, 0)
    store.commit { $0.library.performBatchUpdates { try? $0.indexes.allBooks.move(from: 0, to: 9) } }
    XCTAssertEqual(wakes.value, 1)
    XCTAssertEqual(shelf.value.last?.rawID, "b0")
  }

  func testManyDerivedEntitiesFollowOneUpdate() {
    let store = Store<LibraryState, Never>(initialState: LibraryState())
    store.commit {
      $0.library.performBatchUpdates { context in
        context.entities.author.insert((0..<2_000).map { Author(rawID: "a\($0)") })
      }
    }
    let derived = (0..<2_000).map { store.derivedEntity(Author.EntityID("a\($0)"), in: \.library) }
    let wakes = LockedCounter()
    for value in derived {
      value.sinkState(dropsFirst: true) { _ in wakes.increment() }.storeWhileSourceActive()
    }
    for round in 0..<20 {
      store.commit {
        $0.library.performBatchUpdates { context in
          _ = try? context.entities.author.update(.init("a\(round)")) { $0.name = "r\(round)" }
        }
      }
    }
    XCTAssertEqual(wakes.value, 20)
    XCTAssertEqual(derived[5].value?.name, "r5")
  }
}
