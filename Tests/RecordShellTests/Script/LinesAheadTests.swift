import Foundation
import RecordKit
import Testing

@testable import RecordShell

/// A source's held lines run read ahead (`LinesAhead`, `LineSource.withHeldLines`): that
/// must do exactly what running the same lines one at a time does.
@Suite struct LinesAheadTests {
  /// A source that lends one line at a time only, as a prompt does: the runner's way
  /// before lines were read ahead, the model the held lines are checked against.
  struct OneLineAtATime: LineSource {
    var lines: TextLines

    mutating func nextLine(beforeWaiting: () -> Void) -> String? {
      lines.nextLine(beforeWaiting: beforeWaiting)
    }

    mutating func withNextLine<Result>(
      beforeWaiting: () -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
      lines.withNextLine(beforeWaiting: beforeWaiting, body)
    }
  }

  static let ids = (0..<40).map { "r\($0)" }

  /// 40 tasks `r0`…`r39`.
  static var file: [UInt8] {
    let records = ids.enumerated().map { index, id in
      #"{"id": "\#(id)", "title": "t\#(index)", "priority": \#(index % 6)}"#
    }
    return Array(("[" + records.joined(separator: ",\n") + "]\n").utf8)
  }

  /// Random scripts of fast-lane lines (`use` of ids there, gone, new or ambiguous; `set`s
  /// good and bad) mixed with lines the fast lane does not take (`show`, `list`, `new`,
  /// `insert` of a record a later `use` names, `delete`, `undo`, groups, comments, blank
  /// lines, a quoted value that goes on to the next line, bytes that are not UTF-8, `quit`),
  /// in lines ended by line feeds or carriage return and line feed, the last one sometimes
  /// without: run by one runner from held lines and by another one line at a time, over
  /// copies of one file, the events (output, errors and their lines), the records, the
  /// history and the saved file agree, with and without `-k` and `-e`.
  @Test(arguments: [(false, false), (true, false), (true, true), (false, true)])
  func heldLinesRunAsSingleLinesDo(keepGoing: Bool, echo: Bool) throws {
    var generator = SplitMix64(seed: keepGoing ? 71 : 73)
    for round in 0..<12 {
      let script = Self.randomScript(using: &generator, quitting: round % 4 == 3)
      var outcomes: [(events: [ScriptEvent], records: [TaskRecord], history: [Reply], saved: [UInt8])] = []
      for heldLines in [true, false] {
        try TestDirectory.with { folder in
          try folder.write("t.json", Self.file)
          let session = try Session<TaskRecord>.open(path: folder.path("t.json"), stateFolder: folder.state)
            .session
          var events: [ScriptEvent] = []
          var runner = ScriptRunner(session: session, readFile: { _ in [] }, emit: { events.append($0) })
          runner.keepGoing = keepGoing
          runner.echo = echo
          if heldLines {
            var lines = TextLines(bytes: script)
            runner.run(&lines, name: "s")
          } else {
            var lines = OneLineAtATime(lines: TextLines(bytes: script))
            runner.run(&lines, name: "s")
          }
          let history = try runner.session.run(line: "history all")
          _ = try runner.session.run(line: "save")
          outcomes.append(
            (
              events.filter { $0 != .flush }, runner.session.document.records, history,
              try folder.read("t.json")
            ))
        }
      }
      let text = String(decoding: script, as: UTF8.self)
      #expect(outcomes[0].events == outcomes[1].events, "\(text)")
      #expect(outcomes[0].records == outcomes[1].records, "\(text)")
      #expect(outcomes[0].history == outcomes[1].history, "\(text)")
      #expect(outcomes[0].saved == outcomes[1].saved, "\(text)")
      // The scripts did something: some lines ran and changed records, and some failed.
      #expect(outcomes[0].saved != Self.file || !keepGoing)
      #expect(outcomes[0].events.contains { if case .diagnostic = $0 { true } else { false } })
    }
  }

  /// A script of 300 random lines, as `heldLinesRunAsSingleLinesDo` says; `quitting`: a
  /// `quit` among its last lines.
  static func randomScript(using generator: inout SplitMix64, quitting: Bool) -> [UInt8] {
    let fast = [
      "use r\(Int.random(in: 0..<45, using: &generator))", "use r1", "use new1", "use new2", "use r",
      "use @3",
      "set title word", "set title \"two words\"", "set title café", "set priority 3", "set priority x",
      "set done true", "set due 2024-02-30",
    ]
    let slow = [
      "show", "list priority=3 limit 2", "new id new2 title fresh",
      "insert @2 {\"id\":\"new1\",\"title\":\"n\"}",
      "delete", "undo", "redo", "begin g", "end", "# a comment", "", "   ", "set title \"first\nsecond\"",
      "count", "set priority 1 title both",
    ]
    var bytes: [UInt8] = []
    let count = 300
    let quitAt = quitting ? Int.random(in: (count - 20)..<count, using: &generator) : -1
    for index in 0..<count {
      let pick = Int.random(in: 0..<10, using: &generator)
      var line: [UInt8]
      if index == quitAt {
        line = Array("quit".utf8)
      } else if pick < 7 {
        line = Array(fast[Int.random(in: 0..<fast.count, using: &generator)].utf8)
        if line == Array("use r1".utf8), Int.random(in: 0..<4, using: &generator) == 0 {
          line = Array("use r".utf8) + [0xFF]
        }
      } else {
        line = Array(slow[Int.random(in: 0..<slow.count, using: &generator)].utf8)
      }
      bytes += line
      if index == count - 1, Bool.random(using: &generator) { break }
      bytes += Int.random(in: 0..<5, using: &generator) == 0 ? [0x0D, 0x0A] : [0x0A]
    }
    return bytes
  }
}
