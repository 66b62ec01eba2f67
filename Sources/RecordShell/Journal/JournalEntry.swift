import RecordKit

/// One thing the journal records. The first entry of a journal is always the header.
enum JournalEntry: Equatable, Sendable {
  /// What the journal applies to: the saved file's content hash (`nil`: no file
  /// yet), and who wrote it.
  /// `numbers`: the base file's records' numbers, as runs, when they are not 0, 1, 2…
  /// (the session renumbers nothing at a save; see `Document`).
  case header(base: String?, pid: Int32, time: Double, kind: String, numbers: [NumberRun]? = nil)
  /// A command performed: a new step, or an edit inside the open group.
  case perform(JSONValue)
  /// A command of a group that was open at a save: its effect is in the saved
  /// file, so replay records it in the group without applying it (a later
  /// `rollback` must still revert it).
  case applied(JSONValue)
  case begin(name: String?, origin: String?)
  case end
  case rollback
  case undo
  case redo
  /// The whole document, as records: the history starts again from here (after
  /// an undo or redo that goes beyond the steps the journal holds).
  case snapshot([JSONValue])

  var json: JSONValue {
    switch self {
    case .header(let base, let pid, let time, let kind, let numbers):
      var object = JSONObject()
      object["base"] = base.map(JSONValue.string) ?? .null
      object["pid"] = .number(String(pid))
      object["time"] = .number(String(Int64(time)))
      object["kind"] = .string(kind)
      if let numbers {
        object["numbers"] = .array(
          numbers.map { .array([.number($0.first.description), .number(String($0.count))]) })
      }
      return .object(JSONObject(["header": .object(object)]))
    case .perform(let command): return .object(JSONObject(["do": command]))
    case .applied(let command): return .object(JSONObject(["applied": command]))
    case .begin(let name, let origin):
      return .object(
        JSONObject([
          "begin": name.map(JSONValue.string) ?? .null, "origin": origin.map(JSONValue.string) ?? .null,
        ]))
    case .end: return .object(JSONObject(["end": .bool(true)]))
    case .rollback: return .object(JSONObject(["rollback": .bool(true)]))
    case .undo: return .object(JSONObject(["undo": .bool(true)]))
    case .redo: return .object(JSONObject(["redo": .bool(true)]))
    case .snapshot(let records): return .object(JSONObject(["snapshot": .array(records)]))
    }
  }

  var payload: [UInt8] { json.compactUTF8 }

  init(payload: [UInt8], record: Int) throws(JournalError) {
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes: payload)
    } catch {
      throw .badEntry(record: record, reason: error.description)
    }
    guard case .object(let object) = value, let first = object.members.first else {
      throw .badEntry(record: record, reason: "not an object")
    }
    switch (first.key, first.value) {
    case ("header", .object(let header)):
      var base: String?
      if case .string(let text)? = header["base"] { base = text }
      var pid: Int32 = 0
      if case .number(let text)? = header["pid"] { pid = Int32(text) ?? 0 }
      var time = 0.0
      if case .number(let text)? = header["time"] { time = Double(text) ?? 0 }
      var kind = ""
      if case .string(let text)? = header["kind"] { kind = text }
      var numbers: [NumberRun]?
      if let value = header["numbers"] {
        guard case .array(let runs) = value else {
          throw .badEntry(record: record, reason: "the header's \"numbers\" is not a list")
        }
        numbers = []
        for run in runs {
          guard case .array(let pair) = run, pair.count == 2, case .number(let first) = pair[0],
            case .number(let count) = pair[1], let start = UInt32(first), let length = Int(count), length >= 0
          else { throw .badEntry(record: record, reason: "the header's \"numbers\" holds a bad run") }
          numbers?.append(NumberRun(first: RecordNumber(start), count: length))
        }
      }
      self = .header(base: base, pid: pid, time: time, kind: kind, numbers: numbers)
    case ("do", let command): self = .perform(command)
    case ("applied", let command): self = .applied(command)
    case ("begin", let name):
      var origin: String?
      if case .string(let text)? = object["origin"] { origin = text }
      if case .string(let text) = name {
        self = .begin(name: text, origin: origin)
      } else {
        self = .begin(name: nil, origin: origin)
      }
    case ("end", _): self = .end
    case ("rollback", _): self = .rollback
    case ("undo", _): self = .undo
    case ("redo", _): self = .redo
    case ("snapshot", .array(let records)): self = .snapshot(records)
    default: throw .badEntry(record: record, reason: "unknown entry \"\(first.key)\"")
    }
  }
}
