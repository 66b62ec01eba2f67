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
    while true {
      if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[start..<newline], as: UTF8.self)
        start = newline + 1
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        let line = String(decoding: buffer[start...], as: UTF8.self)
        start = buffer.count
        return line
      }
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
}

/// Lines typed at a plain prompt (line editing comes with libedit). One
/// prompt per line read; the runner makes a new reader to refresh the prompt.
struct PromptLines: LineSource {
  let prompt: String
  let sink: EventSink
  private(set) var reachedEnd = false
  private var used = false

  init(prompt: String, sink: EventSink) {
    self.prompt = prompt
    self.sink = sink
  }

  mutating func nextLine(beforeWaiting: () -> Void) -> String? {
    guard !used else { return nil }
    used = true
    beforeWaiting()
    StandardStreams.writeAll(1, Array(prompt.utf8))
    guard let line = readLine(strippingNewline: true) else {
      StandardStreams.writeAll(1, [UInt8(ascii: "\n")])
      reachedEnd = true
      return nil
    }
    return line
  }
}
