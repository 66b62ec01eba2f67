import RecordKit

/// The conflicts `recsh merge` kept for the file: read when it is opened, written back
/// (or removed) when it is saved. `Session`'s `conflicts` and `resolve` settle them.
extension PersistentDocument {
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
  var openConflicts: [Int] {
    guard let pending = pendingConflicts else { return [] }
    return pending.file.conflicts.indices.filter { !pending.isSettled($0, in: editor.history) }
  }

  /// Where the state folder keeps the conflicts of the session's file.
  var conflictsPath: String? {
    guard let filePath, let stateFolder else { return nil }
    return stateFolder.conflictsPath(forDataFile: filePath)
  }

  /// After a save of the session's file: the conflicts still open are written back to the
  /// state folder (the file removed when none are); the settled ones are gone for good. Returns a
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
