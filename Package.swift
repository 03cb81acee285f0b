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
  ],
  targets: [
    .target(name: "Verge", swiftSettings: strict),
    .target(name: "VergeNeue", dependencies: ["Verge"], swiftSettings: strict),
    .target(name: "VergeORM", dependencies: ["Verge"], swiftSettings: strict),
    .testTarget(name: "VergeTests", dependencies: ["Verge"], swiftSettings: strict),
    .testTarget(name: "VergeNeueTests", dependencies: ["VergeNeue"], swiftSettings: strict),
    .testTarget(name: "VergeORMTests", dependencies: ["VergeORM"], swiftSettings: strict),
  ]
)
