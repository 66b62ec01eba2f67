import Glibc
import RecordShell

/// Lines from a pipe or file on standard input.
struct StandardInputLines: LineSource {
  mutating func nextLine() -> String? {
    readLine(strippingNewline: true)
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

  mutating func nextLine() -> String? {
    guard !used else { return nil }
    used = true
    sink.streams.flush()
    StandardStreams.writeAll(1, Array(prompt.utf8))
    guard let line = readLine(strippingNewline: true) else {
      StandardStreams.writeAll(1, [UInt8(ascii: "\n")])
      reachedEnd = true
      return nil
    }
    return line
  }
}
