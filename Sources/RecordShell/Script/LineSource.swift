/// Where a script's lines come from: a file, `-c` text, standard input.
public protocol LineSource {
  /// The next line without its newline; `nil` at the end of input. A source
  /// that must wait for input (a pipe with nothing in it, a prompt) calls
  /// `beforeWaiting` first, so the shell can flush what it owes the reader.
  mutating func nextLine(beforeWaiting: () -> Void) -> String?
  /// The next line's UTF-8 bytes, lent to `body` for the call only; `nil` at the end of
  /// input. A source that holds its input as bytes lends them in place, so a line the
  /// parser's fast lane takes is never made into a `String`.
  mutating func withNextLine<Result>(
    beforeWaiting: () -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result?
}

extension LineSource {
  public mutating func withNextLine<Result>(
    beforeWaiting: () -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result? {
    guard var line = nextLine(beforeWaiting: beforeWaiting) else { return nil }
    return line.withUTF8(body)
  }
}

/// Lines of text already in memory (`-c`, a sourced file).
public struct TextLines: LineSource {
  private var lines: [Substring]
  private var index = 0

  public init(_ text: String) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if text.hasSuffix("\n") { lines.removeLast() }
    self.lines = lines.map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
  }

  public mutating func nextLine(beforeWaiting: () -> Void) -> String? {
    guard index < lines.count else { return nil }
    index += 1
    return String(lines[index - 1])
  }
}
