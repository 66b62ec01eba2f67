import RecordKit

/// `show`, `list` and `fields` as text.
enum RecordRenderer {
  /// Aligned `field  value` lines: every declared field (absent ones as
  /// "(not set)"), then the custom ones, marked. A run-time kind lists only the fields
  /// the record holds: an inferred kind declares every key of the file, most of which a
  /// record may lack.
  static func show<Root: Record>(_ record: Root) -> String {
    var rows: [(name: String, value: String, note: String)] = []
    let table = Root.fields
    for field in table.fields {
      guard let value = field.display(in: record) else {
        if !table.keepsAllMembers { rows.append((field.name, "(not set)", "")) }
        continue
      }
      rows.append((field.name, TextCell.escaped(value), ""))
    }
    for nested in Root.fields.nestedObjects {
      for member in record[keyPath: nested.extras].members {
        rows.append(("\(nested.name).\(member.key)", display(member.value), "(custom, read-only)"))
      }
    }
    for key in Root.fields.customKeys(of: record) {
      rows.append((key, record.custom[key].map(display) ?? "", "(custom)"))
    }
    let width = rows.map(\.name.count).max() ?? 0
    return rows.map { row in
      let line = TextCell.padded(row.name, to: width) + "  " + row.value
      return row.note.isEmpty ? line : line + "  " + row.note
    }.joined(separator: "\n")
  }

  private static func display(_ value: JSONValue) -> String {
    if case .string(let text) = value { return TextCell.escaped(text) }
    return TextCell.escaped(value.compactText)
  }

  /// A table: position, id, then the kind's summary fields (or `columns`, `fields F1,F2`),
  /// for the records at `positions`, `matched` of which passed the filters.
  static func list<Root: Record>(
    _ document: Document<Root>, positions: [Int], matched: Int, columns: [any FieldAccessor<Root>]? = nil
  ) -> String {
    let fields = columns ?? Root.summaryFields.compactMap { Root.fields.field(named: $0) }
    // The key's column, named as the key is; none when records have no key, or when the
    // columns are chosen.
    let key = columns == nil ? Root.fields.key : nil
    let header = ["@"] + (key.map { [$0.name] } ?? []) + fields.map(\.name)
    var table: [[String]] = [header]
    for position in positions {
      let record = document.records[position]
      var cells = ["@\(position + 1)"] + (key == nil ? [] : [TextCell.escaped(record.id)])
      for field in fields {
        cells.append(TextCell.truncated(TextCell.escaped(field.display(in: record) ?? ""), to: 60))
      }
      table.append(cells)
    }
    var widths = header.map(\.count)
    for cells in table {
      for (index, cell) in cells.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    var lines = table.map { cells in
      cells.enumerated().map { index, cell in
        index == cells.count - 1 ? cell : TextCell.padded(cell, to: widths[index])
      }.joined(separator: "  ")
    }
    let (shown, total) = (positions.count, document.count)
    let records = "record\(total == 1 ? "" : "s")"
    if shown < matched {
      lines.append("(\(shown) of \(matched) matching, \(total) \(records))")
    } else {
      lines.append(shown == total ? "(\(total) \(records))" : "(\(shown) of \(total) \(records))")
    }
    return lines.joined(separator: "\n")
  }

  /// The kind's fields with their types, rules and descriptions, and the selected
  /// record's custom ones; after `note` (which kind this is, and why), when given.
  static func fields<Root: Record>(of kind: Root.Type, selected: Root?, note: String? = nil) -> String {
    var rows = Root.fields.fields.map { field in (field.name, typeAndRules(field), field.about) }
    for key in selected.map(Root.fields.customKeys(of:)) ?? [] {
      rows.append((key, "custom (any JSON value)", nil))
    }
    let width = rows.map(\.0.count).max() ?? 0
    let typeWidth = rows.filter { $0.2 != nil }.map(\.1.count).max() ?? 0
    let lines = rows.map { row in
      let line = "  " + TextCell.padded(row.0, to: width) + "  "
      guard let about = row.2 else { return line + row.1 }
      return line + TextCell.padded(row.1, to: typeWidth) + "  " + TextCell.escaped(about)
    }
    return (note.map { [$0] } ?? []).appending(contentsOf: ["\(Root.kind) fields:"] + lines)
      .joined(separator: "\n")
  }
}

extension RecordRenderer {
  /// The columns `fields` shows, for the machine formats: name, type, rules, description
  /// (the selected record's custom fields too).
  static func fieldRows<Root: Record>(of kind: Root.Type, selected: Root?) -> (
    columns: [String], rows: [[JSONValue?]]
  ) {
    var rows: [[JSONValue?]] = Root.fields.fields.map { field in
      [
        .string(field.name), .string(field.type.name), field.rules.isEmpty ? nil : .string(field.rules),
        field.about.map(JSONValue.string), .bool(field.isReadOnly),
      ]
    }
    for key in selected.map(Root.fields.customKeys(of:)) ?? [] {
      rows.append([.string(key), .string("custom (any JSON value)"), nil, nil, .bool(false)])
    }
    return (["name", "type", "rules", "description", "read_only"], rows)
  }

  /// A field's type and rules as `fields` and `help FIELD` give them: `integer, >= 1450`,
  /// `string, read-only`.
  static func typeAndRules<Root: Record>(_ field: any FieldAccessor<Root>) -> String {
    var text = field.type.name
    if field.isReadOnly, !field.rules.contains("read-only"), !field.rules.hasPrefix("key") {
      text += ", read-only"
    }
    return field.rules.isEmpty ? text : text + ", " + field.rules
  }
}

extension Array {
  fileprivate func appending(contentsOf other: [Element]) -> [Element] { self + other }
}
