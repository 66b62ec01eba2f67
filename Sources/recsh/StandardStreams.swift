import Glibc
import RecordShell

/// Standard output and error, written with `write(2)`: output is buffered and
/// flushed before recsh waits for input, so a program driving it through pipes
/// sees each answer at once. On a terminal, control characters are shown
/// escaped so that no text can drive it.
struct StandardStreams {
  private var buffer: [UInt8] = []
  let outputIsTerminal = isatty(1) == 1
  let errorIsTerminal = isatty(2) == 1

  mutating func out(_ text: String) {
    var text = outputIsTerminal ? TextCell.terminalSafe(text) : text
    // A long output (a list of a million records) is written from the string's own
    // storage: copying it into the buffer first cost as much as making it.
    if text.utf8.count > 1 << 16 {
      flush()
      text.withUTF8 { Self.writeAll(1, $0) }
      Self.writeAll(1, [UInt8(ascii: "\n")])
      return
    }
    buffer += text.utf8
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count > 1 << 16 { flush() }
  }

  /// Output already UTF-8: written as is, unless to a terminal, which gets it made safe.
  mutating func out(bytes: [UInt8]) {
    guard !outputIsTerminal else { return out(String(decoding: bytes, as: UTF8.self)) }
    flush()
    Self.writeAll(1, bytes)
    Self.writeAll(1, [UInt8(ascii: "\n")])
  }

  mutating func err(_ text: String) {
    flush()
    Self.writeAll(
      2, Array((errorIsTerminal ? TextCell.terminalSafe(text) : text).utf8) + [UInt8(ascii: "\n")])
  }

  mutating func flush() {
    guard !buffer.isEmpty else { return }
    Self.writeAll(1, buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes everything, going on after short writes. A reader that went away
  /// (EPIPE; SIGPIPE is ignored) ends recsh quietly: see `BrokenPipe`.
  static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { writeAll(descriptor, $0) }
  }

  static func writeAll(_ descriptor: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
      if written < 0 && errno == EINTR { continue }
      if written < 0 && errno == EPIPE { BrokenPipe.exitQuietly() }
      if written <= 0 { return }
      offset += written
    }
  }
}

/// What a closed output pipe (`recsh … | head -1`) does: end quietly, the data
/// file untouched. The log is left open when it holds unsaved changes (as after a
/// hang-up, they can be recovered) and closed normally when it holds none.
enum BrokenPipe {
  /// The session's journal; the one global the exit path needs, set once the file is open.
  nonisolated(unsafe) static var journal: Journal?

  static func exitQuietly() -> Never {
    if let journal {
      journal.write()
      if journal.holdsChanges { journal.abandon() } else { journal.close() }
    }
    _exit(0)
  }
}
