import Testing
import VergeTesting

/// A default that needs itself to be computed stops the program with a
/// message naming its key, instead of waiting for itself forever.
@Suite struct DependencyCycleTests {
  @Test func aDefaultThatReadsItselfStopsNamingItsKey() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      withDependencies { _ in
      } operation: {
        @Dependency(\.selfReading) var value
        _ = value
      }
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(output.contains("SelfReadingKey"))
    #expect(output.contains("needs itself"))
  }

  @Test func aDefaultThatReadsItselfThroughAnotherStoreStopsNamingItsKey() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = DependencyValues().otherStoreReading
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(output.contains("OtherStoreReadingKey needs VergeTestingTests.OtherStoreReadingKey"))
    #expect(output.contains("needs itself"))
  }
}

/// A key whose default reads its own dependency.
enum SelfReadingKey: DependencyKey {
  static var liveValue: Int { testValue }
  static var testValue: Int {
    @Dependency(\.selfReading) var again
    return again + 1
  }
}

extension DependencyValues {
  var selfReading: Int { self[SelfReadingKey.self] }
}

/// A key whose default reads its own dependency through the values of a
/// store it makes, which resolve their defaults apart from the values
/// being resolved.
enum OtherStoreReadingKey: DependencyKey {
  static var liveValue: Int { testValue }
  static var testValue: Int {
    let store = Store<Int, Never>(initialState: 0)
    return store.dependencies.otherStoreReading + 1
  }
}

extension DependencyValues {
  var otherStoreReading: Int { self[OtherStoreReadingKey.self] }
}
