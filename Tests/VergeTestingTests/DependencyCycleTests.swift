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
