import Foundation

/// Runs the built `recsh` binary, as a user would, and captures what it did.
struct RecshBinary {
  struct Result {
    var stdout: String
    var stderr: String
    var status: Int32
  }

  /// The binary beside the test bundle, in the build products folder.
  static var url: URL {
    let products = Bundle.main.bundleURL.deletingLastPathComponent()
    let candidate = products.appendingPathComponent("recsh")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/recsh")
  }

  static func run(_ arguments: [String], stdin: String = "", directory: URL? = nil) throws -> Result {
    try run(arguments, stdinBytes: Array(stdin.utf8), directory: directory)
  }

  /// The same with `environment` added to the test's own.
  static func run(_ arguments: [String], directory: URL, environment: [String: String]) throws -> Result {
    try launch(url, arguments, stdin: [], directory: directory, environment: environment)
  }

  /// The same with standard input given as bytes (which need not be UTF-8).
  static func run(_ arguments: [String], stdinBytes: [UInt8], directory: URL? = nil) throws -> Result {
    try launch(url, arguments, stdin: stdinBytes, directory: directory)
  }

  /// Runs `script` with `/bin/sh` in `directory`, `$RECSH` naming the binary (for what a
  /// `Process` cannot do itself: a `ulimit`, arguments that are not UTF-8), with
  /// `environment` added to the test's own; standard input is empty.
  static func runShell(_ script: String, environment extra: [String: String] = [:], directory: URL) throws
    -> Result
  {
    try launch(
      URL(fileURLWithPath: "/bin/sh"), ["-c", script], stdin: [], directory: directory,
      environment: extra.merging(["RECSH": url.path]) { _, new in new })
  }

  /// Runs `executable` with the test's environment (no line history, no NO_COLOR) plus
  /// `extra`, feeds it `stdin`, and captures what it printed and its status.
  /// The state folder of runs in no folder of their own: one per test process, under the
  /// temporary folder, never the user's.
  static let sharedStateFolder = NSTemporaryDirectory() + "/recsh-tests-state-\(getpid())"

  private static func launch(
    _ executable: URL, _ arguments: [String], stdin: [UInt8], directory: URL?,
    environment extra: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var environment = ProcessInfo.processInfo.environment
    environment["RECSH_HISTORY"] = ""
    environment["NO_COLOR"] = nil
    environment["RECSH_STATE_DIR"] = directory.map(stateFolder(for:)) ?? Self.sharedStateFolder
    environment.merge(extra) { _, new in new }
    process.environment = environment
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    ignoreBrokenPipes()
    // recsh may end before reading all of it (a file it cannot open).
    try? input.fileHandleForWriting.write(contentsOf: Data(stdin))
    try? input.fileHandleForWriting.close()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
      status: process.terminationStatus)
  }
}

/// Writing to a pipe whose reader has ended raises SIGPIPE, which by default
/// ends the whole test process, every suite with it. Ignored, the write fails
/// with EPIPE instead, which the helpers expect. Children get their signals
/// reset (`forkpty` tests) or ignore SIGPIPE themselves (recsh).
func ignoreBrokenPipes() {
  signal(SIGPIPE, SIG_IGN)
}
