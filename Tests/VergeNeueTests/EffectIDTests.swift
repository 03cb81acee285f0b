import XCTest

@testable import VergeNeue

/// An effect id of a class with a subclass.
class BaseEffectKey: Hashable {
  let value: Int
  init(_ value: Int) { self.value = value }
  static func == (lhs: BaseEffectKey, rhs: BaseEffectKey) -> Bool { lhs.value == rhs.value }
  func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// A subclass of `BaseEffectKey`.
final class DerivedEffectKey: BaseEffectKey {}

final class EffectIDTests: XCTestCase {
  func testIDsAreEqualWhenTheirValuesAreOfOneTypeAndEqual() {
    XCTAssertEqual(EffectID("search"), EffectID("search"))
    XCTAssertNotEqual(EffectID("search"), EffectID("other"))
    XCTAssertNotEqual(EffectID(1), EffectID("1"))
    XCTAssertEqual(Set([EffectID(1), EffectID(1), EffectID("1")]).count, 2)
  }

  func testAnIDOfASubclassEqualsOneOfItsBaseClassInEitherOrder() {
    XCTAssertEqual(EffectID(BaseEffectKey(1)), EffectID(DerivedEffectKey(1)))
    XCTAssertEqual(EffectID(DerivedEffectKey(1)), EffectID(BaseEffectKey(1)))
    XCTAssertNotEqual(EffectID(DerivedEffectKey(1)), EffectID(BaseEffectKey(2)))
  }
}
