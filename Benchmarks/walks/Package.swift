// swift-tools-version: 6.0
import PackageDescription

// The four walks of the Architecture page: a program that makes each
// public call once, in a function of its own, so that `walks.sh` can count
// the library's functions that call visits. A package of its own, beside
// the benchmarks, so that it builds in debug without their dependencies.
let package = Package(
  name: "VergeWalks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Verge", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "VergeWalks",
      dependencies: [
        .product(name: "Verge", package: "Verge"),
        .product(name: "VergeNeue", package: "Verge"),
        .product(name: "VergeTesting", package: "Verge"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    )
  ]
)
