// swift-tools-version: 6.0
import PackageDescription

/// recsh: a record shell. Dependencies point one way:
/// `recsh -> RecordShell -> RecordKit`; only `recsh` imports `CEditLine`.
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
    .target(name: "RecordKit"),
    .target(name: "RecordShell", dependencies: ["RecordKit"]),
    .executableTarget(name: "recsh", dependencies: ["RecordShell", "CEditLine"]),
    .executableTarget(name: "recsh-bench", dependencies: ["RecordShell"]),
    .testTarget(name: "RecordKitTests", dependencies: ["RecordKit"]),
    .testTarget(name: "RecordShellTests", dependencies: ["RecordShell"]),
    .testTarget(name: "recshTests", dependencies: ["recsh", "RecordShell"]),
  ],
  swiftLanguageModes: [.v6]
)
