import Glibc
import RecordShell

/// Lines from a pipe or file on standard input, read in large chunks. Before
/// a read that would block (nothing buffered, nothing ready), the runner is
/// told, so output and the journal are flushed exactly when recsh waits — a
/// million piped edits cost a few large journal writes, not a million.
struct StandardInputLines: LineSource {
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false

  mutating func nextLine(beforeWaiting: () -> Void) -> String? {
    withNextLine(beforeWaiting: beforeWaiting) { String(decoding: $0, as: UTF8.self) }
  }

  /// The next line's bytes without its line feed (or carriage return and line feed),
  /// lent from the buffer; at the end of input also a last line without one.
  mutating func withNextLine<Result>(
    beforeWaiting: () -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result? {
    while true {
      if let line = nextLineRange() {
        defer { start = line.next }
        return buffer.withUnsafeBufferPointer { bytes in
          body(UnsafeBufferPointer(rebasing: bytes[line.bytes]))
        }
      }
      if atEnd { return nil }
      if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      var ready = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
      if poll(&ready, 1, 0) == 0 { beforeWaiting() }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let count = read(0, &chunk, chunk.count)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 {
        atEnd = true
      } else {
        buffer += chunk[0..<count]
      }
    }
  }

  /// Where the next whole line's bytes are in the buffer, and where the line after starts.
  private func nextLineRange() -> (bytes: Range<Int>, next: Int)? {
    buffer.withUnsafeBufferPointer { bytes -> (bytes: Range<Int>, next: Int)? in
      guard let base = bytes.baseAddress, start < bytes.count else { return nil }
      guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) else {
        return atEnd ? (start..<bytes.count, bytes.count) : nil
      }
      let newline = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
      var end = newline
      if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      return (start..<end, newline + 1)
    }
  }
}

/// Lines typed at the prompt, with line editing. One prompt per reader: the
/// runner makes a new one to show the prompt as it is after each command.
///
/// Ctrl-C cancels the line (`^C`, a fresh prompt); a line that ends inside a
/// quote or list goes on at a continuation prompt and is joined with "\n";
/// Ctrl-D on an empty line is the end of input (`reachedEnd`).
struct EditedLines: LineSource {
  let editor: LineEditor
  let prompt: String
  let continuationPrompt: String
  /// Given up once the line is read: it shares the document's storage.
  private var completion: CompletionContext?
  private(set) var reachedEnd = false

  init(editor: LineEditor, prompt: String, continuationPrompt: String, completion: CompletionContext) {
    self.editor = editor
    self.prompt = prompt
    self.continuationPrompt = continuationPrompt
    self.completion = completion
  }

  mutating func nextLine(beforeWaiting: () -> Void) -> String? {
    guard let context = completion else { return nil }
    completion = nil
    beforeWaiting()
    while true {
      switch editor.readLine(prompt: prompt, completion: context) {
      case .interrupted:
        Self.cancelled()
      case .end:
        StandardStreams.writeAll(1, Array("\n".utf8))
        reachedEnd = true
        return nil
      case .line(let first):
        guard let line = continued(first, context) else {
          Self.cancelled()
          continue
        }
        editor.remember(line)
        return line
      }
    }
  }

  /// `line` and its continuation lines while it ends inside a quote or list;
  /// `nil` after a Ctrl-C. Ctrl-D gives what was typed, which the runner
  /// reports as unterminated.
  private func continued(_ line: String, _ context: CompletionContext) -> String? {
    var line = line
    while Tokenizer.needsContinuation(line) {
      switch editor.readLine(prompt: continuationPrompt, earlierLines: line, completion: context) {
      case .interrupted: return nil
      case .end:
        StandardStreams.writeAll(1, Array("\n".utf8))
        return line
      case .line(let more): line += "\n" + more
      }
    }
    return line
  }

  /// libedit leaves the cursor on the cancelled line.
  private static func cancelled() {
    StandardStreams.writeAll(1, Array("^C\n".utf8))
  }
}
