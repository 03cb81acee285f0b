#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import Synchronization
import Verge
import VergeTestSupport
import XCTest

private struct Item: Identifiable, Equatable, Sendable {
  let id: Int
  var value = 0
}

private struct Edged: Equatable, Sendable {
  @ReferenceEdge var numbers = [1, 2, 3]
}

/// `.ci/tsan-suppressions` hides the sanitizer's false report of a
/// copy-on-write node written in place after a reader on another thread
/// released its copy, and nothing else: a race elsewhere in the same types'
/// files is still reported. Runs only under `swift test --sanitize=thread`
/// (as `.ci/run` does); each scenario runs in a child process given the
/// suppressions file, or none, and its sanitizer reports are read from its
/// standard error.
final class SanitizerSuppressionTests: XCTestCase {
  private static let child = ChildProcess(variable: "VERGE_TSAN_SUPPRESSION_CHILD")

  /// The repository's suppressions file, found from this file's path.
  private static let suppressions = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".ci/tsan-suppressions").path

  private func run(_ scenario: String, suppressed: Bool) throws -> ChildProcess.Outcome {
    guard isThreadSanitized else {
      throw XCTSkip("runs under the Thread Sanitizer only (swift test --sanitize=thread)")
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: Self.suppressions), Self.suppressions)
    let options = suppressed ? "suppressions=\(Self.suppressions)" : ""
    return try Self.child.run(
      test: "VergeTests.SanitizerSuppressionTests/testChild\(scenario)", scenario: scenario,
      environment: ["TSAN_OPTIONS": options])
  }

  func testAnInPlaceWriteAfterACopyWasReleasedIsReportedAndSuppressed() throws {
    let bare = try run("InPlaceWrites", suppressed: false)
    XCTAssertTrue(bare.stderr.contains("WARNING: ThreadSanitizer"), "the pattern no longer reports:\n\(bare.stderr)")
    let suppressed = try run("InPlaceWrites", suppressed: true)
    XCTAssertFalse(suppressed.stderr.contains("WARNING: ThreadSanitizer"), suppressed.stderr)
    XCTAssertTrue(suppressed.succeeded, suppressed.stdout)
  }

  func testARaceElsewhereInTheseFilesIsStillReported() throws {
    let outcome = try run("RaceElsewhere", suppressed: true)
    XCTAssertTrue(outcome.stderr.contains("WARNING: ThreadSanitizer"), outcome.stderr)
    XCTAssertTrue(outcome.stderr.contains("13PersistentMapV9removeAll"), outcome.stderr)
  }

  // MARK: - Children

  /// Each write of a copy-on-write node in place, after a copy was read
  /// and released on another thread.
  func testChildInPlaceWrites() throws {
    try onlyAsChild("InPlaceWrites")
    var array = IdentifiedArrayOf<Item>(uniqueElements: (0..<300).map { Item(id: $0) })
    writeAfterRelease(of: &array) { $0[id: 5]?.value += 1 }
    writeAfterRelease(of: &array) { $0[id: 6] = Item(id: 6, value: 9) }
    writeAfterRelease(of: &array) { $0[7].value += 1 }
    writeAfterRelease(of: &array) { $0[8] = Item(id: 8, value: 2) }
    writeAfterRelease(of: &array) { $0.updateOrAppend(Item(id: 9, value: 3)) }
    writeAfterRelease(of: &array) { $0.remove(id: 10) }
    writeAfterRelease(of: &array) { $0.remove(at: 20) }
    writeAfterRelease(of: &array) { $0.insert(Item(id: 1000), at: 3) }
    writeAfterRelease(of: &array) { $0.append(Item(id: 1001)) }
    writeAfterRelease(of: &array) { $0.move(fromOffsets: [1], toOffset: 150) }
    writeAfterRelease(of: &array) { $0.swapAt(2, 100) }
    XCTAssertEqual(array.count, 300)
    XCTAssertEqual(array[id: 5]?.value, 1)

    var map = PersistentMap<Int, Int>()
    for key in 0..<2_000 { map.updateValue(key, forKey: key) }
    writeAfterRelease(of: &map) { $0.updateValue(-1, forKey: 7) }
    writeAfterRelease(of: &map) { $0.updateValue(1, forKey: 5_000) }
    writeAfterRelease(of: &map) { $0.removeValue(forKey: 8) }
    XCTAssertEqual(map.count, 2_000)

    var edged = Edged()
    writeAfterRelease(of: &edged) { $0.numbers = [4] }
    writeAfterRelease(of: &edged) { $0.numbers.append(5) }
    XCTAssertEqual(edged.numbers, [4, 5])
  }

  /// Two threads empty one map with no lock: a race in `PersistentMap`'s
  /// own file, in a function that is not an in-place write.
  func testChildRaceElsewhere() throws {
    try onlyAsChild("RaceElsewhere")
    let shared = SharedMap()
    for key in 0..<100 { shared.map.updateValue(key, forKey: key) }
    let other = startThread { shared.map.removeAll() }
    shared.map.removeAll()
    other.join()
    XCTAssertEqual(shared.map.count, 0)
  }

  private func onlyAsChild(_ scenario: String) throws {
    guard Self.child.isRunning(scenario) else {
      throw XCTSkip("runs only as the child process of a SanitizerSuppressionTests test")
    }
  }
}

/// Reads everything through a copy of `value` on another thread, which then
/// releases the copy; once `value` is the only holder again (seen through
/// the runtime's reference count, which the sanitizer does not see), runs
/// `write` on it here, in place.
private func writeAfterRelease<Value>(of value: inout Value, _ write: (inout Value) -> Void) {
  var sentinel = Sentinel()
  let baton = Baton(copy: value, sentinel: sentinel)
  let reader = startThread {
    baton.read()
    baton.copy = nil
    baton.sentinel = nil
  }
  var spins = 0
  while !isKnownUniquelyReferenced(&sentinel) && spins < 100_000_000 {
    sched_yield()
    spins += 1
  }
  XCTAssertLessThan(spins, 100_000_000, "the reader did not release its copy")
  write(&value)
  reader.join()
}

private final class Sentinel {}

/// A copy handed to the reading thread, and released there.
///
/// `@unchecked Sendable`: made before the thread starts, used only by it
/// until the writer joins it.
private final class Baton<Value>: @unchecked Sendable {
  var copy: Value?
  var sentinel: Sentinel?

  init(copy: Value, sentinel: Sentinel) {
    self.copy = copy
    self.sentinel = sentinel
  }

  /// Reads every node the copy holds.
  func read() {
    switch copy {
    case let array as IdentifiedArrayOf<Item>:
      var total = 0
      for item in array { total &+= item.value }
      for id in array.ids { total &+= array[id: id]?.value ?? 0 }
      for index in array.indices { total &+= array[index].value }
      blackHole(total)
    case let map as PersistentMap<Int, Int>:
      var total = 0
      for (key, value) in map { total &+= key &+ value }
      for key in 0..<2_000 { total &+= map[key] ?? 0 }
      blackHole(total)
    case let edged as Edged:
      blackHole(edged.numbers.reduce(0, &+))
    default:
      XCTFail("nothing to read in \(String(describing: copy))")
    }
  }
}

/// A map two threads write with no lock, for the race the sanitizer must
/// still report.
///
/// `@unchecked Sendable`: racing on it is the point; `@exclusivity(unchecked)`
/// leaves the accesses to `PersistentMap`'s own code.
private final class SharedMap: @unchecked Sendable {
  @exclusivity(unchecked) var map = PersistentMap<Int, Int>()
}

@inline(never)
private func blackHole(_ value: Int) {
  withExtendedLifetime(value) {}
}

/// Starts `body` on a new thread; `join()` waits for it to end, through an
/// atomic flag, a synchronization the sanitizer sees (unlike the reference
/// count).
private func startThread(_ body: @escaping @Sendable () -> Void) -> Joinable {
  let joinable = Joinable()
  Thread {
    body()
    joinable.finished.store(true, ordering: .releasing)
  }.start()
  return joinable
}

private final class Joinable: Sendable {
  let finished = Atomic<Bool>(false)

  /// Waits until the thread's body has returned.
  func join() {
    var spins = 0
    while !finished.load(ordering: .acquiring) && spins < 100_000_000 {
      sched_yield()
      spins += 1
    }
    XCTAssertLessThan(spins, 100_000_000, "the thread did not end")
  }
}
