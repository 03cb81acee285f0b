// swift-tools-version: 6.0
import PackageDescription

// The benchmark suite is its own package so that users of the library never
// resolve or build it. It depends on the library by path, and on the two
// collections the library's `IdentifiedArray` is measured against (scenario
// 14): swift-identified-collections and swift-collections' `TreeDictionary`.
let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6)
]

let package = Package(
  name: "VergeBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Verge", path: ".."),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
  ],
  targets: [
    // Counts calls to malloc and friends, by interposing them (Linux only).
    .target(name: "CAllocationCounter"),
    // Callgrind's client requests (start, stop, dump), for counting
    // instructions of the timed loop only; no-ops without valgrind's header.
    .target(name: "CCallgrind"),
    // The hand-written store every scenario is compared with.
    .target(name: "BaselineStore", swiftSettings: strict),
    .executableTarget(
      name: "VergeBenchmarks",
      dependencies: [
        .product(name: "Verge", package: "Verge"),
        .product(name: "VergeNeue", package: "Verge"),
        .product(name: "VergeORM", package: "Verge"),
        .product(name: "VergeTesting", package: "Verge"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "HashTreeCollections", package: "swift-collections"),
        "BaselineStore", "CAllocationCounter", "CCallgrind",
      ],
      swiftSettings: strict
    ),
    // Checks the harness itself: formatting, verdicts, and that allocations
    // are really counted.
    .testTarget(
      name: "VergeBenchmarksTests",
      dependencies: ["VergeBenchmarks", "CAllocationCounter"],
      swiftSettings: strict
    ),
  ]
)
