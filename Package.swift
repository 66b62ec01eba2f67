// swift-tools-version: 6.0
import PackageDescription

/// recsh: a record shell. Dependencies point one way:
/// `recsh -> RecordShell -> RecordKit`; only `recsh` imports `CEditLine`.
/// Release builds make the libraries' code available for specialization in the
/// executables: the shell is generic over the record kind, and unspecialized it
/// looked up generic type metadata at run time dozens of times per edit.
let crossModule: [SwiftSetting] = [
  .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))
]

let package = Package(
  name: "recsh",
  products: [
    .executable(name: "recsh", targets: ["recsh"])
  ],
  targets: [
    .systemLibrary(
      name: "CEditLine",
      pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"])]
    ),
    .target(name: "RecordKit", swiftSettings: crossModule),
    .target(name: "RecordShell", dependencies: ["RecordKit"], swiftSettings: crossModule),
    .executableTarget(
      name: "recsh", dependencies: ["RecordShell", "CEditLine"],
      // A release recsh carries the Swift runtime inside: it starts without
      // loading six shared libraries, and runs where no toolchain is installed.
      linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),
    // Linked as recsh is, so that the round trip it measures costs what recsh's does.
    .executableTarget(
      name: "recsh-bench", dependencies: ["RecordShell"],
      linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),
    .testTarget(name: "RecordKitTests", dependencies: ["RecordKit"]),
    .testTarget(name: "RecordShellTests", dependencies: ["RecordShell"]),
    .testTarget(name: "recshTests", dependencies: ["recsh", "RecordShell"]),
  ],
  swiftLanguageModes: [.v6]
)
