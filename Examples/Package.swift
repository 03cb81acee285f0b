// swift-tools-version: 6.2
import PackageDescription

// The example programs and their tests, in a package of their own so that
// the library's package declares no executables: a user who depends on Verge
// keeps the target names `counter` and `comments`. It depends on the library
// by path and on swift-argument-parser for the programs' options (the library
// itself depends on nothing).
let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6)
]

let package = Package(
  name: "VergeExamples",
  platforms: [
    .macOS(.v15),
    .iOS(.v18),
    .tvOS(.v18),
    .watchOS(.v11),
    .visionOS(.v2),
  ],
  products: [
    .executable(name: "counter", targets: ["counter"]),
    .executable(name: "comments", targets: ["comments"]),
  ],
  dependencies: [
    .package(name: "Verge", path: ".."),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
  ],
  targets: [
    .executableTarget(
      name: "counter",
      dependencies: [
        .product(name: "Verge", package: "Verge"),
        .product(name: "VergeNeue", package: "Verge"),
        "ExampleTerminal",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "counter", exclude: ["README.md"], swiftSettings: strict),
    .executableTarget(
      name: "comments",
      dependencies: [
        .product(name: "Verge", package: "Verge"),
        .product(name: "VergeNeue", package: "Verge"),
        .product(name: "VergeORM", package: "Verge"),
        "ExampleTerminal",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "comments", exclude: ["README.md"], swiftSettings: strict),
    // What both programs share: lines of input read without stdio's locks,
    // output written at once, why a `--state-file` path is refused, how
    // a refused command line is told, and `--trace`.
    .target(
      name: "ExampleTerminal",
      dependencies: [
        .product(name: "Verge", package: "Verge"),
        .product(name: "VergeNeue", package: "Verge"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "ExampleTerminal", swiftSettings: strict),
    .testTarget(
      name: "ExamplesTests",
      dependencies: [
        "counter", "comments", "ExampleTerminal",
        .product(name: "Verge", package: "Verge"),
        .product(name: "VergeNeue", package: "Verge"),
        .product(name: "VergeORM", package: "Verge"),
        .product(name: "VergeTesting", package: "Verge"),
      ],
      path: "Tests/ExamplesTests", swiftSettings: strict),
  ]
)
