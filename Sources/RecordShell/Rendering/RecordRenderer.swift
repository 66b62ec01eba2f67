import RecordKit

/// `show`, `list` and `fields` as text.
enum RecordRenderer {
  /// Aligned `field  value` lines: every declared field (absent ones as
  /// "(not set)"), then the custom ones, marked.
  static func show<Root: Record>(_ record: Root) -> String {
    var rows: [(name: String, value: String, note: String)] = []
    for field in Root.fields.fields {
      rows.append((field.name, field.display(in: record).map(TextCell.escaped) ?? "(not set)", ""))
    }
    for nested in Root.fields.nestedObjects {
      for member in record[keyPath: nested.extras].members {
        rows.append(("\(nested.name).\(member.key)", display(member.value), "(custom, read-only)"))
      }
    }
    for member in record.custom.members {
      rows.append((member.key, display(member.value), "(custom)"))
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

  /// A table: position, id, then the kind's summary fields.
  static func list<Root: Record>(_ rows: [(position: Int, record: Root)], total: Int) -> String {
    let fields = Root.summaryFields.compactMap { Root.fields.field(named: $0) }
    let header = ["@", "id"] + fields.map(\.name)
    var table: [[String]] = [header]
    for row in rows {
      var cells = ["@\(row.position + 1)", row.record.id]
      for field in fields {
        cells.append(TextCell.truncated(TextCell.escaped(field.display(in: row.record) ?? ""), to: 60))
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
    let shown = rows.count == total ? "\(total)" : "\(rows.count) of \(total)"
    lines.append("(\(shown) record\(total == 1 ? "" : "s"))")
    return lines.joined(separator: "\n")
  }

  /// The kind's fields with their types, and the selected record's custom ones.
  static func fields<Root: Record>(of kind: Root.Type, selected: Root?) -> String {
    var rows = Root.fields.fields.map { field in
      (field.name, field.type.name + (field.isReadOnly ? ", read-only" : ""))
    }
    for key in selected?.custom.keys ?? [] {
      rows.append((key, "custom (any JSON value)"))
    }
    let width = rows.map(\.0.count).max() ?? 0
    return ["\(Root.kind) fields:"]
      .appending(contentsOf: rows.map { "  " + TextCell.padded($0.0, to: width) + "  " + $0.1 })
      .joined(separator: "\n")
  }
}

extension Array {
  fileprivate func appending(contentsOf other: [Element]) -> [Element] { self + other }
}
