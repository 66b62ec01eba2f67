import RecordKit

/// `diff` as text and in the machine formats.
///
/// The table: a line per changed field, `~ KEY  field: old → new` (a list as the elements
/// it gained and lost, `tags: +urgent -home`; an absent value as `(not set)`), a line per
/// added or deleted record, `+ KEY  {…}` / `- KEY  {…}` with its fields as compact JSON,
/// and a count. JSON: an array of objects, `{"key": …, "field": "a.b", "old": …, "new":
/// …}` per changed field (an absent value left out) and `{"key": …, "added": RECORD}` /
/// `{"key": …, "deleted": RECORD}` per record; JSON Lines one such object a line; CSV and
/// TSV the columns `key, change, field, old, new`.
package enum DiffRenderer {
  static func render<Root: Record>(_ changes: RecordChanges<Root>, format: OutputFormat) -> String {
    let key = { (id: String, position: Int) -> String in
      Root.fields.key == nil ? "@\(position + 1)" : id
    }
    switch format {
    case .table: return String(decoding: table(changes), as: UTF8.self)
    case .json, .jsonl, .csv, .tsv:
      var rows: [[JSONValue?]] = []
      for change in changes.changes {
        switch change {
        case .added(let record, let position):
          rows.append([
            .string(key(record.id, position)), .object(Root.fields.encode(record)), nil, nil, nil, nil,
          ])
        case .deleted(let record, let position):
          rows.append([
            .string(key(record.id, position)), nil, .object(Root.fields.encode(record)), nil, nil, nil,
          ])
        case .changed(let id, let position, let fields):
          for field in fields {
            rows.append([.string(key(id, position)), nil, nil, .string(field.path), field.old, field.new])
          }
        }
      }
      if format == .csv || format == .tsv {
        // Columns key, change, field, old, new: an added record is its row's new value, a
        // deleted one its old value.
        let flat = rows.map { row -> [JSONValue?] in
          if let added = row[1] { return [row[0], .string("added"), nil, nil, added] }
          if let deleted = row[2] { return [row[0], .string("deleted"), nil, deleted, nil] }
          return [row[0], .string("changed"), row[3], row[4], row[5]]
        }
        return RecordOutput.separated(
          header: ["key", "change", "field", "old", "new"], rows: flat, tabs: format == .tsv)
      }
      return RecordOutput.rows(
        columns: ["key", "added", "deleted", "field", "old", "new"], rows, format: format)
    }
  }

  /// The difference in the session's format as UTF-8, without the final newline: the
  /// table is written as bytes, line by line, with no `String` per line (a diff of a
  /// million records).
  package static func renderBytes<Root: Record>(_ changes: RecordChanges<Root>, format: OutputFormat)
    -> [UInt8]
  {
    format == .table ? table(changes) : Array(render(changes, format: format).utf8)
  }

  /// The table: a line per changed field, per added and per deleted record, and the counts.
  private static func table<Root: Record>(_ changes: RecordChanges<Root>) -> [UInt8] {
    guard !changes.isEmpty else { return Array("no differences".utf8) }
    let keyless = Root.fields.key == nil
    var out: [UInt8] = []
    var counts = (added: 0, deleted: 0, changed: 0)
    func appendKey(_ id: String, _ position: Int) {
      if keyless {
        out.append(UInt8(ascii: "@"))
        JSONValue.appendDecimal(position + 1, to: &out)
      } else {
        out += TextCell.escaped(id).utf8
      }
    }
    for change in changes.changes {
      switch change {
      case .added(let record, let position), .deleted(let record, let position):
        let added = if case .added = change { true } else { false }
        if added { counts.added += 1 } else { counts.deleted += 1 }
        out += (added ? "+ " : "- ").utf8
        appendKey(record.id, position)
        out += "  ".utf8
        out += compact(.object(Root.fields.encode(record))).utf8
        out.append(UInt8(ascii: "\n"))
      case .changed(let id, let position, let fields):
        counts.changed += 1
        for field in fields {
          out += "~ ".utf8
          appendKey(id, position)
          out += "  ".utf8
          out += field.path.utf8
          out += ": ".utf8
          out += describe(field).utf8
          out.append(UInt8(ascii: "\n"))
        }
      }
    }
    let total = counts.added + counts.deleted + counts.changed
    out += "(\(total) record\(total == 1 ? "" : "s"): \(counts.added) added, \(counts.deleted) deleted, ".utf8
    out += "\(counts.changed) changed)".utf8
    return out
  }

  /// `old → new`, or for lists the elements gained and lost.
  static func describe<Root: Record>(_ field: RecordChanges<Root>.FieldChange) -> String {
    if let list = field.listChange, field.old != nil, field.new != nil {
      let parts = list.added.map { "+" + element($0) } + list.removed.map { "-" + element($0) }
      return parts.joined(separator: " ")
    }
    return value(field.old) + " → " + value(field.new)
  }

  /// A field's value as a change shows it: compact JSON, terminal controls escaped;
  /// `(not set)` when absent.
  static func value(_ json: JSONValue?) -> String {
    guard let json else { return "(not set)" }
    return TextCell.escaped(json.compactText)
  }

  private static func element(_ json: JSONValue) -> String {
    TextCell.escaped(json.typedWord)
  }

  private static func compact(_ json: JSONValue) -> String {
    TextCell.escaped(RecordOutput.compactJSON(json))
  }
}
