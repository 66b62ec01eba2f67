import Foundation
import Testing

@testable import RecordKit
@testable import RecordShell

/// Which form a session writes its steps in: a log of this version's format keeps a
/// one-field edit as a compact step and anything else as JSON; a log of the format before,
/// which a session goes on with, gets JSON steps only, so the recsh that wrote it can
/// still read it. Either way the history reads back whole.
@Suite struct LogFormatTests {
  typealias TaskSession = Session<TaskRecord>

  /// Each record's payload in the log of `t.json`.
  static func payloads(_ folder: TestDirectory) throws -> [[UInt8]] {
    try JournalFraming.read(try folder.read(folder.logPath("t.json"))).payloads.map { Array($0) }
  }

  static func run(_ folder: TestDirectory, _ lines: [String]) throws {
    var session = try retryingLock {
      try TaskSession.open(path: folder.path("t.json"), stateFolder: testState(for: folder.path("t.json")))
    }.session
    for line in lines { _ = try session.run(line: line) }
    session.close()
  }

  static let edits = [
    "use a1", #"set title "a \"b\" é""#, "set priority 3", "new title n", "use b2", "set +c 5", "save",
  ]

  @Test func aNewLogKeepsOneFieldEditsCompactAndTheRestAsJSON() throws {
    try TestDirectory.with { folder in
      try folder.write("t.json", JournalRecoveryTests.start)
      try Self.run(folder, Self.edits)
      let payloads = try Self.payloads(folder)
      #expect(String(decoding: payloads[0], as: UTF8.self).contains(#""format": 4"#))
      let steps = payloads.filter { $0.first == 2 || $0.starts(with: JournalEntry.performPrefix) }
      // title, priority, the new record, the custom key.
      #expect(steps.map { $0.first == 2 } == [true, true, false, true])
      #expect(
        steps[1] == [2, 0, 0, 0, 0, 0, 0, 8] + Array("priority".utf8) + [0, 2, 1, UInt8(ascii: "3")])
      // Read back, the steps are the ones made.
      var session = try TaskSession.open(
        path: folder.path("t.json"), stateFolder: testState(for: folder.path("t.json"))
      ).session
      let names = try session.run(line: "undo 4").description
      #expect(names.contains("Set title"))
      #expect(
        session.document.records
          == (try RecordFile<TaskRecord>.decode(JournalRecoveryTests.start)).document.records)
      session.close()
    }
  }

  /// The same log rewritten as the format before would have it; a session goes on with it
  /// in that format, and every step reads back.
  @Test func aLogOfTheFormatBeforeGoesOnWithJSONSteps() throws {
    try TestDirectory.with { folder in
      try folder.write("t.json", JournalRecoveryTests.start)
      try Self.run(folder, Self.edits)
      var older = JournalFraming.magic
      for (index, payload) in try Self.payloads(folder).enumerated() {
        var bytes = payload
        if index == 0 {
          let text = String(decoding: payload, as: UTF8.self)
          #expect(text.contains(#""format": 4"#))
          bytes = Array(text.replacingOccurrences(of: #""format": 4"#, with: #""format": 3"#).utf8)
        } else if payload.first == 2 {
          var json: [UInt8] = []
          try Command<TaskRecord>(decodingStep: payload).appendEncoded(to: &json)
          bytes = JournalEntry.performPrefix + json + [UInt8(ascii: "}")]
        }
        older += JournalFraming.record(sequence: UInt64(index), payload: bytes)
      }
      try folder.write(folder.logPath("t.json"), older, mode: 0o600)
      try Self.run(folder, ["use b2", "set title later", "set priority 4"])
      let payloads = try Self.payloads(folder)
      #expect(String(decoding: payloads[0], as: UTF8.self).contains(#""format": 3"#))
      #expect(!payloads.contains { $0.first == 2 })
      #expect(
        payloads.filter { $0.starts(with: JournalEntry.performPrefix) }.count == 6)
      var session = try TaskSession.open(
        path: folder.path("t.json"), stateFolder: testState(for: folder.path("t.json"))
      ).session
      _ = try session.run(line: "undo 6")
      #expect(
        session.document.records
          == (try RecordFile<TaskRecord>.decode(JournalRecoveryTests.start)).document.records)
      session.close()
    }
  }
}
