import RecordKit

/// The conflicts a merge left beside the session's file, and how far the session has
/// settled them.
struct PendingConflicts: Sendable {
  var file: ConflictFile
  /// Per conflict, how it was settled: `nil` not yet.
  var settlements: [Settlement?]

  enum Settlement: Sendable {
    /// By a resolution that changed nothing (the file held that value already).
    case atOnce
    /// By history step `step`: settled while that step is applied, open again when it
    /// is undone (or left on another branch).
    case byStep(Int)
  }

  init(_ file: ConflictFile) {
    self.file = file
    settlements = Array(repeating: nil, count: file.conflicts.count)
  }

  func isSettled<R: Record>(_ index: Int, in history: History<R>) -> Bool {
    switch settlements[index] {
    case nil: false
    case .atOnce?: true
    case .byStep(let step)?: history.isApplied(step)
    }
  }
}

/// Merge conflicts in the shell: read when a file is opened, listed by `conflicts`,
/// settled by `resolve`, and written back (or removed) when the file is saved.
extension Session {
  /// `conflicts`: one line per open conflict (`key field: base → ours | theirs`), or rows
  /// of `key`, `field`, `base`, `ours`, `theirs` in the other formats.
  func conflictList() -> String {
    let all = persistence.pendingConflicts?.file.conflicts ?? []
    let conflicts = persistence.openConflicts.map { all[$0] }
    guard format == .table else {
      let rows: [[JSONValue?]] = conflicts.map { conflict in
        [.string(conflict.key), .string(conflict.field), conflict.base, conflict.ours, conflict.theirs]
      }
      return RecordOutput.rows(columns: ["key", "field", "base", "ours", "theirs"], rows, format: format)
    }
    guard let pending = persistence.pendingConflicts else { return "no merge conflicts" }
    guard !conflicts.isEmpty else {
      let total = pending.file.conflicts.count
      return
        "no merge conflicts left (\(total) settled; 'save' removes \"\(persistence.conflictsPath ?? "")\")"
    }
    return (conflicts.map(\.line) + ["(\(conflicts.count) open of \(pending.file.conflicts.count))"])
      .joined(separator: "\n")
  }

  /// `resolve REF FIELD CHOICE`: makes the record hold the chosen value, as one undo step
  /// named for the conflict; undoing it opens the conflict again. A choice the file holds
  /// already changes nothing, so it settles the conflict at once, with no step.
  ///
  /// REF names the record by key (also a record ours deleted) or as any REF does; FIELD as
  /// the conflict names it (`*` for the whole record: `ours` or `theirs` only).
  mutating func resolve(_ ref: String, field: String, choice: ResolveChoice) throws(SessionError)
    -> [Reply]
  {
    let open = persistence.openConflicts
    guard var pending = persistence.pendingConflicts else {
      throw .noConflict(ref: ref, field: field, open: 0)
    }
    let conflicts = pending.file.conflicts
    // A key names its record, also one ours deleted; else REF is resolved as `use` does.
    let key = open.contains { conflicts[$0].key == ref } ? ref : try? target(ref, for: "resolve").id
    guard let index = open.first(where: { conflicts[$0].key == key && conflicts[$0].field == field }) else {
      throw .noConflict(ref: ref, field: field, open: open.count)
    }
    let conflict = pending.file.conflicts[index]
    do {
      try editor.refuseInsideGroup("resolve")
    } catch {
      throw .history(error)
    }
    let name = "Resolve \(ScriptWords.word(conflict.key)) \(field)"
    persistence.begin(name, origin: nil)
    do {
      if field == MergeConflict.wholeRecord {
        try resolveRecord(conflict, choice: choice)
      } else {
        try resolveField(conflict, choice: choice)
      }
    } catch {
      _ = try? rollback()
      throw error
    }
    let closing: GroupClosing<Root>
    do {
      closing = try persistence.end()
    } catch {
      throw .history(error)
    }
    switch closing {
    case .recorded(_, let step): pending.settlements[index] = .byStep(step)
    default: pending.settlements[index] = .atOnce
    }
    persistence.pendingConflicts = pending
    let left = persistence.openConflicts.count
    return [.info("Settled \(conflict.key) \(field); \(left) conflict\(left == 1 ? "" : "s") open")]
  }

  /// A whole-record conflict: the record kept (as ours or theirs has it) or deleted.
  private mutating func resolveRecord(_ conflict: MergeConflict, choice: ResolveChoice) throws(SessionError) {
    let wanted: JSONValue?
    switch choice {
    case .ours: wanted = conflict.ours
    case .theirs: wanted = conflict.theirs
    case .value:
      throw .badResolution("a conflict of the whole record (*) is settled with 'ours' or 'theirs'")
    }
    let position = editor.document.position(ofID: conflict.key)
    if let position {
      if let wanted, case .object(let object) = wanted,
        JSONValue.object(Root.fields.encode(editor.document.records[position])) == .object(object)
      {
        return
      }
      try edit { (editor) throws(EditError) in try editor.deleteRecord(at: position) }
    }
    guard case .object(let object)? = wanted else { return }
    let record: Root
    do {
      record = try Root.fields.decode(object)
    } catch {
      throw .badRecord(error.description)
    }
    try edit { (editor) throws(EditError) in
      try editor.insertRecord(record, at: position ?? editor.document.count)
    }
  }

  /// A field conflict: the field set to the chosen value (or unset, when that side has
  /// none). A value a `set` cannot type (a JSON object) is put in place by replacing the
  /// record with one that holds it.
  private mutating func resolveField(_ conflict: MergeConflict, choice: ResolveChoice) throws(SessionError) {
    guard let position = editor.document.position(ofID: conflict.key) else {
      throw .badResolution(
        "record \(conflict.key) is not in the file any more; undo its deletion, or resolve another conflict")
    }
    let table = Root.fields
    let record = editor.document.records[position]
    let field: any FieldAccessor<Root>
    do {
      field = try table.resolve(conflict.field, in: record)
    } catch {
      throw .edit(.field(error))
    }
    let wanted: JSONValue?
    switch choice {
    case .ours: wanted = conflict.ours
    case .theirs: wanted = conflict.theirs
    case .value(let token):
      do {
        wanted = try field.parseCheckedJSON(token)
      } catch {
        throw .edit(.field(error))
      }
    }
    if field.json(in: record) == wanted { return }
    guard let wanted else {
      try edit { (editor) throws(EditError) in try editor.unset(conflict.field, onRecord: conflict.key) }
      return
    }
    if let token = ExportScript<Root>.valueToken(for: wanted, field) {
      try edit { (editor) throws(EditError) in
        try editor.set(
          FieldAssignments(FieldAssignment(conflict.field, token, createsCustomField: field.isCustom)),
          at: position)
      }
      return
    }
    // No token types it: the record is replaced by one holding the value.
    var object = table.encode(record)
    if let member = object.members.firstIndex(where: { $0.key == conflict.field }) {
      object.members[member].value = wanted
    } else {
      object.members.append(JSONObject.Member(key: conflict.field, value: wanted))
    }
    let replaced: Root
    do {
      replaced = try table.decode(object)
    } catch {
      throw .badRecord(error.description)
    }
    try edit { (editor) throws(EditError) in try editor.deleteRecord(at: position) }
    try edit { (editor) throws(EditError) in try editor.insertRecord(replaced, at: position) }
  }

}
