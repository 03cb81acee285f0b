import Foundation
import Synchronization

extension DependencyValues {
  /// The clock effects wait on: `ContinuousClock` live, a `TestClock` (one
  /// per store, shared with its scopes and children) in tests.
  ///
  /// ```swift
  /// @Dependency(\.clock) var clock
  /// // in an effect:
  /// try await clock.sleep(for: .seconds(1))
  /// ```
  public var clock: any Clock<Duration> {
    get { self[ClockKey.self] }
    set { self[ClockKey.self] = newValue }
  }

  /// "Now": the current date live, a fixed date in tests
  /// (`DateGenerator.testDate`).
  public var date: DateGenerator {
    get { self[DateKey.self] }
    set { self[DateKey.self] = newValue }
  }

  /// Makes UUIDs: random live; in tests counting up from
  /// `00000000-0000-0000-0000-000000000000`, one count per store.
  public var uuid: UUIDGenerator {
    get { self[UUIDKey.self] }
    set { self[UUIDKey.self] = newValue }
  }

  /// Random numbers: the system's generator live; in tests a generator
  /// seeded with 0, so every run draws the same numbers.
  public var random: RandomGenerator {
    get { self[RandomKey.self] }
    set { self[RandomKey.self] = newValue }
  }
}

/// The key of `DependencyValues.clock`.
enum ClockKey: DependencyKey {
  static var liveValue: any Clock<Duration> { ContinuousClock() }
  static var testValue: any Clock<Duration> { TestClock() }
}

/// The key of `DependencyValues.date`.
enum DateKey: DependencyKey {
  static var liveValue: DateGenerator { .live }
  static var testValue: DateGenerator { .constant(DateGenerator.testDate) }
}

/// The key of `DependencyValues.uuid`.
enum UUIDKey: DependencyKey {
  static var liveValue: UUIDGenerator { .live }
  static var testValue: UUIDGenerator { .incrementing }
}

/// The key of `DependencyValues.random`.
enum RandomKey: DependencyKey {
  static var liveValue: RandomGenerator { .live }
  static var testValue: RandomGenerator { .seeded(0) }
}

/// Tells the date: "now" as a dependency.
///
/// ```swift
/// @Dependency(\.date) var date
/// state.createdAt = date.now
/// ```
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date

  /// A generator that returns what `generate` returns.
  ///
  /// - Parameter generate: Returns "now".
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The current date.
  public var now: Date { generate() }

  /// The current date.
  ///
  /// - Returns: "Now".
  public func callAsFunction() -> Date { generate() }

  /// The system's clock.
  public static var live: DateGenerator { DateGenerator { Date() } }

  /// Always `date`.
  ///
  /// - Parameter date: The date to return.
  /// - Returns: A generator that returns `date`.
  public static func constant(_ date: Date) -> DateGenerator { DateGenerator { date } }

  /// The date tests get unless they override it: 2001-01-01 00:00:00 UTC.
  public static let testDate = Date(timeIntervalSinceReferenceDate: 0)
}

/// Makes UUIDs: a dependency, so that tests can predict them.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// let id = uuid()
/// ```
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// A generator that returns what `generate` returns.
  ///
  /// - Parameter generate: Makes one UUID.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  /// A new UUID.
  ///
  /// - Returns: The next UUID.
  public func callAsFunction() -> UUID { generate() }

  /// Random UUIDs (`UUID()`).
  public static var live: UUIDGenerator { UUIDGenerator { UUID() } }

  /// A new generator that counts: `00000000-0000-0000-0000-000000000000`,
  /// then `…-000000000001`, and so on; each one made counts on its own.
  public static var incrementing: UUIDGenerator {
    let counter = SharedCounter()
    return UUIDGenerator { UUID(counting: counter.next()) }
  }

  /// Always `uuid`.
  ///
  /// - Parameter uuid: The UUID to return.
  /// - Returns: A generator that returns `uuid`.
  public static func constant(_ uuid: UUID) -> UUIDGenerator { UUIDGenerator { uuid } }
}

/// A counter an escaping closure can share.
private final class SharedCounter: Sendable {
  private let counter = Atomic<UInt64>(0)

  func next() -> UInt64 {
    counter.add(1, ordering: .relaxed).newValue - 1
  }
}

extension UUID {
  /// The UUID whose last 12 hexadecimal digits are `count`.
  init(counting count: UInt64) {
    let hex = String(count, radix: 16)
    let digits = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    self.init(uuidString: "00000000-0000-0000-0000-" + digits.suffix(12))!
  }
}

/// Random numbers as a dependency: seed it in tests for repeatable draws.
///
/// ```swift
/// @Dependency(\.random) var random
/// let roll = random { Int.random(in: 1...6, using: &$0) }
/// ```
public struct RandomGenerator: Sendable {
  private let source: Source

  /// A generator that draws from `generator`, shared by the copies of
  /// this value.
  ///
  /// - Parameter generator: Where the numbers come from.
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    source = Source(generator)
  }

  /// Runs `body` with a generator to draw from.
  ///
  /// - Parameter body: Draws numbers (`Int.random(in:using:)`).
  /// - Returns: What `body` returned.
  public func callAsFunction<Result>(_ body: (inout Source) -> Result) -> Result {
    var source = source
    return body(&source)
  }

  /// The system's generator.
  public static var live: RandomGenerator { RandomGenerator(SystemRandomNumberGenerator()) }

  /// A generator whose draws depend only on `seed`.
  ///
  /// - Parameter seed: Any number; equal seeds draw equal numbers.
  /// - Returns: A new seeded generator.
  public static func seeded(_ seed: UInt64) -> RandomGenerator { RandomGenerator(SeededRandomNumbers(seed: seed)) }

  /// Where a `RandomGenerator`'s numbers come from; pass it to the
  /// standard library's `random(in:using:)`.
  public struct Source: RandomNumberGenerator, Sendable {
    private let generator: Box

    init(_ generator: some RandomNumberGenerator & Sendable) {
      self.generator = Box(generator)
    }

    /// The next 64 random bits.
    ///
    /// - Returns: The next number.
    public mutating func next() -> UInt64 {
      generator.next()
    }

    /// The generator, under a lock.
    private final class Box: Sendable {
      let generator: LockedBox<any RandomNumberGenerator & Sendable>

      init(_ generator: some RandomNumberGenerator & Sendable) {
        self.generator = LockedBox(generator)
      }

      func next() -> UInt64 {
        generator.withLock { generator in generator.next() }
      }
    }
  }
}

/// SplitMix64: a small generator whose numbers depend only on its seed.
struct SeededRandomNumbers: RandomNumberGenerator, Sendable {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
