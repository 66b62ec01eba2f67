/// Commands as plain data, for the crash-recovery journal and persistent undo.
///
/// The encoding names fields and holds values as JSON, so it is read back
/// through the kind's field table with the same validation as typed input:
///
///     {"op": "set", "record": 17, "field": "title", "old": "a", "new": "b"}
///     {"op": "set", "record": 17, "custom": "color", "new": "red"}        (old absent)
///     {"op": "edits", "edits": [ …set objects… ]}
///     {"op": "insert", "at": 3, "number": 20, "record": { …the record… }}
///     {"op": "delete", "at": 3, "number": 20, "record": { …the record… }}
///
/// Records are named by their numbers in the document (`Document`), which the journal's
/// base file gives back when it is read again.
///     {"op": "group", "name": "review", "commands": [ … ]}
///
/// An absent `old` or `new` means the field was (or becomes) absent.
extension Command {
  public func encoded() -> JSONValue {
    var object = JSONObject()
    switch self {
    case .edit(let edit):
      object = Self.encode(edit)
    case .edits(let edits):
      object["op"] = .string("edits")
      object["edits"] = .array(edits.map { .object(Self.encode($0)) })
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
      return (try? JSONValue.parse(bytes: stored.bytes)) ?? .null
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
      out += #"{"op": "edits", "edits": ["#.utf8
      for (index, edit) in edits.enumerated() {
        if index > 0 { out += ", ".utf8 }
        edit.appendEncoded(to: &out)
      }
      out += "]}".utf8
    case .group(let name, let commands):
      out += #"{"op": "group""#.utf8
      if let name {
        out += #", "name": "#.utf8
        JSONValue.appendQuoted(name, to: &out)
      }
      out += #", "commands": ["#.utf8
      for (index, command) in commands.enumerated() {
        if index > 0 { out += ", ".utf8 }
        command.appendEncoded(to: &out)
      }
      out += "]}".utf8
    case .insert, .delete:
      encoded().appendCompact(to: &out)
    case .stored(let stored):
      out += stored.bytes
    }
  }

  private static func encode(_ edit: any FieldEdit<Root>) -> JSONObject {
    var object = JSONObject()
    object["op"] = .string(edit.action.rawValue)
    object["record"] = .number(edit.record.description)
    object[edit.field.isCustom ? "custom" : "field"] = .string(edit.field.name)
    if let old = edit.oldJSON { object["old"] = old }
    if let new = edit.newJSON { object["new"] = new }
    return object
  }

  /// Reads back what `encoded()` wrote, validating every value through the field table.
  public init(decoding json: JSONValue) throws(CommandDecodingError) {
    guard case .object(let object) = json, case .string(let op)? = object["op"] else {
      throw .malformed("a command must be an object with an \"op\"")
    }
    switch op {
    case "edits":
      guard case .array(let items)? = object["edits"], !items.isEmpty else {
        throw .malformed("\"edits\" needs a non-empty array")
      }
      var edits: [any FieldEdit<Root>] = []
      for item in items {
        guard case .object(let editObject) = item else { throw .malformed("an edit must be an object") }
        edits.append(try Self.decodeEdit(editObject))
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
      var commands: [Command] = []
      for item in items {
        commands.append(try Command(decoding: item))
      }
      self = .group(name: name, commands)
    default:
      self = .edit(try Self.decodeEdit(object))
    }
  }

  private static func decodeEdit(_ object: JSONObject) throws(CommandDecodingError) -> any FieldEdit<Root> {
    guard case .string(let op)? = object["op"], let action = EditAction(rawValue: op) else {
      throw .malformed("unknown command \"op\"")
    }
    guard let number = recordNumber(object["record"]) else {
      throw .malformed("an edit needs a \"record\" number")
    }
    let field: any FieldAccessor<Root>
    if case .string(let name)? = object["field"] {
      guard let declared = Root.fields.field(named: name) else {
        throw .field(.unknownField(name, suggestion: nil))
      }
      field = declared
    } else if case .string(let name)? = object["custom"] {
      field = FieldTable<Root>.custom(name)
    } else {
      throw .malformed("an edit needs a \"field\" or \"custom\" name")
    }
    do {
      return try field.decodeEdit(record: number, old: object["old"], new: object["new"], action: action)
    } catch {
      throw .field(error)
    }
  }
}

extension Command {
  /// A record number as commands encode it: a JSON integer from 0 to 2³² − 1.
  package static func recordNumber(_ value: JSONValue?) -> RecordNumber? {
    guard case .number(let spelling)? = value, let number = UInt32(spelling) else { return nil }
    return RecordNumber(number)
  }
}

/// Why an encoded command cannot be read back.
public enum CommandDecodingError: Error, Equatable, Sendable {
  case malformed(String)
  case field(FieldError)
  case record(RecordDecodingError)
}

extension CommandDecodingError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .malformed(let reason): "malformed command: \(reason)"
    case .field(let error): error.description
    case .record(let error): error.description
    }
  }
}
