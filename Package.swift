// swift-tools-version: 6.0
import PackageDescription

/// recsh: a record shell. Dependencies point one way:
/// `recsh -> RecordShell -> RecordKit`; only `recsh` imports `CEditLine`, only
/// RecordKit's `CompiledPattern` imports `CPCRE2`, only RecordKit's `CacheHint` imports
/// `CCacheHint`, and only RecordShell's `Zstd` imports `CZstd`.
/// Release builds make the libraries' code available for specialization in the
/// executables: the shell is generic over the record kind, and unspecialized it
/// looked up generic type metadata at run time dozens of times per edit.
///
/// Release builds also leave out the run-time checks of exclusive access to class
/// properties and globals (`-enforce-exclusivity=unchecked`): on the edit path they were
/// three million calls into the runtime for 100k edits, a twentieth of the instructions
/// (docs/PERFORMANCE.md). Debug builds, which every test runs, keep them, so an
/// overlapping access is still caught there; the compile-time checks stay in both.
///
/// Release builds put each function in a section of its own (`-function-sections`), so
/// that the link can leave out what nothing calls and lay out the rest in the order
/// `releaseLink` gives.
let crossModule: [SwiftSetting] = [
  .unsafeFlags(
    ["-cross-module-optimization", "-enforce-exclusivity=unchecked", "-Xfrontend", "-function-sections"],
    .when(configuration: .release))
]

/// How a release executable is linked. It carries the Swift runtime inside
/// (`-static-stdlib`): it starts without loading six shared libraries, and runs where no
/// toolchain is installed. It is linked by the toolchain's lld, which
/// - lays out the functions a session runs side by side, in the order of
///   `Sources/recsh/LinkOrder.txt` (written by `scripts/link-order`; a name the build no
///   longer has is passed over): the kernel maps a program's code 64 KiB around each page
///   it runs, so code spread over the whole binary kept two thirds of it in memory;
/// - packs the relocations the loader applies at start (`-z pack-relative-relocs`: 700 KB
///   of them became 6 KB; glibc 2.36 or later reads them).
/// The figures are in docs/PERFORMANCE.md ("The program's own pages").
let releaseLink: [LinkerSetting] = [
  .unsafeFlags(
    [
      "-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
      "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/recsh/LinkOrder.txt",
      "-Xlinker", "--no-warn-symbol-ordering",
    ], .when(configuration: .release))
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
    // The compiler's prefetch hint, which Swift cannot spell (RecordKit/Support/CacheHint).
    .target(name: "CCacheHint"),
    // `rounded()` and friends call the C math library, which nothing else in RecordKit
    // links: an executable that imports RecordKit alone (a fuzz target) needs it named.
    .target(
      name: "RecordKit", dependencies: ["CPCRE2", "CCacheHint"], swiftSettings: crossModule,
      linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    .target(name: "RecordShell", dependencies: ["RecordKit", "CZstd"], swiftSettings: crossModule),
    .executableTarget(
      name: "recsh", dependencies: ["RecordShell", "CEditLine"], exclude: ["LinkOrder.txt"],
      swiftSettings: crossModule, linkerSettings: releaseLink),
    // Linked as recsh is, so that the round trip it measures costs what recsh's does.
    .executableTarget(name: "recsh-bench", dependencies: ["RecordShell"], linkerSettings: releaseLink),
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
