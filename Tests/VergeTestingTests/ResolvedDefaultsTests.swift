import Foundation
import XCTest

import Verge
import VergeTesting

/// The defaults of a store family: resolved once per key, whatever the
/// number of reads, threads, scopes and copies, and readable from many
/// threads while more are added.
final class ResolvedDefaultsTests: XCTestCase {
  func testADefaultIsResolvedOncePerStoreFamilyNotPerRead() async {
    let before = TokenKey.resolutions.withLock { $0 }
    let store = ActionStore(initialState: [], reducer: TokenReader())
    for _ in 0..<50 { store.send(.read) }
    await store.send(.readLater).finish()
    let first = store.dependencies.token
    // A copy with another value overridden shares the resolved defaults.
    var copy = store.dependencies
    copy.greeter = .named("copy")
    XCTAssertTrue(copy.token === first)
    XCTAssertEqual(store.state.current.count, 51)
    XCTAssertTrue(store.state.current.allSatisfy { $0 == ObjectIdentifier(first) }, "every read saw one value")
    XCTAssertEqual(TokenKey.resolutions.withLock { $0 } - before, 1, "resolved once for the store, not per read")

    // Another store resolves its own.
    let other = ActionStore(initialState: [], reducer: TokenReader())
    other.send(.read)
    XCTAssertEqual(TokenKey.resolutions.withLock { $0 } - before, 2)
    XCTAssertFalse(other.dependencies.token === first)

    // Another context starts from no resolved default.
    copy.context = .live
    XCTAssertFalse(copy.token === first)
    XCTAssertEqual(TokenKey.resolutions.withLock { $0 } - before, 3)
  }

  func testThreadsReadingADefaultFirstAllGetTheOneKept() {
    for _ in 0..<20 {
      let values = DependencyValues()
      let seen = SharedLock<Set<ObjectIdentifier>>([])
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        let token = values.token
        seen.withLock { _ = $0.insert(ObjectIdentifier(token)) }
      }
      XCTAssertEqual(seen.withLock { $0.count }, 1)
      XCTAssertEqual(seen.withLock { $0 }, [ObjectIdentifier(values.token)])
    }
  }

  func testManyDefaultsReadFromManyThreadsWhileMoreAreResolved() {
    // More keys than the first lists hold, so the list grows while other
    // threads read it.
    let readers = taggedReaders()
    XCTAssertGreaterThan(readers.count, 16)
    for _ in 0..<5 {
      let values = DependencyValues()
      let wrong = SharedLock(0)
      DispatchQueue.concurrentPerform(iterations: 4) { thread in
        for round in 0..<3 {
          for offset in readers.indices {
            let reader = readers[(offset + thread * 5 + round) % readers.count]
            if reader.read(values) != reader.expected { wrong.withLock { $0 += 1 } }
          }
        }
      }
      XCTAssertEqual(wrong.withLock { $0 }, 0)
      XCTAssertTrue(readers.allSatisfy { $0.read(values) == $0.expected })
    }
  }
}

/// A value whose identity tells which resolution made it.
final class Token: Sendable {}

/// A dependency that counts how often its default is resolved.
enum TokenKey: DependencyKey {
  static let resolutions = SharedLock(0)

  static var liveValue: Token {
    resolutions.withLock { $0 += 1 }
    return Token()
  }

  static var testValue: Token { liveValue }
}

extension DependencyValues {
  var token: Token {
    get { self[TokenKey.self] }
    set { self[TokenKey.self] = newValue }
  }
}

/// Records the identity of the token it reads, in its reduction and in an
/// effect that resumes on another thread.
struct TokenReader: ActionReducer {
  enum Action: Sendable, Equatable {
    case read
    case readLater
    case seen(ObjectIdentifier)
  }

  @Dependency(\.token) var token

  func reduce(into state: inout [ObjectIdentifier], action: Action) -> Effect<Action, Never> {
    switch action {
    case .read:
      state.append(ObjectIdentifier(token))
      return .none
    case .readLater:
      return .run { send in
        await resumeOnAnotherThread()
        send(.seen(ObjectIdentifier(token)))
      }
    case .seen(let id):
      state.append(id)
      return .none
    }
  }
}

/// A key per tag type, whose default names the tag.
enum TaggedKey<Tag>: DependencyKey {
  static var liveValue: String { String(describing: Tag.self) }
  static var testValue: String { liveValue }
}

/// Reads one tagged key, and what it should read.
struct TaggedReader: Sendable {
  let read: @Sendable (DependencyValues) -> String
  let expected: String

  init<Tag>(_ tag: Tag.Type) {
    read = { $0[TaggedKey<Tag>.self] }
    expected = String(describing: Tag.self)
  }
}

/// Readers of twenty distinct keys.
func taggedReaders() -> [TaggedReader] {
  [
    TaggedReader(Int.self), TaggedReader(Int8.self), TaggedReader(Int16.self), TaggedReader(Int32.self),
    TaggedReader(Int64.self), TaggedReader(UInt.self), TaggedReader(UInt8.self), TaggedReader(UInt16.self),
    TaggedReader(UInt32.self), TaggedReader(UInt64.self), TaggedReader(Double.self), TaggedReader(Float.self),
    TaggedReader(Bool.self), TaggedReader(String.self), TaggedReader(Character.self), TaggedReader([Int].self),
    TaggedReader([String].self), TaggedReader(Set<Int>.self), TaggedReader([Int: Int].self),
    TaggedReader(Optional<Int>.self),
  ]
}
