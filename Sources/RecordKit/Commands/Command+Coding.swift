/// Commands as plain data, for the crash-recovery journal and persistent undo.
///
/// The encoding names fields and holds values as JSON, so it is read back
/// through the kind's field table with the same validation as typed input:
///
///     ["set", 17, "title", ["a"], ["b"]]          (a field edit, the journal's most
///     ["set", 17, ["color"], [], ["red"]]          common step: a custom key in a list,
///                                                  an absent value as [])
///     {"op": "set", "record": 17, "field": "title", "old": "a", "new": "b"}
///                                                  (the same, as logs of format 2 hold it)
///     {"op": "edits", "edits": [ …edits… ]}
///     {"op": "insert", "at": 3, "number": 20, "record": { …the record… }}
///     {"op": "delete", "at": 3, "number": 20, "record": { …the record… }}
///
/// Records are named by their numbers in the document (`Document`), which the journal's
/// base file gives back when it is read again.
///     {"op": "group", "name": "review", "commands": [ … ]}
///
/// A bulk edit is one command however many records it changes: per field, the numbers
/// of the records it changed (as differences, `DeltaList`) and their old values, and the
/// new value once (or one each, for a list edit; see `FieldQueries.makeBulkEncoder`):
///
///     {"op": "bulk", "count": 2, "edits": [{"action": "set", "field": "priority",
///      "records": [4, 5], "old": [1, 3], "new": 5}]}
///     {"op": "delete-all", "at": [2, 3], "numbers": [2, 3], "records": [ {…}, {…} ]}
///
/// An absent `old` or `new` means the field was (or becomes) absent.
extension Command {
  func encoded() -> JSONValue {
    var object = JSONObject()
    switch self {
    case .edit(let edit):
      return Self.encode(edit)
    case .edits(let edits):
      object["op"] = .string("edits")
      object["edits"] = .array(edits.map { Self.encode($0) })
    case .insert(let record, let number, let position), .delete(let record, let number, let position):
      if case .insert = self { object["op"] = .string("insert") } else { object["op"] = .string("delete") }
      object["at"] = .number(String(position))
      object["number"] = .number(number.description)
      object["record"] = Root.fields.encodeForJournal(record)
    case .group(let name, let commands):
      object["op"] = .string("group")
      if let name { object["name"] = .string(name) }
      object["commands"] = .array(commands.map { $0.encoded() })
    case .stored(let stored):
      if EditStep.isCompact(stored.bytes) { return stored.command?.encoded() ?? .null }
      return (try? JSONValue.parse(bytes: stored.bytes)) ?? .null
    case .bulk, .deleteAll:
      var bytes: [UInt8] = []
      appendEncoded(to: &bytes)
      return (try? JSONValue.parse(bytes: bytes)) ?? .null
    }
    return .object(object)
  }

  /// Appends exactly the bytes of `encoded().compactUTF8`, straight from the
  /// command: the journal's hot path, one edit per typed `set`.
  public func appendEncoded(to out: inout [UInt8]) {
    switch self {
    case .edit(let edit):
      edit.appendEncoded(to: &out)
    case .edits(let edits):
      out.append(literal: #"{"op": "edits", "edits": "#)
      Self.appendArray(edits, to: &out) { $0.appendEncoded(to: &$1) }
      out.append(UInt8(ascii: "}"))
    case .group(let name, let commands):
      out.append(literal: #"{"op": "group""#)
      if let name {
        out.append(literal: #", "name": "#)
        JSONValue.appendQuoted(name, to: &out)
      }
      out.append(literal: #", "commands": "#)
      Self.appendArray(commands, to: &out) { $0.appendEncoded(to: &$1) }
      out.append(UInt8(ascii: "}"))
    case .insert, .delete:
      encoded().appendCompact(to: &out)
    case .stored(let stored):
      if EditStep.isCompact(stored.bytes) {
        // JSON around it (a group's list) needs JSON: a compact step is decoded first.
        if let command = stored.command {
          command.appendEncoded(to: &out)
        } else {
          out.append(literal: "null")
        }
      } else {
        out += stored.bytes
      }
    case .bulk(let edits, let records):
      out.append(literal: #"{"op": "bulk", "count": "#)
      JSONValue.appendDecimal(records, to: &out)
      out.append(literal: #", "edits": "#)
      Self.appendArray(edits, to: &out) { $0.appendEncoded(to: &$1) }
      out.append(UInt8(ascii: "}"))
    case .deleteAll(let deletion):
      out.append(literal: #"{"op": "delete-all", "at": "#)
      DeltaList.append(deletion.positions, to: &out)
      out.append(literal: #", "numbers": "#)
      DeltaList.append(deletion.numbers.lazy.map { Int($0.value) }, to: &out)
      out.append(literal: #", "records": "#)
      Self.appendArray(deletion.records, to: &out) { Root.fields.encodeForJournal($0).appendCompact(to: &$1) }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// Whether `appendStep` can write the command: a one-field edit, or a step read back in
  /// that form. Any other command is kept in the log as its JSON encoding.
  public var isCompactStep: Bool {
    switch self {
    case .edit: true
    case .stored(let stored): EditStep.isCompact(stored.bytes)
    default: false
    }
  }

  /// Appends the command as the history log keeps a step (`EditStep`), which
  /// `init(decodingStep:)` reads back. Needs `isCompactStep`.
  public func appendStep(to out: inout [UInt8]) {
    switch self {
    case .edit(let edit): edit.appendStep(to: &out)
    case .stored(let stored) where EditStep.isCompact(stored.bytes): out += stored.bytes
    default: preconditionFailure("appendStep of a command that is not a compact step")
    }
  }

  /// Reads back a step as the log keeps it: the compact form (`EditStep`) or the JSON
  /// encoding (`appendEncoded`), validating every value through the field table.
  init(decodingStep bytes: [UInt8]) throws(CommandDecodingError) {
    guard EditStep.isCompact(bytes) else {
      let json: JSONValue
      do {
        json = try JSONValue.parse(bytes: bytes)
      } catch {
        throw .malformed("\(error)")
      }
      try self.init(decoding: json)
      return
    }
    let step = try EditStep.decode(bytes)
    let field: any FieldAccessor<Root>
    if step.isCustom {
      field = FieldTable<Root>.custom(step.name)
    } else {
      guard let declared = Root.fields.field(named: step.name) else {
        throw .field(.unknownField(step.name, suggestion: nil))
      }
      field = declared
    }
    do {
      self = .edit(
        try field.decodeEdit(record: step.record, old: step.old, new: step.new, action: step.action))
    } catch {
      throw .field(error)
    }
  }

  /// `[a, b, …]` as `JSONValue.appendCompact` lays out an array, `body` appending each
  /// element.
  private static func appendArray<Element>(
    _ elements: some Collection<Element>, to out: inout [UInt8], _ body: (Element, inout [UInt8]) -> Void
  ) {
    out.append(UInt8(ascii: "["))
    for (index, element) in elements.enumerated() {
      if index > 0 { out.append(literal: ", ") }
      body(element, &out)
    }
    out.append(UInt8(ascii: "]"))
  }

  private static func encode(_ edit: any FieldEdit<Root>) -> JSONValue {
    let name = JSONValue.string(edit.field.name)
    return .array([
      .string(edit.action.rawValue), .number(edit.record.description),
      edit.field.isCustom ? .array([name]) : name,
      .array(edit.oldJSON.map { [$0] } ?? []), .array(edit.newJSON.map { [$0] } ?? []),
    ])
  }

  /// Reads back what `encoded()` wrote, validating every value through the field table.
  init(decoding json: JSONValue) throws(CommandDecodingError) {
    if case .array(let parts) = json {
      self = .edit(try Self.decodeEdit(parts))
      return
    }
    guard case .object(let object) = json, case .string(let op)? = object["op"] else {
      throw .malformed("a command must be an object with an \"op\", or an edit's list")
    }
    switch op {
    case "edits":
      guard case .array(let items)? = object["edits"], !items.isEmpty else {
        throw .malformed("\"edits\" needs a non-empty array")
      }
      var edits: [any FieldEdit<Root>] = []
      for item in items {
        switch item {
        case .array(let parts): edits.append(try Self.decodeEdit(parts))
        case .object(let editObject): edits.append(try Self.decodeEdit(editObject))
        default: throw .malformed("an edit must be a list (or an object)")
        }
      }
      self = .edits(edits)
    case "insert", "delete":
      guard case .number(let spelling)? = object["at"], let position = Int(spelling), position >= 0 else {
        throw .malformed("\"\(op)\" needs a position \"at\"")
      }
      guard let recordValue = object["record"] else {
        throw .malformed("\"\(op)\" needs a \"record\" object")
      }
      guard let number = Self.recordNumber(object["number"]) else {
        throw .malformed("\"\(op)\" needs a record \"number\"")
      }
      let record: Root
      do {
        record = try Root.fields.decodeFromJournal(recordValue)
      } catch {
        throw .record(error)
      }
      self =
        op == "insert"
        ? .insert(record, number: number, at: position) : .delete(record, number: number, at: position)
    case "group":
      guard case .array(let items)? = object["commands"] else {
        throw .malformed("\"group\" needs a \"commands\" array")
      }
      var name: String?
      if case .string(let text)? = object["name"] { name = text }
      var commands = CommandList<Root>()
      for item in items {
        commands.append(try Command(decoding: item))
      }
      self = .group(name: name, commands)
    case "bulk":
      guard case .number(let spelling)? = object["count"], let count = Int(spelling), count > 0,
        case .array(let items)? = object["edits"], !items.isEmpty
      else {
        throw .malformed("\"bulk\" needs a \"count\" and a non-empty \"edits\" array")
      }
      var edits: [any BulkFieldEdit<Root>] = []
      for item in items {
        guard case .object(let editObject) = item else { throw .malformed("a bulk edit must be an object") }
        edits.append(try Self.decodeBulkEdit(editObject))
      }
      self = .bulk(edits, records: count)
    case "delete-all":
      guard let positions = DeltaList.decode(object["at"]), let numbers = DeltaList.decode(object["numbers"]),
        case .array(let items)? = object["records"], positions.count == numbers.count,
        positions.count == items.count, !positions.isEmpty,
        zip(positions, positions.dropFirst()).allSatisfy({ $0 < $1 }), positions[0] >= 0,
        numbers.allSatisfy({ UInt32(exactly: $0) != nil })
      else {
        throw .malformed(
          "\"delete-all\" needs ascending positions \"at\", \"numbers\" and \"records\", one each")
      }
      var records: [Root] = []
      records.reserveCapacity(items.count)
      for item in items {
        do {
          records.append(try Root.fields.decodeFromJournal(item))
        } catch {
          throw .record(error)
        }
      }
      self = .deleteAll(
        BulkDeletion(
          records: records, numbers: numbers.map { RecordNumber(UInt32($0)) }, positions: positions))
    default:
      self = .edit(try Self.decodeEdit(object))
    }
  }

  /// An edit as a list: `[ACTION, RECORD, FIELD or [CUSTOM], [OLD] or [], [NEW] or []]`.
  private static func decodeEdit(_ parts: [JSONValue]) throws(CommandDecodingError) -> any FieldEdit<Root> {
    guard parts.count == 5, case .string(let op) = parts[0], let action = EditAction(rawValue: op) else {
      throw .malformed("an edit's list needs an action, a record, a field, its old and its new value")
    }
    guard let number = recordNumber(parts[1]) else { throw .malformed("an edit needs a record number") }
    let field: any FieldAccessor<Root>
    switch parts[2] {
    case .string(let name):
      guard let declared = Root.fields.field(named: name) else {
        throw .field(.unknownField(name, suggestion: nil))
      }
      field = declared
    case .array(let custom):
      guard custom.count == 1, case .string(let name) = custom[0] else {
        throw .malformed("an edit's custom key is a list of its name")
      }
      field = FieldTable<Root>.custom(name)
    default: throw .malformed("an edit needs a field name")
    }
    guard case .array(let old) = parts[3], old.count <= 1, case .array(let new) = parts[4], new.count <= 1
    else {
      throw .malformed("an edit's old and new values are lists of one value, or empty")
    }
    do {
      return try field.decodeEdit(record: number, old: old.first, new: new.first, action: action)
    } catch {
      throw .field(error)
    }
  }

  /// An edit as an object (logs of format 2).
  private static func decodeEdit(_ object: JSONObject) throws(CommandDecodingError) -> any FieldEdit<Root> {
    guard case .string(let op)? = object["op"], let action = EditAction(rawValue: op) else {
      throw .malformed("unknown command \"op\"")
    }
    guard let number = recordNumber(object["record"]) else {
      throw .malformed("an edit needs a \"record\" number")
    }
    let field = try encodedField(object, "an edit")
    do {
      return try field.decodeEdit(record: number, old: object["old"], new: object["new"], action: action)
    } catch {
      throw .field(error)
    }
  }
}

extension Command {
  /// The field an encoded edit names: `"field"` a declared one, `"custom"` a custom key;
  /// `what` ("an edit") words the error when it names neither.
  private static func encodedField(_ object: JSONObject, _ what: String) throws(CommandDecodingError)
    -> any FieldAccessor<Root>
  {
    if case .string(let name)? = object["field"] {
      guard let declared = Root.fields.field(named: name) else {
        throw .field(.unknownField(name, suggestion: nil))
      }
      return declared
    }
    guard case .string(let name)? = object["custom"] else {
      throw .malformed("\(what) needs a \"field\" or \"custom\" name")
    }
    return FieldTable<Root>.custom(name)
  }

  /// One field's bulk edit, as `FieldQueries.makeBulkEncoder` wrote it.
  private static func decodeBulkEdit(_ object: JSONObject) throws(CommandDecodingError) -> any BulkFieldEdit<
    Root
  > {
    guard case .string(let op)? = object["action"], let action = EditAction(rawValue: op) else {
      throw .malformed("a bulk edit needs an \"action\"")
    }
    let field = try encodedField(object, "a bulk edit")
    guard let numbers = DeltaList.decode(object["records"]), !numbers.isEmpty,
      numbers.allSatisfy({ UInt32(exactly: $0) != nil })
    else {
      throw .malformed("a bulk edit needs its \"records\"")
    }
    let olds = try values(object["old"], absent: object["oldAbsent"], count: numbers.count, "old")
    let news: BulkNewValues
    if let new = object["new"] {
      news = .same(new)
    } else if object["news"] != nil {
      news = .each(try values(object["news"], absent: object["newAbsent"], count: numbers.count, "news"))
    } else {
      news = .same(nil)
    }
    do {
      return try field.decodeBulk(
        action: action, records: numbers.map { RecordNumber(UInt32($0)) }, olds: olds, news: news)
    } catch {
      throw .field(error)
    }
  }

  /// One value per record, `nil` at the indexes `absent` lists.
  private static func values(_ json: JSONValue?, absent: JSONValue?, count: Int, _ key: String)
    throws(CommandDecodingError) -> [JSONValue?]
  {
    guard case .array(let items)? = json, items.count == count else {
      throw .malformed("a bulk edit needs one \"\(key)\" value per record")
    }
    var values: [JSONValue?] = items
    if let absent {
      guard let indexes = DeltaList.decode(absent), indexes.allSatisfy({ values.indices.contains($0) }) else {
        throw .malformed("a bulk edit's absent values are out of range")
      }
      for index in indexes { values[index] = nil }
    }
    return values
  }

  /// A record number as commands encode it: a JSON integer from 0 to 2³² − 1.
  static func recordNumber(_ value: JSONValue?) -> RecordNumber? {
    guard case .number(let spelling)? = value, let number = UInt32(spelling) else { return nil }
    return RecordNumber(number)
  }
}

/// Why an encoded command cannot be read back.
enum CommandDecodingError: Error, Equatable, Sendable {
  case malformed(String)
  case field(FieldError)
  case record(RecordDecodingError)
}

extension CommandDecodingError: CustomStringConvertible {
  var description: String {
    switch self {
    case .malformed(let reason): "malformed command: \(reason)"
    case .field(let error): error.description
    case .record(let error): error.description
    }
  }
}
