import Foundation
import Verge
import VergeORM
import VergeTestSupport
import XCTest

/// A database beside a 64 KiB part inline.
private struct LargeLibraryState: Equatable, Sendable {
  var library = Library()
  var large = LargeState()
}

@inline(never)
private func largeLibraryStore() -> Store<LargeLibraryState, Never> {
  Store(initialState: LargeLibraryState())
}

/// A store whose state holds a database beside a 64 KiB part is made, and
/// written through a batch, on a thread with a small stack (512 KiB in
/// optimized builds, `SmallStack.size` in unoptimized ones), as view models
/// are made on background threads and in tasks; its derived entity follows.
/// In a child process, so that a stack overflow fails the test instead of
/// ending the run.
final class SmallStackDatabaseTests: XCTestCase {
  func testMakingAndWritingADatabaseStore() throws {
    let (succeeded, stderr) = try SmallStack.runChild(
      test: "VergeORMTests.SmallStackDatabaseTests/testChildMaking", scenario: "Making")
    XCTAssertTrue(succeeded, "failed or crashed on a \(SmallStack.size / 1024) KiB stack:\n\(stderr)")
  }

  func testChildMaking() throws {
    guard SmallStack.isChild(running: "Making") else {
      throw XCTSkip("runs only as the child process of its parent test")
    }
    let names = SharedLock<[String?]>([])
    SmallStack.run {
      let store = largeLibraryStore()
      let author = store.derivedEntity(Author.EntityID("a1"), in: \.library)
      store.commit {
        $0.library.performBatchUpdates { context in
          context.entities.author.insert(Author(rawID: "a1", name: "Ursula"))
        }
        $0.large.count = 1
      }
      names.withLock { $0 = [author.value?.name] }
    }
    XCTAssertEqual(names.withLock { $0 }, ["Ursula"])
  }
}
