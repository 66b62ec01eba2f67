import RecordKit

extension PersistentDocument {
  /// `save [FILE]`: atomically, refusing a file changed on disk since it was
  /// read, or another existing file, unless forced. `save FILE` makes FILE the
  /// session's file ("save as").
  mutating func save(to file: String?, force: Bool) throws(SessionError) -> [Reply] {
    guard let target = file ?? filePath else { throw .noFileName }
    if !force { try refuseOverwriting(target) }
    let layout = layout(of: target)
    // Rows read from a table hold only text, and edits that would put a list or an object
    // in one are refused as they are made: only a conversion needs every record looked at.
    if layout.isDelimited, target != filePath || !self.layout(of: filePath ?? "").isDelimited,
      let (record, field, value) = DelimitedFile<Root>.firstUnfit(in: editor.document.records)
    {
      throw .doesNotFitCell(record: record, field: field, value: SessionError.cellWords(value), path: target)
    }
    // Saving as another file moves the journal there; take its lock first.
    var newJournal: Journal?
    var journalWarnings: [String] = []
    if target != filePath {
      (newJournal, journalWarnings) = try journalForSavingAs(target)
    }
    let outcome: SaveOutcome
    let hash: String
    let plan: FileImage.Plan
    // The bytes the file held: a "save as" starts the new file's history from them.
    var startImage: StoredImage?
    do throws(StorageError) {
      let written: Int
      let logged = target == filePath ? journal : nil
      // The history's start records first, should they still be compressed from the file:
      // their thread reads it under the mapping guard, which the save takes too.
      journal?.appendReadyBase(wait: true)
      // The old image goes with the save: the new one is opened again when next needed.
      let old = currentImage()
      image = nil
      lastWritten = nil
      do throws(StorageError) {
        (outcome, hash, written, plan) = try DataFile<Root>.save(
          editor.document, over: old, exactly: startBytes(for: target), to: target, layout: layout,
          using: fileSystem,
          progress: progress, estimatedBytes: bytesPerRecord * editor.document.count,
          bytesGone: { old.flatMap(imageFromHistory) }
        ) { hash in logWillSave(hash: hash, in: logged) }
      } catch {
        image = old
        throw error
      }
      if editor.document.count > 0 { bytesPerRecord = max(1, written / editor.document.count) }
      if target != filePath { startImage = old }
    } catch {
      newJournal?.remove()
      throw .storage(error)
    }
    lastWritten = WrittenFile(path: target, hash: hash, identity: outcome.identity, plan: plan)
    editor.markDocumentUnchanged()
    let savedAs = target != filePath
    let oldHash = savedHash
    var oldJournal: Journal?
    if savedAs {
      oldJournal = journal
      journal = newJournal
    }
    filePath = target
    if savedAs { fileLayout = RecordLayout(path: target) }
    identity = outcome.identity
    editor.markSaved()
    if savedAs {
      savedHash = hash
      continueHistory(from: oldJournal, startImage: startImage, startHash: oldHash)
      // The old file keeps its history.
      if keepsHistory { oldJournal?.close() } else { oldJournal?.remove() }
    } else if journal?.failure != nil {
      // The log stopped at a failed write: after the save it is written whole again (the
      // kept tree, from a copy of the saved state), so crash recovery is back on.
      savedHash = hash
      compactLog()
    } else {
      savedHash = hash
      journal?.append(.saved, isStep: false)
    }
    let count = editor.document.count
    var replies: [Reply] = [.info("Saved \(count) record\(count == 1 ? "" : "s") to \(target)")]
    if let warning = outcome.warning { replies.append(.warning(warning.description)) }
    if !savedAs { replies += saveConflicts(fileHash: hash) }
    return replies + journalWarnings.map(Reply.warning)
  }

  /// After a "save as", the new file's log (`journal`, active and empty) goes on with the
  /// history, whose saved state is now the new file (`savedHash`): a byte copy of the old
  /// log when it is on disk and whole (its start records are compressed: a fraction of the
  /// file), else, with no step yet, a new log whose start records are the bytes the old
  /// file held (`startImage`, compressed away from the save), else the kept tree written
  /// whole (`compactLog`: the document encoded). Then the save is noted in it.
  private mutating func continueHistory(from old: Journal?, startImage: StoredImage?, startHash: String?) {
    guard let journal else { return }
    let history = editor.history
    do throws(SystemCallError) {
      if let old, old.isActive, old.failure == nil {
        try journal.copy(from: old)
      } else if history.keptCount == 0, editor.openGroups.isEmpty, let startHash,
        let source = startImage?.baseSource()
      {
        try journal.start(
          logHeader(base: startHash, numbers: editor.document.numberRuns, start: history.start))
        logStart = history.start
        journal.startBase(source, hash: startHash)
      } else {
        compactLog()
        return
      }
    } catch {
      compactLog()
      return
    }
    journal.append(Journal.openEntry(kind: Root.kind), isStep: false)
    journal.append(
      .save(
        hash: savedHash ?? "", state: history.current, time: editor.clock(),
        numbers: editor.document.numberRuns),
      isStep: false)
    journal.append(.saved, isStep: false)
    journal.sync(force: true)
  }

  /// The bytes a save writes over: the file as read, or as this session last wrote it,
  /// opened again now (`DataFile.image(of:using:)`; its bytes are checked against the hash
  /// of what was written when a save reads them). `nil` with no file, or when the file is
  /// no longer the one written (another program replaced it: the save then writes recsh's
  /// own layout).
  func currentImage() -> StoredImage? {
    if let image { return image }
    guard let lastWritten else { return nil }
    return DataFile<Root>.image(of: lastWritten, using: fileSystem)
  }

  /// `stored` holding its bytes as the history keeps them (its log's start records, when
  /// they are the bytes `stored` was read from, by their hash): what a save writes over
  /// once another program has changed the file in place. `nil` when the log holds no such
  /// copy (no edit yet, or the history started elsewhere). Reads the whole log: a rare
  /// path, taken only once the file's own bytes are gone.
  func imageFromHistory(_ stored: StoredImage) -> FileImage? {
    guard let file = stored.file, let journal, journal.isActive else { return nil }
    journal.appendReadyBase(wait: true)
    guard let read = try? FileReader.readFile(journal.path, using: fileSystem),
      let log = try? Journal.leftover(read.bytes, modificationTime: 0), let payload = log.basePayload,
      let base = try? JournalEntry.baseRecords(payload), base.hash == file.hash
    else { return nil }
    return stored.image.holding(base.records)
  }

  /// The bytes the history starts from, when the document is back at that state (inside
  /// groups that hold no change too) and they are records of `target`'s layout that read
  /// as exactly the document's, and not in recsh's own layout (which the log writes when
  /// it compacts itself): every edit
  /// undone, in this session or a later one, a save writes the file that was opened, byte
  /// for byte. `nil` otherwise (then the save writes over the bytes read or last saved).
  /// Reads the log only when the document is back at the history's start and the file
  /// holds another state.
  func startBytes(for target: String) -> [UInt8]? {
    // The file already holding the start state, the bytes read or saved give it back.
    guard let journal, editor.history.current == editor.history.start, editor.pendingChangeCount == 0,
      editor.history.savedState != editor.history.start,
      let read = try? FileReader.readFile(journal.path, using: fileSystem),
      let log = try? Journal.leftover(read.bytes, modificationTime: 0), let payload = log.basePayload,
      let bytes = try? JournalEntry.baseRecords(payload).records
    else { return nil }
    let layout = layout(of: target)
    guard RecordLayout(sniffing: bytes[...]) == layout,
      let loaded = try? RecordFile<Root>.decode(bytes, layout: layout),
      loaded.document.records == editor.document.records,
      // Records the log encoded itself (after a compaction) are recsh's layout, not the
      // file's: the save over the bytes read keeps the file's.
      bytes != RecordFile<Root>.encode(editor.document.records, layout: layout)
    else { return nil }
    return bytes
  }

  /// Removes the temporary files that saves of `path` killed midway left beside it, when
  /// this session holds the file's journal lock (so no other recsh is saving it now).
  /// Returns a note per file removed. Called when the lock is taken (the first change)
  /// only: while it is held, no other recsh can save the file, and this session's own
  /// failed saves remove their temporary files, so no new stale one can appear.
  func removeStaleTemporaryFiles(of path: String) -> [String] {
    guard journal?.isActive == true, path == filePath else { return [] }
    return AtomicFile.removeStaleTemporaryFiles(of: path, using: fileSystem).map { removed in
      "removed \"\(removed)\", left by a save of \"\(path)\" that did not finish"
    }
  }

  /// The file changed on disk since it was read, or `target` is another file that exists.
  private func refuseOverwriting(_ target: String) throws(SessionError) {
    let refusal: SessionError?
    do throws(StorageError) {
      if target == filePath {
        let changed = try FileIdentity.fileChanged(at: target, since: identity, using: fileSystem)
        refusal = changed ? .changedOnDisk(path: target) : nil
      } else {
        let exists = try FileIdentity.current(at: target, using: fileSystem) != nil
        refusal = exists ? .fileExists(path: target, command: "save") : nil
      }
    } catch {
      // The check itself failed (say `stat` was denied): that is what is reported.
      throw .storage(error)
    }
    if let refusal { throw refusal }
  }

  /// The log of the file a "save as" goes to, made ready (locked) before anything is
  /// written. A history the file had is set aside (the save replaces the file it belongs
  /// to); unsaved steps in it, or damage, refuse the save.
  private func journalForSavingAs(_ target: String) throws(SessionError) -> (Journal?, [String]) {
    let journal: Journal
    var warnings: [String] = []
    switch Journal.read(forDataFile: target, in: stateFolder, fileSystem: fileSystem) {
    case .fresh(let fresh): journal = fresh
    case .existing(let existing, let log) where log.stepCount == 0 || log.writerAlive:
      journal = existing
      let backup: String
      do throws(StorageError) {
        (backup, _) = try existing.setAside(log.bytes)
      } catch {
        throw .storage(error)
      }
      warnings.append(
        "set the history aside as \"\(backup)\" (the save replaces \"\(target)\"); it was not applied")
    case .existing, .damaged:
      throw .journalPending(path: target)
    case .unreadable(let error):
      throw .journalUnreadable(path: target, error)
    case .notAFile(_, let kind, _):
      throw .journalNotAFile(path: target, kind)
    case .unavailable(let why):
      return (nil, ["\(why); crash recovery is off for \"\(target)\""])
    }
    let (notes, usable) = try Self.activate(journal, of: target, strict: false)
    guard usable else { return (nil, warnings + notes) }
    warnings += notes
    return (journal, warnings)
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
    let loaded = try DataFile<Root>.load(path, using: fileSystem, progress: progress)
    let count = loaded.document.count
    var opened = self
    opened.bytesPerRecord = Self.bytesPerRecord(loaded)
    opened.editor = Editor(document: loaded.takeDocument(), undoLimit: undoLimit, clock: editor.clock)
    opened.filePath = path
    opened.fileLayout = RecordLayout(path: path)
    opened.identity = loaded.identity
    opened.image = loaded.takeImage()
    opened.lastWritten = nil
    opened.journal = nil
    if path == filePath {
      // The same file again: its log is closed, then read back as the next session's would be.
      close()
    }
    opened.pendingConflicts = nil
    var journalWarnings = try opened.attachJournal(hash: loaded.hash, recovery: .refuse)
    journalWarnings += opened.readConflicts()
    if path != filePath { close() }
    self = opened
    let what = loaded.identity == nil ? "new file" : "\(count) record\(count == 1 ? "" : "s")"
    return [.info("Opened \(path) (\(what))")]
      + (loaded.warnings + journalWarnings).map { .warning("\(path): \($0)") }
  }
}
