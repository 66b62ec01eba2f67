import RecordKit

/// One record of the history log. The first is the header; a log that keeps a base
/// has it next (`.base`, the only record whose payload is not JSON).
///
/// The log is one append-only file that is both the crash journal and the history
/// kept across sessions: steps (`do`, and `begin`/`end`/`rollback` around them), moves
/// (`goto`), saves, and each session's `open` and normal `close`. Reading it back
/// rebuilds the undo tree without touching the document (`JournalReplay`).
enum JournalEntry: Equatable, Sendable {
  /// The log's format and what it starts from. `base`: the content hash of the file the
  /// start state was saved as (`nil`: none). `numbers`: the start state's records'
  /// numbers, as runs, when not 0, 1, 2…. `start`: the start state's number. `kind` names
  /// the kind the file was edited with; `schema` is a run-time kind's schema.
  case header(Header)
  /// The start state's records, as a data file of the kind (the `RecordFile` encoding),
  /// with their content hash. The payload is the mark, the hash's length (one byte), the
  /// hash, then the records; its CRC-32 covers what comes before the records
  /// (`JournalFraming.checkedLength`), and the records are checked by their hash when
  /// they are needed, so that a long copy of a big file is not checksummed at every open.
  case base(hash: String, records: [UInt8])
  /// A session began writing (`pid`), at `time`, with `kind`.
  case open(pid: Int32, time: Double, kind: String)
  /// A command performed: a new step, or an edit inside the open group. Held as the
  /// bytes the log keeps of it, which a replay keeps undecoded until the step is needed
  /// (`StoredCommand`): a one-field edit's compact step (`EditStep`, its own payload, in
  /// logs of format 4 on), any other command's JSON encoding (`Command.appendEncoded`,
  /// in a payload `{"do": …}`).
  case perform([UInt8])
  case begin(name: String?, origin: String?)
  case end
  case rollback
  /// The document moved to state `state` (undo, redo, goto, earlier, later).
  case goto(Int)
  /// The session began at state `state`, the saved file's, where `redo` goes unchanged
  /// from every state (`History.place(at:)`).
  case place(Int)
  /// Steps from here on were made at `time` (seconds since 1970): written when the second changes.
  case time(Double)
  /// The next step is numbered `number` (a compacted log skips the dropped ones).
  case number(Int)
  /// The file was saved holding state `state`, with content hash `hash`; `numbers`: its
  /// records' numbers when not 0, 1, 2…. `pending`: a save inside a group also holds the
  /// group's changes so far, this many commands (the log's last ones in open groups).
  case save(hash: String, state: Int, time: Double, numbers: [NumberRun]?, pending: Int = 0)
  /// The save logged last is on disk: its file was renamed into place.
  case saved
  /// The session ended normally at `time`.
  case close(Double)

  /// The header's contents.
  struct Header: Equatable, Sendable {
    /// 2: the history log. 1: the crash journal of earlier versions (no base, no saves).
    var format = JournalEntry.format
    var base: String?
    var pid: Int32
    var time: Double
    var kind: String
    var schema: JSONValue?
    var numbers: [NumberRun]?
    var start = 0
  }

  /// The format this version writes; a newer one is refused. 4: a one-field edit is a
  /// compact step (`EditStep`); 3, whose edits are JSON lists (`Command.encoded()`), and 2,
  /// whose edits are objects, are read too. A session that goes on with a log of an older
  /// format writes its steps as that format does (`Journal.writesCompactSteps`), so that
  /// the recsh that wrote it can still read it.
  static let format = 4
  /// The first format whose logs hold compact steps.
  static let compactStepFormat = 4
  /// The first byte of a `.base` payload whose records follow as they are (a JSON payload
  /// starts with `{`).
  static let baseMark: UInt8 = 0
  /// The first byte of a `.base` payload whose records follow as one zstd frame: what
  /// this version writes.
  static let compressedBaseMark: UInt8 = 1

  /// Whether a payload whose first byte is `first` holds start records.
  static func isBase(_ first: UInt8?) -> Bool { first == baseMark || first == compressedBaseMark }

  var json: JSONValue {
    switch self {
    case .header(let header):
      var object = JSONObject()
      object["format"] = .number(String(header.format))
      object["base"] = header.base.map(JSONValue.string) ?? .null
      object["pid"] = .number(String(header.pid))
      object["time"] = .number(String(Int64(header.time)))
      object["kind"] = .string(header.kind)
      if let schema = header.schema { object["schema"] = schema }
      if let numbers = header.numbers { object["numbers"] = Self.encode(numbers) }
      if header.start != 0 { object["start"] = .number(String(header.start)) }
      return .object(JSONObject(["header": .object(object)]))
    case .base: return .null
    case .open(let pid, let time, let kind):
      return .object(
        JSONObject([
          "open": .object(
            JSONObject([
              "pid": .number(String(pid)), "time": .number(String(Int64(time))), "kind": .string(kind),
            ]))
        ]))
    case .perform(let command):
      return .object(JSONObject(["do": (try? JSONValue.parse(bytes: command)) ?? .null]))
    case .begin(let name, let origin):
      return .object(
        JSONObject([
          "begin": name.map(JSONValue.string) ?? .null, "origin": origin.map(JSONValue.string) ?? .null,
        ]))
    case .end: return .object(JSONObject(["end": .bool(true)]))
    case .rollback: return .object(JSONObject(["rollback": .bool(true)]))
    case .goto(let state): return .object(JSONObject(["goto": .number(String(state))]))
    case .place(let state): return .object(JSONObject(["place": .number(String(state))]))
    case .time(let time): return .object(JSONObject(["time": .number(String(Int64(time)))]))
    case .number(let number): return .object(JSONObject(["number": .number(String(number))]))
    case .save(let hash, let state, let time, let numbers, let pending):
      var object = JSONObject()
      object["save"] = .string(hash)
      object["state"] = .number(String(state))
      object["time"] = .number(String(Int64(time)))
      if let numbers { object["numbers"] = Self.encode(numbers) }
      if pending > 0 { object["pending"] = .number(String(pending)) }
      return .object(object)
    case .saved: return .object(JSONObject(["saved": .bool(true)]))
    case .close(let time): return .object(JSONObject(["close": .number(String(Int64(time)))]))
    }
  }

  var payload: [UInt8] {
    switch self {
    case .base(let hash, let records):
      let frame = Zstd.compress(records)
      return frame.isEmpty
        ? Self.basePrefix(hash: hash) + records : Self.basePrefix(hash: hash, compressed: true) + frame
    case .perform(let command):
      return EditStep.isCompact(command) ? command : Self.performPrefix + command + [UInt8(ascii: "}")]
    default: return json.compactUTF8
    }
  }

  /// What a `base` payload holds before the records: the mark (`compressed`: a zstd
  /// frame follows), the hash's length, the hash.
  static func basePrefix(hash: String, compressed: Bool = false) -> [UInt8] {
    let hashBytes = Array(hash.utf8.prefix(255))
    return [compressed ? compressedBaseMark : baseMark, UInt8(hashBytes.count)] + hashBytes
  }

  /// A `base` payload's hash and its records as stored (a zstd frame when `compressed`);
  /// `nil` when it is too short to hold them.
  static func baseParts(_ payload: ArraySlice<UInt8>) -> (
    hash: String, stored: ArraySlice<UInt8>, compressed: Bool
  )? {
    let start = payload.startIndex
    guard payload.count >= 2, isBase(payload[start]) else { return nil }
    let end = start + 2 + Int(payload[start + 1])
    guard end <= payload.endIndex else { return nil }
    return (
      String(decoding: payload[(start + 2)..<end], as: UTF8.self), payload[end...],
      payload[start] == compressedBaseMark
    )
  }

  /// A `base` payload's hash and records, decompressed and checked against the hash (the
  /// record's CRC-32 does not cover them). Throws what is wrong with them.
  static func baseRecords(_ payload: ArraySlice<UInt8>) throws(JournalError) -> (
    hash: String, records: [UInt8]
  ) {
    guard let parts = baseParts(payload) else {
      throw .badEntry(record: 1, reason: "start records without their hash")
    }
    var records = Array(parts.stored)
    if parts.compressed {
      do throws(ZstdError) {
        records = try Zstd.decompress(parts.stored)
      } catch {
        throw .badEntry(record: 1, reason: "its start records cannot be decompressed (\(error.reason))")
      }
    }
    guard ContentHash.of(records) == parts.hash else {
      throw .badEntry(record: 1, reason: "its start records are damaged (their content hash differs)")
    }
    return (parts.hash, records)
  }

  /// How a JSON `perform` payload begins: `{"do": `, then the command's encoding, then `}`.
  static let performPrefix = Array(#"{"do": "#.utf8)

  private static func encode(_ runs: [NumberRun]) -> JSONValue {
    .array(runs.map { .array([.number($0.first.description), .number(String($0.count))]) })
  }

  init(payload: [UInt8], record: Int) throws(JournalError) {
    if Self.isBase(payload.first) {
      let base = try Self.baseRecords(payload[...])
      self = .base(hash: base.hash, records: base.records)
      return
    }
    // A step, as recsh writes it: kept as bytes, not parsed (it is read when needed). A
    // compact step's first byte, 2, is neither a base's (0, 1) nor JSON's `{`.
    if EditStep.isCompact(payload) {
      self = .perform(payload)
      return
    }
    if payload.count > Self.performPrefix.count, payload.last == UInt8(ascii: "}"),
      payload.starts(with: Self.performPrefix)
    {
      self = .perform(Array(payload[Self.performPrefix.count..<(payload.count - 1)]))
      return
    }
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes: payload)
    } catch {
      throw .badEntry(record: record, reason: error.description)
    }
    guard case .object(let object) = value, let first = object.members.first else {
      throw .badEntry(record: record, reason: "not an object")
    }
    func integer(_ value: JSONValue?, _ what: String) throws(JournalError) -> Int {
      guard case .number(let text)? = value, let number = Int(text) else {
        throw .badEntry(record: record, reason: "\"\(what)\" is not a whole number")
      }
      return number
    }
    func runs(_ value: JSONValue?) throws(JournalError) -> [NumberRun]? {
      guard let value else { return nil }
      guard case .array(let items) = value else {
        throw .badEntry(record: record, reason: "\"numbers\" is not a list")
      }
      var runs: [NumberRun] = []
      for run in items {
        guard case .array(let pair) = run, pair.count == 2, case .number(let first) = pair[0],
          case .number(let count) = pair[1], let start = UInt32(first), let length = Int(count), length >= 0
        else { throw .badEntry(record: record, reason: "\"numbers\" holds a bad run") }
        runs.append(NumberRun(first: RecordNumber(start), count: length))
      }
      return runs
    }
    switch (first.key, first.value) {
    case ("header", .object(let header)):
      var format = 1
      if header["format"] != nil { format = try integer(header["format"], "format") }
      guard format <= Self.format else { throw .newerFormat(format) }
      var base: String?
      if case .string(let text)? = header["base"] { base = text }
      var pid: Int32 = 0
      if case .number(let text)? = header["pid"] { pid = Int32(text) ?? 0 }
      var time = 0.0
      if case .number(let text)? = header["time"] { time = Double(text) ?? 0 }
      var kind = ""
      if case .string(let text)? = header["kind"] { kind = text }
      let start = header["start"] == nil ? 0 : try integer(header["start"], "start")
      self = .header(
        Header(
          format: format, base: base, pid: pid, time: time, kind: kind, schema: header["schema"],
          numbers: try runs(header["numbers"]), start: start))
    case ("open", .object(let open)):
      var kind = ""
      if case .string(let text)? = open["kind"] { kind = text }
      self = .open(
        pid: Int32(truncatingIfNeeded: try integer(open["pid"], "pid")),
        time: Double(try integer(open["time"], "time")), kind: kind)
    case ("do", let command): self = .perform(command.compactUTF8)
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
    case ("goto", let state): self = .goto(try integer(state, "goto"))
    case ("place", let state): self = .place(try integer(state, "place"))
    case ("time", let time): self = .time(Double(try integer(time, "time")))
    case ("number", let number): self = .number(try integer(number, "number"))
    case ("save", .string(let hash)):
      self = .save(
        hash: hash, state: try integer(object["state"], "state"),
        time: Double(try integer(object["time"], "time")),
        numbers: try runs(object["numbers"]),
        pending: object["pending"] == nil ? 0 : try integer(object["pending"], "pending"))
    case ("saved", _): self = .saved
    case ("close", let time): self = .close(Double(try integer(time, "close")))
    case ("undo", _), ("redo", _), ("applied", _), ("snapshot", _):
      throw .badEntry(
        record: record,
        reason: "\"\(first.key)\" is from an earlier recsh's journal, which this one does not replay")
    default: throw .badEntry(record: record, reason: "unknown entry \"\(first.key)\"")
    }
  }
}
