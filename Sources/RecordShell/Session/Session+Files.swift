import RecordKit

extension Session {
  /// `save [FILE]`: atomically, refusing a file changed on disk since it was
  /// read, or another existing file, unless forced. `save FILE` makes FILE the
  /// session's file ("save as").
  mutating func save(to file: String?, force: Bool) throws(SessionError) -> [Reply] {
    guard let target = file ?? filePath else { throw .noFileName }
    do {
      if !force {
        if target == filePath {
          if try FileIdentity.fileChanged(at: target, since: identity, using: fileSystem) {
            throw SessionError.changedOnDisk(path: target)
          }
        } else if try FileIdentity.current(at: target, using: fileSystem) != nil {
          throw SessionError.fileExists(path: target)
        }
      }
      let bytes = RecordFile<Root>.encode(editor.document.records)
      let outcome = try AtomicFile.save(bytes: bytes, to: target, using: fileSystem)
      filePath = target
      identity = outcome.identity
      editor.markSaved()
      let count = editor.document.count
      var replies: [Reply] = [.info("Saved \(count) record\(count == 1 ? "" : "s") to \(target)")]
      if let warning = outcome.warning { replies.append(.warning(warning.description)) }
      return replies
    } catch let error as SessionError {
      throw error
    } catch let error as StorageError {
      throw .storage(error)
    } catch {
      throw .noFileName
    }
  }

  /// `open FILE`: refuses while a group is open, and while there are unsaved
  /// changes unless forced. A file that cannot be read changes nothing.
  mutating func open(_ path: String, force: Bool) throws(SessionError) -> [Reply] {
    do {
      try editor.refuseInsideGroup("open")
    } catch {
      throw .history(error)
    }
    if isDirty && !force {
      throw .unsavedChanges(operation: "open", count: unsavedChangeCount, file: filePath)
    }
    let loaded = try DataFile<Root>.load(path, using: fileSystem)
    editor = Editor(document: loaded.document, undoLimit: undoLimit, clock: editor.clock)
    filePath = path
    identity = loaded.identity
    selectedID = nil
    let count = loaded.document.count
    let what = loaded.identity == nil ? "new file" : "\(count) record\(count == 1 ? "" : "s")"
    return [.info("Opened \(path) (\(what))")] + loaded.warnings.map { .warning("\(path): \($0)") }
  }
}
