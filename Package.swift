// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6)
]

// The example programs and their tests live in their own package under
// Examples/, so that depending on the library reserves none of the user's
// target names.
let package = Package(
  name: "Verge",
  // Synchronization's Atomic, used on the hot paths, sets the floor
  // (Observation alone would allow macOS 14 / iOS 17); see README.md,
  // "Requirements".
  platforms: [
    .macOS(.v15),
    .iOS(.v18),
    .tvOS(.v18),
    .watchOS(.v11),
    .visionOS(.v2),
  ],
  products: [
    .library(name: "VergeCollections", targets: ["VergeCollections"]),
    .library(name: "Verge", targets: ["Verge"]),
    .library(name: "VergeNeue", targets: ["VergeNeue"]),
    .library(name: "VergeORM", targets: ["VergeORM"]),
    .library(name: "VergeTesting", targets: ["VergeTesting"]),
  ],
  targets: [
    // The one C file: a thread-local pointer that the store core reads on
    // every commit (see its header). Not a product of its own.
    .target(name: "VergeThreadLocal"),
    // IdentifiedArray and the persistent trie and tree under it: usable
    // without a store, and re-exported by Verge.
    .target(name: "VergeCollections", swiftSettings: strict),
    .target(name: "Verge", dependencies: ["VergeCollections", "VergeThreadLocal"], swiftSettings: strict),
    .target(name: "VergeNeue", dependencies: ["Verge"], swiftSettings: strict),
    .target(name: "VergeORM", dependencies: ["Verge", "VergeCollections"], swiftSettings: strict),
    .target(name: "VergeTesting", dependencies: ["Verge", "VergeNeue"], swiftSettings: strict),
    // Helpers shared by the test targets (a gate, a seeded generator); in no product.
    .target(
      name: "VergeTestSupport", dependencies: ["Verge"], path: "Tests/VergeTestSupport",
      swiftSettings: strict),
    .testTarget(
      name: "VergeCollectionsTests", dependencies: ["VergeCollections", "VergeTestSupport"], swiftSettings: strict),
    .testTarget(name: "VergeTests", dependencies: ["Verge", "VergeTestSupport"], swiftSettings: strict),
    .testTarget(
      name: "VergeNeueTests", dependencies: ["VergeNeue", "VergeTestSupport"], swiftSettings: strict),
    .testTarget(
      name: "VergeORMTests", dependencies: ["VergeORM", "VergeNeue", "VergeTestSupport"], swiftSettings: strict),
    .testTarget(
      name: "VergeTestingTests", dependencies: ["VergeTesting", "VergeNeue", "VergeORM", "VergeTestSupport"],
      swiftSettings: strict),
  ]
)
