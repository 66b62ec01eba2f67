/// Where a script's lines come from: a file, `-c` text, standard input.
public protocol LineSource {
  /// The next line without its newline; `nil` at the end of input. A source
  /// that must wait for input (a pipe with nothing in it, a prompt) calls
  /// `beforeWaiting` first, so the shell can flush what it owes the reader.
  mutating func nextLine(beforeWaiting: () -> Void) -> String?
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
