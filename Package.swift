// swift-tools-version: 6.0
import PackageDescription

/// recsh: a record shell. Dependencies point one way:
/// `recsh -> RecordShell -> RecordKit`; only `recsh` imports `CEditLine`, only
/// RecordKit's `CompiledPattern` imports `CPCRE2`, and only RecordShell's `Zstd` imports
/// `CZstd`.
/// Release builds make the libraries' code available for specialization in the
/// executables: the shell is generic over the record kind, and unspecialized it
/// looked up generic type metadata at run time dozens of times per edit.
///
/// Release builds also leave out the run-time checks of exclusive access to class
/// properties and globals (`-enforce-exclusivity=unchecked`): on the edit path they were
/// three million calls into the runtime for 100k edits, a twentieth of the instructions
/// (docs/PERFORMANCE.md). Debug builds, which every test runs, keep them, so an
/// overlapping access is still caught there; the compile-time checks stay in both.
let crossModule: [SwiftSetting] = [
  .unsafeFlags(
    ["-cross-module-optimization", "-enforce-exclusivity=unchecked"], .when(configuration: .release))
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
    // PCRE2 for schema patterns (RecordKit/Kinds/Patterns): bounded matches, JIT.
    .systemLibrary(
      name: "CPCRE2",
      pkgConfig: "libpcre2-8",
      providers: [.apt(["libpcre2-dev"])]
    ),
    // zstd for the history's copy of the file it starts from (RecordShell/Journal/Zstd).
    .systemLibrary(
      name: "CZstd",
      pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"])]
    ),
    // `rounded()` and friends call the C math library, which nothing else in RecordKit
    // links: an executable that imports RecordKit alone (a fuzz target) needs it named.
    .target(
      name: "RecordKit", dependencies: ["CPCRE2"], swiftSettings: crossModule,
      linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    .target(name: "RecordShell", dependencies: ["RecordKit", "CZstd"], swiftSettings: crossModule),
    .executableTarget(
      name: "recsh", dependencies: ["RecordShell", "CEditLine"], swiftSettings: crossModule,
      // A release recsh carries the Swift runtime inside: it starts without
      // loading six shared libraries, and runs where no toolchain is installed.
      linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),
    // Linked as recsh is, so that the round trip it measures costs what recsh's does.
    .executableTarget(
      name: "recsh-bench", dependencies: ["RecordShell"],
      linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),
    // libFuzzer targets, built only by scripts/fuzz (with the fuzzer sanitizer); no
    // product names them, so they never ship. Each main.swift defines only
    // LLVMFuzzerTestOneInput.
    .executableTarget(name: "FuzzCommandLine", dependencies: ["RecordShell"], path: "Tests/Fuzz/CommandLine"),
    .executableTarget(name: "FuzzJSON", dependencies: ["RecordKit"], path: "Tests/Fuzz/JSON"),
    .executableTarget(name: "FuzzRecordFile", dependencies: ["RecordKit"], path: "Tests/Fuzz/RecordFile"),
    .executableTarget(name: "FuzzJournal", dependencies: ["RecordShell"], path: "Tests/Fuzz/Journal"),
    .executableTarget(name: "FuzzSchema", dependencies: ["RecordKit"], path: "Tests/Fuzz/Schema"),
    .executableTarget(name: "FuzzCSV", dependencies: ["RecordKit"], path: "Tests/Fuzz/CSV"),
    .testTarget(name: "RecordKitTests", dependencies: ["RecordKit"]),
    .testTarget(name: "RecordShellTests", dependencies: ["RecordShell"]),
    .testTarget(name: "recshTests", dependencies: ["recsh", "RecordShell"]),
  ],
  swiftLanguageModes: [.v6]
)
