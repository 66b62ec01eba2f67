import Foundation

/// A running `recsh` driven through pipes, as a program would drive it: send a
/// line, read the answer as it comes.
final class InteractivePipe {
  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let errors = Pipe()
  private var received = Data()

  struct Timeout: Error, CustomStringConvertible {
    var waitingFor: String
    var received: String
    var description: String {
      "timed out waiting for \(waitingFor.debugDescription); got \(received.debugDescription)"
    }
  }

  init(arguments: [String], directory: URL) throws {
    process.executableURL = RecshBinary.url
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["RECSH_HISTORY"] = ""
    environment["RECSH_STATE_DIR"] = stateFolder(for: directory)
    process.environment = environment
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
  }

  func send(_ text: String) {
    ignoreBrokenPipes()
    try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
  }

  /// Reads standard output until `marker` has arrived; everything read so far.
  func readUntil(_ marker: String, seconds: Double = 20) throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    let descriptor = output.fileHandleForReading.fileDescriptor
    while !String(decoding: received, as: UTF8.self).contains(marker) {
      guard Date() < deadline else {
        throw Timeout(waitingFor: marker, received: String(decoding: received, as: UTF8.self))
      }
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 65536)
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      received.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: received, as: UTF8.self)
  }

  /// Forgets what was read so far, so the next `readUntil` waits for new output.
  func clearReceived() {
    received.removeAll()
  }

  /// Closes standard input and waits; the result with all output.
  func finish() -> RecshBinary.Result {
    try? input.fileHandleForWriting.close()
    let rest = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    received.append(rest)
    return RecshBinary.Result(
      stdout: String(decoding: received, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
      status: process.terminationStatus)
  }

  func close() {
    _ = finish()
  }
}

extension RecshBinary {
  /// Starts recsh, lets it read the file and answer `firstInput` + `show`,
  /// changes the file behind its back, then sends `rest`.
  static func runChangingFile(
    _ arguments: [String], directory: URL, firstInput: String, change path: String, rest: String
  ) throws -> Result {
    let session = try InteractivePipe(arguments: arguments, directory: directory)
    session.send(firstInput + "show\n")
    _ = try session.readUntil("id  ")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    try (text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    session.send(rest)
    return session.finish()
  }
}
