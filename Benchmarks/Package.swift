// swift-tools-version: 6.0
import PackageDescription

// The benchmark suite is its own package so that users of the library never
// resolve or build it. It depends on the library by path and on nothing else.
let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6)
]

let package = Package(
  name: "VergeBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Verge", path: "..")
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
