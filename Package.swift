// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6)
]

let package = Package(
  name: "Verge",
  products: [
    .library(name: "Verge", targets: ["Verge"])
  ],
  targets: [
    .target(name: "Verge", swiftSettings: strict),
    .testTarget(name: "VergeTests", dependencies: ["Verge"], swiftSettings: strict),
  ]
)
