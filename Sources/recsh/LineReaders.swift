import Glibc
import RecordShell

/// Lines from a pipe or file on standard input, read in large chunks. Before
/// a read that would block (nothing buffered, nothing ready), the runner is
/// told, so output and the journal are flushed exactly when recsh waits — a
/// million piped edits cost a few large journal writes, not a million.
struct StandardInputLines: LineSource {
  private var buffer: [UInt8] = []
  private var start = 0
  /// Where the bytes after the buffer's last line feed start (0 without one): the whole
  /// lines `withHeldLines` lends end there. Found as each chunk is read, so a call costs
  /// no search.
  private var wholeLinesEnd = 0
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
      readMore(beforeWaiting: beforeWaiting)
    }
  }

  /// The buffered whole lines, from the next line to the last line feed, lent together;
  /// when none is held, reads until one is or input ends.
  mutating func withHeldLines(beforeWaiting: () -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Int) -> Bool
  {
    while true {
      if wholeLinesEnd > start {
        let used = buffer.withUnsafeBufferPointer { bytes in
          body(UnsafeBufferPointer(rebasing: bytes[start..<wholeLinesEnd]))
        }
        start += used
        return true
      }
      if atEnd { return false }
      readMore(beforeWaiting: beforeWaiting)
    }
  }

  /// Reads the next chunk of input into the buffer (after dropping the lines already
  /// read), or marks the end of input; `beforeWaiting` first when nothing is ready.
  private mutating func readMore(beforeWaiting: () -> Void) {
    if start > 0 {
      buffer.removeFirst(start)
      wholeLinesEnd = max(0, wholeLinesEnd - start)
      start = 0
    }
    var ready = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    if poll(&ready, 1, 0) == 0 { beforeWaiting() }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = read(0, &chunk, chunk.count)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 {
        atEnd = true
      } else {
        let old = buffer.count
        buffer += chunk[0..<count]
        if let newline = buffer[old...].lastIndex(of: UInt8(ascii: "\n")) { wholeLinesEnd = newline + 1 }
      }
      return
    }
  }

  /// Where the next whole line's bytes are in the buffer, and where the line after starts.
  private func nextLineRange() -> (bytes: Range<Int>, next: Int)? {
    buffer.withUnsafeBufferPointer { bytes -> (bytes: Range<Int>, next: Int)? in
      guard let base = bytes.baseAddress, start < bytes.count else { return nil }
      guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) else {
        return atEnd ? (start..<bytes.count, bytes.count) : nil
      }
      let newline = UnsafeRawPointer(found) - UnsafeRawPointer(base)
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
/// Ctrl-D on an empty line is the end of input (`reachedEnd`); a hang-up or
/// termination signal ends input too (`terminatingSignal`). A line with bytes
/// typed that are not UTF-8 is lent with those bytes in it, so the runner
/// refuses it as it refuses such a script line.
struct EditedLines: LineSource {
  let editor: LineEditor
  let prompt: String
  let continuationPrompt: String
  /// Given up once the line is read: it shares the document's storage.
  private var completion: CompletionContext?
  private(set) var reachedEnd = false
  /// SIGHUP or SIGTERM, when one ended input.
  private(set) var terminatingSignal: Int32?

  init(editor: LineEditor, prompt: String, continuationPrompt: String, completion: CompletionContext) {
    self.editor = editor
    self.prompt = prompt
    self.continuationPrompt = continuationPrompt
    self.completion = completion
  }

  mutating func nextLine(beforeWaiting: () -> Void) -> String? {
    readInput(beforeWaiting: beforeWaiting)?.text
  }

  mutating func withNextLine<Result>(
    beforeWaiting: () -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result? {
    guard let input = readInput(beforeWaiting: beforeWaiting) else { return nil }
    return Self.bytes(of: input.text, invalidBytes: input.invalidBytes).withUnsafeBufferPointer(body)
  }

  /// The line's UTF-8 bytes with the typed bytes that were not UTF-8 back in place of
  /// the U+FFFD libedit was given for them, in order. When some were deleted before
  /// Return, the later U+FFFDs of the line stand for the earlier bytes: the line is
  /// refused all the same, at the first of them.
  static func bytes(of text: String, invalidBytes: [UInt8]) -> [UInt8] {
    let bytes = Array(text.utf8)
    guard !invalidBytes.isEmpty else { return bytes }
    let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var next = invalidBytes.makeIterator()
    var index = 0
    while index < bytes.count {
      if bytes[index...].starts(with: replacement), let byte = next.next() {
        result.append(byte)
        index += replacement.count
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return result
  }

  private mutating func readInput(beforeWaiting: () -> Void) -> (text: String, invalidBytes: [UInt8])? {
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
      case .terminated(let signal):
        terminatingSignal = signal
        return nil
      case .line(let first, let invalidBytes):
        var input = (text: first, invalidBytes: invalidBytes)
        guard continued(&input, context) else {
          if terminatingSignal != nil { return nil }
          Self.cancelled()
          continue
        }
        editor.remember(input.text)
        return input
      }
    }
  }

  /// Adds the continuation lines while `input` ends inside a quote or list; `false`
  /// after a Ctrl-C or a terminating signal. Ctrl-D gives what was typed, which the
  /// runner reports as unterminated.
  private mutating func continued(
    _ input: inout (text: String, invalidBytes: [UInt8]), _ context: CompletionContext
  ) -> Bool {
    while Tokenizer.needsContinuation(input.text) {
      switch editor.readLine(prompt: continuationPrompt, earlierLines: input.text, completion: context) {
      case .interrupted: return false
      case .terminated(let signal):
        terminatingSignal = signal
        return false
      case .end:
        StandardStreams.writeAll(1, Array("\n".utf8))
        return true
      case .line(let more, let invalidBytes):
        input.text += "\n" + more
        input.invalidBytes += invalidBytes
      }
    }
    return true
  }

  /// libedit leaves the cursor on the cancelled line.
  private static func cancelled() {
    StandardStreams.writeAll(1, Array("^C\n".utf8))
  }
}
