// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6)
]

let package = Package(
  name: "Verge",
  products: [
    .library(name: "Verge", targets: ["Verge"]),
    .library(name: "VergeNeue", targets: ["VergeNeue"]),
    .library(name: "VergeORM", targets: ["VergeORM"]),
    .library(name: "VergeTesting", targets: ["VergeTesting"]),
    .executable(name: "counter", targets: ["counter"]),
    .executable(name: "comments", targets: ["comments"]),
  ],
  targets: [
    .target(name: "Verge", swiftSettings: strict),
    .target(name: "VergeNeue", dependencies: ["Verge"], swiftSettings: strict),
    .target(name: "VergeORM", dependencies: ["Verge"], swiftSettings: strict),
    .target(name: "VergeTesting", dependencies: ["Verge", "VergeNeue"], swiftSettings: strict),
    .executableTarget(
      name: "counter", dependencies: ["Verge", "VergeNeue"], path: "Examples/counter",
      exclude: ["README.md"], swiftSettings: strict),
    .executableTarget(
      name: "comments", dependencies: ["Verge", "VergeNeue", "VergeORM"],
      path: "Examples/comments", exclude: ["README.md"], swiftSettings: strict),
    // Helpers shared by the test targets (a gate, a seeded generator); in no product.
    .target(
      name: "VergeTestSupport", dependencies: ["Verge"], path: "Tests/VergeTestSupport",
      swiftSettings: strict),
    .testTarget(name: "VergeTests", dependencies: ["Verge", "VergeTestSupport"], swiftSettings: strict),
    .testTarget(
      name: "VergeNeueTests", dependencies: ["VergeNeue", "VergeTestSupport"], swiftSettings: strict),
    .testTarget(
      name: "VergeORMTests", dependencies: ["VergeORM", "VergeTestSupport"], swiftSettings: strict),
    .testTarget(
      name: "VergeTestingTests", dependencies: ["VergeTesting", "VergeNeue", "VergeORM", "VergeTestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "ExamplesTests",
      dependencies: ["counter", "comments", "VergeTesting", "VergeNeue", "VergeORM", "VergeTestSupport"],
      swiftSettings: strict),
  ]
)
