import RecordKit

extension Session {
  /// `log [REF] [FIELD]`: the steps from the start to now that changed the record (or that
  /// field of it), newest first, each with what it did. Reads the record's steps from the
  /// history's index by record (`History.steps(touching:)`, which says what it costs; the
  /// first `log` or `blame` after opening a file indexes the steps read back from its log).
  mutating func log(_ ref: String?, field: String?) throws(SessionError) -> String {
    let (_, position) = try target(ref, for: "log")
    let number = editor.document.number(at: position)
    var rows: [(step: History<Root>.Step, edit: RecordEdit)] = []
    for stepNumber in editor.steps(touching: number) {
      guard let step = editor.history.step(stepNumber) else { continue }
      for edit in step.command.edits(of: number).reversed() where field == nil || edit.field == field {
        rows.append((step, edit))
      }
    }
    let now = editor.clock()
    if format != .table {
      let columns = ["step", "time", "name", "field", "old", "new"]
      return RecordOutput.rows(
        columns: columns,
        rows.map { row in
          [
            .number(String(row.step.number)),
            .string(HistoryRenderer.date(row.step.time) + " " + HistoryRenderer.clock(row.step.time)),
            .string(row.step.command.name), row.edit.field.map(JSONValue.string), row.edit.old, row.edit.new,
          ]
        }, format: format)
    }
    guard !rows.isEmpty else {
      return "no step changed it" + (editor.history.droppedCount > 0 ? " (of those kept)" : "")
    }
    let width = String(rows.map(\.step.number).max() ?? 0).count
    let nameWidth = rows.map(\.step.command.name.count).max() ?? 0
    return rows.map { row in
      let number = String(row.step.number)
      let what: String
      if let name = row.edit.field {
        what =
          name + ": "
          + DiffRenderer.describe(
            RecordChanges<Root>.FieldChange(path: name, old: row.edit.old, new: row.edit.new))
      } else {
        what = row.edit.old == nil ? "(made)" : "(deleted)"
      }
      return String(repeating: " ", count: width - number.count) + number + "  "
        + HistoryRenderer.when(row.step.time, now: now) + "  "
        + TextCell.padded(TextCell.escaped(row.step.command.name), to: nameWidth) + "  " + what
    }.joined(separator: "\n")
  }

  /// `blame [REF]`: each field the record has, with the newest step from the start to
  /// now that set it (or made the record), or none when it predates the history. Reads
  /// the record's steps as `log` does, newest first, back to the one that made it.
  mutating func blame(_ ref: String?) throws(SessionError) -> String {
    let (_, position) = try target(ref, for: "blame")
    let document = editor.document
    let number = document.number(at: position)
    let record = document.records[position]
    let table = Root.fields
    let names =
      table.fields.map(\.name).filter { table.field(named: $0)?.display(in: record) != nil }
      + table.customKeys(of: record)
    var setBy: [String: History<Root>.Step] = [:]
    var madeBy: History<Root>.Step?
    for stepNumber in editor.steps(touching: number) where madeBy == nil {
      guard let step = editor.history.step(stepNumber) else { continue }
      for edit in step.command.edits(of: number).reversed() {
        guard let field = edit.field else {
          if edit.new != nil { madeBy = step }
          break
        }
        if setBy[field] == nil { setBy[field] = step }
      }
    }
    let value = { (name: String) -> String in
      (table.field(named: name) ?? FieldTable<Root>.custom(name)).display(in: record) ?? ""
    }
    let rows: [(name: String, value: String, step: History<Root>.Step?)] = names.map { name in
      (name, value(name), setBy[name] ?? madeBy)
    }
    if format != .table {
      var objects: [[JSONValue?]] = []
      for row in rows {
        var object: [JSONValue?] = [.string(row.name), .string(row.value), nil, nil, nil]
        if let step = row.step {
          object[2] = .number(String(step.number))
          object[3] = .string(HistoryRenderer.date(step.time) + " " + HistoryRenderer.clock(step.time))
          object[4] = .string(step.command.name)
        }
        objects.append(object)
      }
      return RecordOutput.rows(columns: ["field", "value", "step", "time", "name"], objects, format: format)
    }
    let width = names.reduce(0) { max($0, $1.count) }
    let valueWidth = min(40, rows.reduce(0) { max($0, TextCell.escaped($1.value).count) })
    let now = editor.clock()
    return rows.map { row in
      let line =
        TextCell.padded(row.name, to: width) + "  "
        + TextCell.padded(TextCell.truncated(TextCell.escaped(row.value), to: 40), to: valueWidth) + "  "
      guard let step = row.step else { return line + "(before the history)" }
      return line + "\(step.number)  " + HistoryRenderer.when(step.time, now: now) + "  "
        + TextCell.escaped(step.command.name)
    }.joined(separator: "\n")
  }
}
