import Foundation
import Testing

@testable import RecordKit
@testable import RecordShell

/// Properties of `export`, `preview` and `diff` over random sessions of task edits: field
/// sets and unsets of every type (custom fields, a number spelled `2.50`, an object value),
/// list elements, `new` with a key, `insert`, deletions, bulk edits, groups and `rollback`,
/// undo, redo, `goto` onto other branches, `earlier` and `later`.
///
/// - `export` then the script run on the saved file gives the current state, byte for byte
///   after `save`; on a copy whose guarded value was changed, the script fails and the copy
///   is left byte-identical.
/// - `preview X` leaves the document, the history and the selection as they were, and prints
///   what `diff` prints after X is run; an edit previewed leaves the records' storage where
///   it was (it was edited in place and taken back, not copied).
/// - `diff A B` (as JSON) applied to A's records gives B's, and leaves the document as it was.
@Suite struct SeeingChangesPropertyTests {
  static let sessions =
    ProcessInfo.processInfo.environment["RECSH_EXPORT_MODEL_SESSIONS"].flatMap { Int($0) } ?? 300

  static let start = Array(
    #"""
    [
      {"id": "a1", "title": "one", "done": false, "priority": 2, "tags": ["x"], "cost": 2.50},
      {"id": "b2", "title": "two", "done": true, "tags": [], "due": "2026-12-01", "meta": {"k": [1, {"n": null}]}},
      {"id": "c3", "title": "three \"quoted\"\nline", "priority": 5, "note": "it's"}
    ]

    """#.utf8)

  /// A random command line of the generator.
  static func randomLine(_ g: inout SeededRandom, count: Int, serial: inout Int) -> String {
    let ref = "@\(Int(g.next() % UInt64(max(count, 1) + 1)) + 1)"
    let words = [
      "a", "b c", "it's", "q\"t", "tab\there", "1.50", "null", "-x", "é", "q\"\u{301}'", "a\u{202E}b",
      "back\\slash",
    ]
    let word = words[Int(g.next() % UInt64(words.count))]
    let text = ScriptWords.quoted(word)
    switch g.next() % 100 {
    case 0..<12: return "use \(ref); set title \(text)"
    case 12..<17: return "use \(ref); set priority \(g.next() % 6)"
    case 17..<20: return "use \(ref); set done \(g.next() % 2 == 0)"
    case 20..<24: return "use \(ref); set due 2027-0\(g.next() % 9 + 1)-1\(g.next() % 9)"
    case 24..<27: return "use \(ref); unset due"
    case 27..<31: return "use \(ref); add tags \(text)"
    case 31..<34: return "use \(ref); remove tags \(["x", "a", "b c"][Int(g.next() % 3)])"
    case 34..<38:
      return
        "use \(ref); set +\(["cost", "color", "note"][Int(g.next() % 3)]) \(["2.50", text, "7"][Int(g.next() % 3)])"
    case 38..<41: return "use \(ref); unset \(["cost", "color", "note", "meta"][Int(g.next() % 4)])"
    case 41..<46:
      serial += 1
      return "new id n\(serial) title \(text) priority \(g.next() % 6)"
    case 46..<49:
      serial += 1
      return "insert \(ref) "
        + ScriptWords.quoted(#"{"id": "i\#(serial)", "z": {"a": 1.0}, "title": "ins"}"#)
    case 49..<54: return "delete \(ref)"
    case 54..<58: return "set priority \(g.next() % 6) where title=\(text)"
    case 58..<60: return "delete where priority=\(g.next() % 6)"
    case 60..<66: return "begin"
    case 66..<72: return "end"
    case 72..<82: return "undo \(g.next() % 3 + 1)"
    case 82..<88: return "redo"
    case 88..<92: return "goto \(g.next() % 10)"
    case 92..<94: return "rollback"
    case 94..<96: return ["earlier 1save", "later 1save", "earlier 10m", "later 10m"][Int(g.next() % 4)]
    default: return "use \(ref); set title \(text) priority \(g.next() % 6)"
    }
  }

  /// A session over a copy of `start` in `folder`, without a log (what is checked is the
  /// document and its history in memory).
  static func open(_ folder: TestDirectory, _ name: String, _ bytes: [UInt8]) throws -> Session<TaskRecord> {
    try folder.write(name, bytes)
    var session = try Session<TaskRecord>.open(
      path: folder.path(name), fileSystem: PosixFileSystem(), undoLimit: 0, recovery: .refuse,
      stateFolder: testState(for: folder.path(name))
    ).session
    session.persistence.journal?.remove()
    session.persistence.journal = nil
    return session
  }

  static func runRandom(_ session: inout Session<TaskRecord>, _ g: inout SeededRandom, steps: Int) -> [String]
  {
    var serial = 0
    var lines: [String] = []
    for _ in 0..<steps {
      let line = randomLine(&g, count: session.document.count, serial: &serial)
      lines.append(line)
      _ = try? session.run(line: line)
    }
    return lines
  }

  /// Runs `body` for each of `sessions` random sessions: its seed, its generator, a new
  /// folder and a session over `start` there.
  static func forEachSession(
    _ body: (UInt64, inout SeededRandom, TestDirectory, inout Session<TaskRecord>) throws -> Void
  ) throws {
    let base = UInt64.random(in: 0...UInt64.max >> 1)
    for offset in 0..<UInt64(sessions) {
      let seed = base &+ offset
      var generator = SeededRandom(seed: seed)
      try TestDirectory.with { folder in
        var session = try open(folder, "t.json", start)
        try body(seed, &generator, folder, &session)
      }
    }
  }

  @Test func exportThenRunReproducesTheStateAndAChangedCopyIsRefused() throws {
    var mutationsChecked = 0
    // How many scripts edit, delete and insert records.
    var scriptParts = [0, 0, 0]
    try Self.forEachSession { seed, g, folder, session in
      let lines = Self.runRandom(&session, &g, steps: Int(g.next() % 24) + 1)
      let context = "seed \(seed): \(lines)"
      _ = try session.run(line: "export \(folder.path("e.rsh"))")
      _ = try session.run(line: "save! \(folder.path("now.json"))")
      let script = String(decoding: try folder.read("e.rsh"), as: UTF8.self)
      let expected = try folder.read("now.json")

      var replay = try Self.open(folder, "copy.json", Self.start)
      for line in script.split(separator: "\n") {
        do {
          _ = try replay.run(line: String(line))
        } catch {
          Issue.record("\(context)\nscript line \(line) failed: \(error)\n\(script)")
          return
        }
      }
      let replayed = try folder.read("copy.json")
      #expect(replayed == expected, "\(context)\n\(script)")
      for (index, part) in ["\nuse ", "\ndelete ", "\ninsert "].enumerated() where script.contains(part) {
        scriptParts[index] += 1
      }

      // Change a value the first guard checks, in a copy saved so: the script must stop
      // there, and the copy stay as it is.
      guard let guardLine = script.split(separator: "\n").first(where: { $0.hasPrefix("assert ") }) else {
        return
      }
      let ref = String(guardLine.split(separator: " ")[1])
      var changed = try Self.open(folder, "changed.json", Self.start)
      let mutation =
        guardLine.contains(" title== ") ? "use \(ref); set title mutated!" : "delete \(ref)"
      _ = try changed.run(line: mutation + "; save")
      let before = try folder.read("changed.json")
      var failed = false
      for line in script.split(separator: "\n") {
        do {
          _ = try changed.run(line: String(line))
        } catch {
          failed = true
          #expect(line.hasPrefix("assert "), "\(context): failed at \(line), not at a guard")
          break
        }
      }
      #expect(failed, "\(context): the script ran on a changed copy (\(mutation))\n\(script)")
      #expect(try folder.read("changed.json") == before, "\(context)")
      #expect(!changed.isDirty, "\(context): the failed script changed the copy in memory")
      mutationsChecked += 1
    }
    // Most random sessions change something; a generator that stopped doing so would
    // make the checks above vacuous.
    #expect(mutationsChecked > Self.sessions / 3)
    #expect(scriptParts.allSatisfy { $0 > Self.sessions / 10 }, "\(scriptParts)")
  }

  @Test func previewChangesNothingAndPrintsTheDiffOfRunningIt() throws {
    var previewsWithChanges = 0
    try Self.forEachSession { seed, g, folder, session in
      session.format = .json
      let lines = Self.runRandom(&session, &g, steps: Int(g.next() % 16))
      var serial = 100
      var line = Self.randomLine(&g, count: session.document.count, serial: &serial)
      // `preview` takes one command: select first.
      if let split = line.range(of: "; ") {
        _ = try? session.run(line: String(line[..<split.lowerBound]))
        line = String(line[split.upperBound...])
      }
      let context = "seed \(seed): \(lines) then preview \(line)"
      // A copy of the records that shares no array with the document, so that a copy of
      // the document's own arrays during the preview would show (the address check).
      let before = try Document(
        records: session.document.records.map { $0 }, numbers: session.document.numbers.map { $0 })
      let address = session.document.records.withUnsafeBufferPointer { $0.baseAddress }
      let history = session.editor.history.keptSteps.map { "\($0.number)<\($0.parent)" }
      let current = session.editor.history.current
      let groups = session.editor.openGroups.map(\.commands.count)
      let selected = session.selectedID
      let previewed: String?
      do {
        previewed = try session.run(line: "preview " + line).compactMap {
          if case .output(let text) = $0 { text } else { nil }
        }.first
      } catch {
        previewed = nil
      }
      #expect(session.document.records == before.records, "\(context)")
      #expect(session.document.numbers == before.numbers, "\(context)")
      #expect(session.editor.history.keptSteps.map { "\($0.number)<\($0.parent)" } == history, "\(context)")
      #expect(session.editor.history.current == current, "\(context)")
      #expect(session.editor.openGroups.map(\.commands.count) == groups, "\(context)")
      #expect(session.selectedID == selected, "\(context)")
      // An edit moves no record in or out: the preview edited the records where they are
      // and took the edit back, with no copy of them.
      if ["set ", "unset ", "add ", "remove "].contains(where: line.hasPrefix) {
        #expect(
          session.document.records.withUnsafeBufferPointer { $0.baseAddress } == address, "\(context)")
      }
      guard let previewed else {
        // A command that cannot run previews as an error, and running it fails too.
        #expect(
          (try? session.run(line: line)) == nil || line.hasPrefix("begin") || line.hasPrefix("end"),
          "\(context)")
        return
      }
      guard (try? session.run(line: line)) != nil else {
        Issue.record("\(context): previewed, but running it failed")
        return
      }
      let ran = DiffRenderer.render(RecordChanges(from: before, to: session.document), format: .json)
      #expect(previewed == ran, "\(context)")
      if previewed != "[]" { previewsWithChanges += 1 }
    }
    #expect(previewsWithChanges > Self.sessions / 3)
  }

  @Test func diffAppliedToTheFirstStateGivesTheSecond() throws {
    var nonEmpty = 0
    try Self.forEachSession { seed, g, folder, session in
      session.format = .json
      let lines = Self.runRandom(&session, &g, steps: Int(g.next() % 24) + 1)
      while !session.editor.openGroups.isEmpty { _ = try session.run(line: "end") }
      let last = session.editor.history.nextNumber - 1
      let (a, b) = (Int(g.next() % UInt64(last + 1)), Int(g.next() % UInt64(last + 1)))
      guard session.editor.history.isState(a), session.editor.history.isState(b) else { return }
      let context = "seed \(seed): \(lines); diff \(a) \(b)"
      let (held, numbers, next) =
        (session.document.records, session.document.numbers, session.document.nextNumber)
      let printed =
        try session.run(line: "diff \(a) \(b)").compactMap {
          if case .outputBytes(let bytes) = $0 { String(decoding: bytes, as: UTF8.self) } else { nil }
        }.first ?? ""
      // The document walked to both states and back: it is as it was.
      #expect(session.document.records == held && session.document.numbers == numbers, "\(context)")
      #expect(session.document.nextNumber == next, "\(context)")
      guard case .array(let rows) = try JSONValue.parse(bytes: Array(printed.utf8)) else {
        Issue.record("\(context): not an array: \(printed)")
        return
      }
      var records = Self.byKey(try session.editor.document(atState: a))
      for row in rows {
        guard case .object(let change) = row, case .string(let key)? = change["key"] else {
          Issue.record("\(context): bad row \(row)")
          return
        }
        if case .object(let added)? = change["added"] {
          records[key] = Self.sorted(added)
        } else if change["deleted"] != nil {
          records[key] = nil
        } else if case .string(let path)? = change["field"], let record = records[key] {
          records[key] = Self.sorted(
            Self.setting(record, path.split(separator: ".").map(String.init), change["new"]))
        }
      }
      #expect(records == Self.byKey(try session.editor.document(atState: b)), "\(context)\n\(printed)")
      if !rows.isEmpty { nonEmpty += 1 }
    }
    #expect(nonEmpty > Self.sessions / 3)
  }

  /// The records as JSON objects by key, members sorted (a diff says nothing of order).
  static func byKey(_ document: Document<TaskRecord>) -> [String: JSONObject] {
    var result: [String: JSONObject] = [:]
    for record in document.records { result[record.id] = sorted(TaskRecord.fields.encode(record)) }
    return result
  }

  static func sorted(_ object: JSONObject) -> JSONObject {
    JSONObject(
      object.members.sorted { $0.key < $1.key }.map { member in
        if case .object(let inner) = member.value {
          return .init(key: member.key, value: .object(sorted(inner)))
        }
        return member
      })
  }

  /// `object` with the member at `path` set to `value` (`nil`: removed).
  static func setting(_ object: JSONObject, _ path: [String], _ value: JSONValue?) -> JSONObject {
    var members = object.members
    let index = members.firstIndex { $0.key == path[0] }
    let inner: JSONValue?
    if path.count == 1 {
      inner = value
    } else {
      guard case .object(let nested)? = index.map({ members[$0].value }) else { return object }
      inner = .object(setting(nested, Array(path.dropFirst()), value))
    }
    if let index {
      if let inner { members[index].value = inner } else { members.remove(at: index) }
    } else if let inner {
      members.append(.init(key: path[0], value: inner))
    }
    return JSONObject(members)
  }
}
