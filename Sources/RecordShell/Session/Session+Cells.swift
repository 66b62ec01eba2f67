import RecordKit

extension Session {
  /// Refuses an edit that would put a list or an object into a CSV or TSV file's cell
  /// (which holds text), naming the record and field, before anything changes: a `set`,
  /// `new` or bulk `set … where` of a list value or of a field that holds lists, an `add`
  /// or `remove` on one, an `insert` of a record with a list or an object in it. Other
  /// files, and every other command, pass.
  func refuseWhatNoCellHolds(_ command: ShellCommand) throws(SessionError) {
    guard persistence.fileLayout?.isDelimited == true, let path = filePath else { return }
    let selected = selectedID ?? ""
    switch command {
    case .set(let assignments):
      try refuseWhatNoCellHolds(set: assignments)
    case .new(let assignments):
      for assignment in assignments {
        try Self.refuseList(assignment.field, assignment.value, record: "(new)", path: path)
      }
    case .listEdit(let field, _, _):
      throw .doesNotFitCell(record: selected, field: field, value: "a list", path: path)
    case .bulk(let assignments, _):
      for assignment in assignments {
        switch assignment.change {
        case .set(let token):
          try Self.refuseList(assignment.field, token, record: "(each matched)", path: path)
        case .add, .remove:
          throw .doesNotFitCell(
            record: "(each matched)", field: assignment.field, value: "a list", path: path)
        case .unset: continue
        }
      }
    case .insert(_, let text):
      guard case .object(let object)? = try? JSONValue.parse(bytes: Array(text.utf8)) else { return }
      for member in object.members {
        switch member.value {
        case .array, .object:
          let id: String
          if case .string(let text)? = object["id"] { id = text } else { id = "(inserted)" }
          throw .doesNotFitCell(
            record: id, field: member.key, value: SessionError.cellWords(member.value),
            path: path)
        default: continue
        }
      }
    default: return
    }
  }

  /// `refuseWhatNoCellHolds` for `set` with `assignments` (on the selected record).
  func refuseWhatNoCellHolds(set assignments: FieldAssignments) throws(SessionError) {
    guard persistence.fileLayout?.isDelimited == true, let path = filePath else { return }
    for assignment in assignments {
      try Self.refuseList(assignment.field, assignment.value, record: selectedID ?? "", path: path)
    }
  }

  /// Refuses `token` for `field` of `record` in the table at `path` when either is a list.
  private static func refuseList(_ field: String, _ token: ValueToken?, record: String, path: String)
    throws(SessionError)
  {
    var isList = Root.fields.field(named: field)?.isList ?? false
    if case .list? = token { isList = true }
    guard isList else { return }
    throw .doesNotFitCell(record: record, field: field, value: "a list", path: path)
  }
}
