import RecordKit

/// The script `export` writes: recsh commands that take a document from one state of its
/// history to another, each edit guarded by an `assert` of the values it replaces.
///
/// The script is made from the two states, not replayed from the steps between them: it
/// holds each record's net change (a field set and set back is no edit), in this order:
/// 1. the guards, one `assert REF FIELD== OLD…` per record it edits or deletes, all before
///    the first edit, so that on a file changed since, the script stops at the first
///    mismatch (naming the record, the field, the value expected and the value found)
///    with nothing changed;
/// 2. `begin`, and each changed record's edits (`use REF; set F V …; unset F`);
/// 3. the deletions, from the last record to the first;
/// 4. the records the target has and the start has not, in the target's order: those
///    after the last record both states hold by `new [id KEY] F V …` when that makes
///    exactly the record, the others whole by `insert @N {…}` (which keeps member order
///    and number spellings); `end`; `save`.
///
/// A record is named by its key, or, in a kind without one, by `@N`: its position in the
/// starting state, which steps 1 to 3 keep right (edits move no record, deletions go from
/// the end). Step 4's positions are the target's: every state of one history keeps the
/// records both states hold in one relative order (no command moves a record), so
/// inserting in the target's order puts each record where the target has it.
///
/// A record whose change `set` and `unset` cannot make exactly is deleted and inserted
/// whole instead: its key changed, it gained a custom field (which `set +F` would append
/// where the target may not have it), or a value is one the command line cannot type (a
/// JSON object, a number spelling a field would respell). Its guard then covers every
/// field it has, since the whole record is replaced. A guard cannot check a value the
/// command line cannot type (a JSON object member): that field goes unchecked.
///
/// Cost: O(fields) for each record the steps between the states touched (the others are
/// not read); the text is built in one byte array.
struct ExportScript<Root: Record> {
  private var guards: [UInt8] = []
  private var edits: [UInt8] = []
  /// `(position in the start, record)`, in the start's order.
  private var deletions: [(Int, Root)] = []
  /// `(position in the target, record)`, in the target's order.
  private var insertions: [(Int, Root)] = []
  /// How many records each part holds, for the header and the reply.
  private(set) var editedCount = 0
  /// How many of the insertions, the last ones, go at the end of the document.
  private var tailCount = 0

  var deletedCount: Int { deletions.count }
  var insertedCount: Int { insertions.count }
  private static var lineFeed: UInt8 { UInt8(ascii: "\n") }

  /// The script between the two states of `comparison` (the records that differ, with
  /// their positions in each state). Specialized for each kind by name: the optimizer left
  /// this generic code unspecialized, and run so (the kind's field table fetched through
  /// its witness at each use) it took half as long again (docs/PERFORMANCE.md).
  @_specialize(where Root == TaskRecord)
  @_specialize(where Root == ContactRecord)
  @_specialize(where Root == RunTimeRecord)
  init(_ comparison: StateComparison<Root>) {
    let (before, after) = (comparison.before, comparison.after)
    let pairs = RecordChanges<Root>.pairs(before, after)
    // The records of the start by their place there (the guards and edits go in that
    // order), then the new ones.
    var order: [(position: Int, pair: Int)] = []
    order.reserveCapacity(pairs.count)
    for (index, pair) in pairs.enumerated() {
      if let earlier = pair.before { order.append((before[earlier].position, index)) }
    }
    order.sort { $0.position < $1.position }
    for (position, index) in order {
      guard let earlier = pairs[index].before else { continue }
      guard let later = pairs[index].after else {
        deletions.append((position, before[earlier].record))
        continue
      }
      guard before[earlier].record != after[later].record else { continue }
      let record = before[earlier].record
      let target = after[later].record
      let changes = RecordChanges<Root>.fieldChanges(
        Root.fields.encode(record), Root.fields.encode(target), path: "")
      if changes.isEmpty { continue }
      if let commands = Self.fieldEdits(changes) {
        let ref = Self.ref(record, at: position)
        appendGuard(ref, changes.map { ($0.path, $0.old) })
        edits += "use ".utf8
        edits += ref.utf8
        edits += commands.utf8
        edits.append(Self.lineFeed)
        editedCount += 1
      } else {
        deletions.append((position, record))
        insertions.append((after[later].position, target))
      }
    }
    for pair in pairs where pair.before == nil {
      guard let later = pair.after else { continue }
      insertions.append((after[later].position, after[later].record))
    }
    insertions.sort { $0.0 < $1.0 }
    // The records after the last one both states hold are made at the end: by `new`.
    var last = comparison.afterCount - 1
    for (position, _) in insertions.reversed() {
      guard position == last else { break }
      last -= 1
      tailCount += 1
    }
    for (position, record) in deletions {
      appendGuard(Self.ref(record, at: position), Self.members(of: record))
    }
  }

  /// Whether the two states are the same.
  var isEmpty: Bool { editedCount == 0 && deletions.isEmpty && insertions.isEmpty }

  /// The whole script, with a header of `comments` (each a line, without the `#`).
  func text(comments: [String], groupName: String) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(guards.count + edits.count + 64 * (deletions.count + insertions.count) + 256)
    for line in comments {
      out += "# ".utf8
      out += line.utf8
      out.append(Self.lineFeed)
    }
    out += guards
    out += "begin ".utf8
    out += ScriptWords.quoted(groupName).utf8
    out.append(Self.lineFeed)
    out += edits
    for (position, record) in deletions.reversed() {
      out += "delete ".utf8
      out += Self.ref(record, at: position).utf8
      out.append(Self.lineFeed)
    }
    for (index, (position, record)) in insertions.enumerated() {
      if index >= insertions.count - tailCount, let command = Self.newCommand(making: record) {
        out += command.utf8
        out.append(Self.lineFeed)
        continue
      }
      out += "insert @".utf8
      JSONValue.appendDecimal(position + 1, to: &out)
      out.append(UInt8(ascii: " "))
      out += ScriptWords.quoted(JSONValue.object(Root.fields.encode(record)).compactText).utf8
      out.append(Self.lineFeed)
    }
    out += "end\nsave\n".utf8
    return out
  }

  // MARK: Parts

  /// `assert REF F== V …` for the values given (`nil`: absent, checked as `F= null`); a
  /// value the command line cannot type is left out, and a record with none checked gets
  /// no line.
  private mutating func appendGuard(_ ref: String, _ values: [(path: String, value: JSONValue?)]) {
    var filters = ""
    for (path, value) in values {
      guard let field = Self.field(path) else { continue }
      // A custom name is quoted: a bare one near a declared name reads as its typo.
      let name = field.isCustom ? ScriptWords.quoted(path) : ScriptWords.word(path)
      if let value {
        guard let token = Self.token(for: value, field, filter: true) else { continue }
        filters += " " + name + "== " + token
      } else {
        filters += " " + name + "= null"
      }
    }
    guard !filters.isEmpty else { return }
    guards += "assert ".utf8
    guards += ref.utf8
    guards += filters.utf8
    guards.append(Self.lineFeed)
  }

  /// `; set F V …` and `; unset F` making exactly `changes`, or `nil` when a change is one
  /// they cannot make (see the type's comment).
  private static func fieldEdits(_ changes: [RecordChanges<Root>.FieldChange]) -> String? {
    var sets = ""
    var unsets = ""
    for change in changes {
      guard let field = field(change.path), !field.isReadOnly else { return nil }
      if Root.fields.key?.name == change.path { return nil }
      guard let new = change.new else {
        unsets += "; unset " + ScriptWords.word(change.path)
        continue
      }
      // A custom field `set` would make is put last, where the target may not have it.
      if change.old == nil, field.isCustom || Root.fields.keepsAllMembers { return nil }
      guard let token = token(for: new, field, filter: false) else { return nil }
      sets += " " + ScriptWords.word(change.path) + " " + token
    }
    return (sets.isEmpty ? "" : "; set" + sets) + unsets
  }

  /// `new [id KEY] F V …` when that makes exactly `record` (its members, their order and
  /// spellings: checked by making it so on a scratch editor, as `new` does), else `nil`;
  /// a custom field or a nested object is left to `insert`.
  private static func newCommand(making record: Root) -> String? {
    let table = Root.fields
    let object = table.encode(record)
    var assignments: [FieldAssignment] = []
    var text = "new"
    for member in object.members {
      if member.key == table.key?.name {
        guard let spelling = candidates(member.value).first?.1 else { return nil }
        text += " " + ScriptWords.word(member.key) + " " + spelling
        continue
      }
      guard let field = table.field(named: member.key), !field.isCustom,
        let (token, spelling) = candidates(member.value).first(where: { candidate in
          (try? field.parseCheckedJSON(candidate.0)) == member.value
        })
      else { return nil }
      text += " " + ScriptWords.word(member.key) + " " + spelling
      assignments.append(FieldAssignment(member.key, token, createsCustomField: false))
    }
    var editor = Editor<Root>()
    guard (try? editor.newRecord(id: record.id, assignments)) != nil,
      let made = editor.document.records.first,
      JSONValue.object(table.encode(made)).compactText == JSONValue.object(object).compactText
    else { return nil }
    return text
  }

  /// Each member of the record, as a guard of a deleted or replaced record checks it.
  private static func members(of record: Root) -> [(path: String, value: JSONValue?)] {
    flattened(Root.fields.encode(record), prefix: "")
  }

  /// The members of `object` by path, a nested object's as its declared fields
  /// (`address.city`) where the kind declares them; not the key, which finds the record.
  private static func flattened(_ object: JSONObject, prefix: String) -> [(path: String, value: JSONValue?)] {
    var result: [(path: String, value: JSONValue?)] = []
    for member in object.members where prefix.isEmpty ? Root.fields.key?.name != member.key : true {
      let path = prefix + member.key
      if case .object(let inner) = member.value,
        Root.fields.fields.contains(where: { $0.name.hasPrefix(path + ".") })
      {
        result += flattened(inner, prefix: path + ".")
      } else {
        result.append((path, member.value))
      }
    }
    return result
  }

  /// The field a path names: a declared one or a custom key.
  private static func field(_ path: String) -> (any FieldAccessor<Root>)? {
    if let declared = Root.fields.field(named: path) { return declared }
    return path.contains(".") && !Root.fields.keepsAllMembers ? nil : FieldTable<Root>.custom(path)
  }

  // MARK: Words

  /// How the script names a record: its key, or `@N` (`position` 0-based) without one.
  private static func ref(_ record: Root, at position: Int) -> String {
    Root.fields.key == nil ? "@\(position + 1)" : ScriptWords.word(record.id)
  }

  /// The value as the command line types it for `field`, such that the field reads it back
  /// as exactly `value` (checked here, by the field itself); `nil` when no token does.
  private static func token(for value: JSONValue, _ field: any FieldAccessor<Root>, filter: Bool) -> String? {
    for (token, text) in candidates(value) {
      let read = try? (filter ? field.parseJSON(token) : field.parseCheckedJSON(token))
      if let read, read == value || (filter && JSONOrder.compare(read, value) == 0) { return text }
    }
    return nil
  }

  /// The token that types `value` for `field` as exactly that value, if one does (a JSON
  /// object does not, nor a list of them).
  static func valueToken(for value: JSONValue, _ field: any FieldAccessor<Root>) -> ValueToken? {
    candidates(value).first { (try? field.parseCheckedJSON($0.0)) == value }?.0
  }

  /// The tokens that may type `value`, the plainest first, with their text.
  private static func candidates(_ value: JSONValue) -> [(ValueToken, String)] {
    switch value {
    case .string(let text):
      return (ScriptWords.isPlain(text) ? [(.word(text), text)] : []) + [
        (.quoted(text), ScriptWords.quoted(text))
      ]
    case .number(let spelling): return [(.word(spelling), spelling)]
    case .bool(let flag): return [(.word(flag ? "true" : "false"), flag ? "true" : "false")]
    case .null: return [(.word("null"), "null")]
    case .array(let items):
      var tokens: [ValueToken] = []
      var texts: [String] = []
      for item in items {
        guard let first = candidates(item).first else { return [] }
        tokens.append(first.0)
        texts.append(first.1)
      }
      return [(.list(tokens), "[" + texts.joined(separator: ", ") + "]")]
    case .object: return []
    }
  }
}
