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
  /// The whole lines the source holds now, lent to `body` together, so that the runner
  /// can read ahead of the line it runs: their bytes, from the next line to be read to
  /// the end of the last line feed held (each line ends with its line feed; a carriage
  /// return before one is the runner's to drop). `body` returns how many of the bytes it
  /// used, which must end a line (or be 0): those lines are read, and the next line read
  /// is the one after them. A source that holds no whole line reads more first, calling
  /// `beforeWaiting` before a read that would wait. Returns `false` when nothing was lent:
  /// at the end of input, before a last line without a line feed, or from a source that
  /// does not hold its lines so (a prompt's); the runner reads the next line with
  /// `withNextLine` then.
  mutating func withHeldLines(beforeWaiting: () -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Int) -> Bool
}

extension LineSource {
  /// Lends nothing: every line is read with `withNextLine`.
  public mutating func withHeldLines(beforeWaiting: () -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Int)
    -> Bool
  {
    false
  }

  mutating func withNextLine<Result>(
    beforeWaiting: () -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result? {
    guard var line = nextLine(beforeWaiting: beforeWaiting) else { return nil }
    return line.withUTF8(body)
  }
}

/// Lines of text already in memory (`-c`, a script file, a sourced file), kept as
/// bytes so that the runner sees exactly what the file holds.
public struct TextLines: LineSource {
  private let bytes: [UInt8]
  private var lines: [Range<Int>] = []
  private var index = 0
  /// Where the bytes after the last line feed start (0 without one): the lines before it
  /// are lent whole by `withHeldLines`.
  private var wholeLinesEnd = 0

  init(_ text: String) {
    self.init(bytes: Array(text.utf8))
  }

  /// Lines split at line feeds; a carriage return before one is dropped, and a last
  /// line feed ends the last line rather than starting an empty one.
  public init(bytes: [UInt8]) {
    self.bytes = bytes
    var start = 0
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      lines.append(start..<offset)
      start = offset + 1
    }
    wholeLinesEnd = start
    if start < bytes.count { lines.append(start..<bytes.count) }
    lines = lines.map { line in
      line.isEmpty || bytes[line.upperBound - 1] != UInt8(ascii: "\r")
        ? line : line.lowerBound..<(line.upperBound - 1)
    }
  }

  public mutating func nextLine(beforeWaiting: () -> Void) -> String? {
    withNextLine(beforeWaiting: beforeWaiting) { String(decoding: $0, as: UTF8.self) }
  }

  public mutating func withNextLine<Result>(
    beforeWaiting: () -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result? {
    guard index < lines.count else { return nil }
    index += 1
    let line = lines[index - 1]
    return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[line])) }
  }

  public mutating func withHeldLines(
    beforeWaiting: () -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Int
  ) -> Bool {
    guard index < lines.count, lines[index].lowerBound < wholeLinesEnd else { return false }
    let start = lines[index].lowerBound
    let used = bytes.withUnsafeBufferPointer {
      body(UnsafeBufferPointer(rebasing: $0[start..<wholeLinesEnd]))
    }
    while index < lines.count, lines[index].lowerBound < start + used { index += 1 }
    return true
  }
}
