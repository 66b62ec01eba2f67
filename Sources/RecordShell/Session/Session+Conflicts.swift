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
  /// Reads the conflicts `recsh merge` kept for the session's file in the state folder,
  /// if there are any; returns what opening says of them (how many conflicts, where, how
  /// to settle them), or why they cannot be read (the file is then left as it is). A
  /// conflicts file an earlier recsh left beside the data file is moved in first, with a
  /// message.
  mutating func readConflicts() -> [String] {
    pendingConflicts = nil
    guard let filePath, let stateFolder, let path = conflictsPath else { return [] }
    // An unsafe folder is never read (another user could have put conflicts there).
    switch stateFolder.check(using: fileSystem) {
    case .unsafe, .unexaminable: return []
    case .missing, .usable: break
    }
    var notes: [String] = []
    let old = Journal.sidePath(forDataFile: filePath, ending: ".recsh-conflicts")
    if let status = try? fileSystem.lstat(old), status.kind == .regularFile,
      (try? fileSystem.lstat(path)) == nil
    {
      do throws(StateFolderError) {
        try stateFolder.moveIn(old, to: path, using: fileSystem)
        notes.append(
          "moved the merge conflicts of \"\(filePath)\" from \"\(old)\" into recsh's state folder, as \"\(path)\""
        )
      } catch {
        return ["cannot move the merge conflicts \"\(old)\" into recsh's state folder: \(error)"]
      }
    }
    return notes + readConflicts(at: path)
  }

  /// The conflicts file at `path` read (see `readConflicts()`).
  private mutating func readConflicts(at path: String) -> [String] {
    let bytes: [UInt8]
    do {
      bytes = try FileReader.readFile(path, using: fileSystem).bytes
    } catch {
      if case .notFound = error { return [] }
      return ["cannot read the merge conflicts: \(error.description)"]
    }
    let file: ConflictFile
    do {
      file = try ConflictFile.decode(bytes)
    } catch {
      return ["cannot read the merge conflicts in \"\(path)\": \(error.description); it is left as it is"]
    }
    guard !file.conflicts.isEmpty else { return [] }
    pendingConflicts = PendingConflicts(file)
    let count = file.conflicts.count
    let changed =
      savedHash != nil && savedHash != file.hash ? " (the file has changed since the merge wrote it)" : ""
    return [
      "\(count) merge conflict\(count == 1 ? "" : "s") kept in \"\(path)\"\(changed): the file holds ours' "
        + "value\(count == 1 ? "" : "s"); 'conflicts' lists them, 'resolve REF FIELD ours|theirs|VALUE' settles each"
    ]
  }

  /// The indices of the conflicts not settled in the current state.
  private var openConflicts: [Int] {
    guard let pending = pendingConflicts else { return [] }
    return pending.file.conflicts.indices.filter { !pending.isSettled($0, in: editor.history) }
  }

  /// `conflicts`: one line per open conflict (`key field: base → ours | theirs`), or rows
  /// of `key`, `field`, `base`, `ours`, `theirs` in the other formats.
  func conflictList() -> String {
    let all = pendingConflicts?.file.conflicts ?? []
    let conflicts = openConflicts.map { all[$0] }
    guard format == .table else {
      let rows: [[JSONValue?]] = conflicts.map { conflict in
        [.string(conflict.key), .string(conflict.field), conflict.base, conflict.ours, conflict.theirs]
      }
      return RecordOutput.rows(columns: ["key", "field", "base", "ours", "theirs"], rows, format: format)
    }
    guard let pending = pendingConflicts else { return "no merge conflicts" }
    guard !conflicts.isEmpty else {
      let total = pending.file.conflicts.count
      return "no merge conflicts left (\(total) settled; 'save' removes \"\(conflictsPath ?? "")\")"
    }
    return (conflicts.map(\.line) + ["(\(conflicts.count) open of \(pending.file.conflicts.count))"])
      .joined(separator: "\n")
  }

  /// Where the state folder keeps the conflicts of the session's file.
  private var conflictsPath: String? {
    guard let filePath, let stateFolder else { return nil }
    return stateFolder.conflictsPath(forDataFile: filePath)
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
    let open = openConflicts
    guard var pending = pendingConflicts else { throw .noConflict(ref: ref, field: field, open: 0) }
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
    editor.begin(name)
    journalBegin(name, origin: nil)
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
      closing = try editor.end()
    } catch {
      throw .history(error)
    }
    journalEnd()
    switch closing {
    case .recorded(_, let step): pending.settlements[index] = .byStep(step)
    default: pending.settlements[index] = .atOnce
    }
    pendingConflicts = pending
    let left = openConflicts.count
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
          [FieldAssignment(conflict.field, token, createsCustomField: field.isCustom)], at: position)
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

  /// After a save of the session's file: the conflicts still open are written back beside
  /// it (the file removed when none are); the settled ones are gone for good. Returns a
  /// warning when that fails (the save itself stands).
  mutating func saveConflicts(fileHash: String) -> [Reply] {
    guard let pending = pendingConflicts, let path = conflictsPath else { return [] }
    let open = openConflicts
    guard open.count < pending.file.conflicts.count || pending.file.hash != fileHash else { return [] }
    if open.isEmpty {
      do throws(SystemCallError) {
        try fileSystem.unlink(path)
      } catch {
        return [
          .warning(
            "all merge conflicts are settled, but \"\(path)\" could not be removed: \(error.description)")
        ]
      }
      pendingConflicts = nil
      return [.info("All merge conflicts settled; removed \"\(path)\"")]
    }
    let left = ConflictFile(hash: fileHash, conflicts: open.map { pending.file.conflicts[$0] })
    do throws(StorageError) {
      try AtomicFile.save(bytes: left.encoded(), to: path, using: fileSystem)
    } catch {
      return [.warning("the merge conflicts still open could not be written: \(error.description)")]
    }
    pendingConflicts = PendingConflicts(left)
    return []
  }
}
