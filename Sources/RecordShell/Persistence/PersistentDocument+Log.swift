import Glibc
import RecordKit

/// What to do with a journal left by a session that died.
public enum RecoveryChoice: Sendable {
  /// Refuse to open the file, saying what was found (scripts without a flag).
  case refuse
  /// `--recover`: replay the steps; they stay undoable.
  case recover
  /// `--discard-journal`: set the unsaved steps aside as a backup; the saved history stays.
  case discard
}

extension PersistentDocument {
  /// Reads the file's history log back, without locking or writing anything (the log
  /// reaches the disk at the first change, `prepareToChange`): the undo tree of earlier
  /// sessions, placed at the saved state; a dead session's unsaved steps by `recovery`
  /// (recovering or discarding them is a change: the log is made ready at once); an
  /// outside change as one step. `hash` is the content hash of the file as loaded (`nil`:
  /// no file). Returns the warnings and notes to show.
  mutating func attachJournal(hash: String?, recovery: RecoveryChoice) throws(SessionError) -> [String] {
    guard let path = filePath else { return [] }
    savedHash = hash
    switch Journal.read(forDataFile: path, in: stateFolder, fileSystem: fileSystem) {
    case .fresh(let journal):
      return startLog(journal)
    case .unavailable(let why):
      return ["\(why); crash recovery is off for \"\(path)\""]
    case .unreadable(let error):
      throw .journalUnreadable(path: path, error)
    case .damaged(let journal, let bytes, let error):
      // Damage may hide unsaved work: the user chooses, as for a dead session's steps.
      guard recovery == .discard else { throw .journal(error) }
      return try setAsideNow(journal, bytes: bytes, because: "\(error)")
    case .existing(let journal, let log):
      return try adopt(log, journal: journal, recovery: recovery)
    case .notAFile(let journal, let kind, let backup):
      let note =
        "\"\(journal.path)\" is \(kind.description), not a history log; the first edit sets it aside as \"\(backup)\""
      return [note] + startLog(journal)
    }
  }

  /// The one warning for a journal that cannot be made.
  static func journalUnavailable(_ path: String, _ error: SystemCallError) -> String {
    "cannot create the journal of \"\(path)\" (\(error.summary)); crash recovery is off for this file"
  }

  /// Makes the log ready before the session's first change (see `Journal.activate`):
  /// nothing to do once it is, or with no log. Refuses the change — the document stays as
  /// it is — when another recsh holds the file, when the file or its log changed since
  /// this session read them (another session saved: `open!` reloads), or when the state
  /// folder is unsafe. A state folder or log that cannot be made turns crash recovery off,
  /// with one warning, and the change goes on — unless `strict` (a recovery the user asked
  /// for, which must not go on without its log): then that failure is thrown. A write that
  /// fails after the lock is taken leaves the log off until the next save, reported by
  /// `journalFailureReport` as any failed write is. Returns the notes to show.
  @discardableResult
  mutating func prepareToChange(strict: Bool = false) throws(SessionError) -> [String] {
    guard let journal, !journal.isActive, let path = filePath else { return [] }
    let changed: Bool
    do throws(StorageError) {
      changed = try FileIdentity.fileChanged(at: path, since: identity, using: fileSystem)
    } catch {
      throw .storage(error)
    }
    if changed { throw .changedSinceOpened(path: path) }
    var notes: [String]
    let usable: Bool
    (notes, usable) = try Self.activate(journal, of: path, strict: strict)
    guard usable else {
      self.journal = nil
      return notes
    }
    startBaseIfNeeded()
    notes += removeStaleTemporaryFiles(of: path)
    return notes
  }

  /// Makes `journal`, the log of `path`, ready (`Journal.activate`): its notes, and whether
  /// it can be used. Another recsh holding it, another session's change and an unsafe
  /// folder are refusals. A log that cannot be made, or a history that cannot be set
  /// aside, leave it unusable with one warning (crash recovery off) — or, `strict` (a
  /// recovery the user asked for, which must not go on without its log), are thrown.
  static func activate(_ journal: Journal, of path: String, strict: Bool) throws(SessionError) -> (
    notes: [String], usable: Bool
  ) {
    do throws(JournalActivationError) {
      return (try journal.activate(), true)
    } catch {
      switch error {
      case .locked(let pid): throw .locked(path: path, pid: pid)
      case .changedElsewhere: throw .changedSinceOpened(path: path)
      case .folder(.unsafe(let folder, let reason)): throw .unsafeStateFolder(path: folder, reason: reason)
      case .backup(let cause):
        if strict { throw .storage(cause) }
        return (["cannot set the history aside (\(cause)); crash recovery is off for this file"], false)
      case .folder(.cannotMake(_, let cause)), .folder(.cannotMove(_, let cause)), .unavailable(let cause):
        if strict { throw .storage(.failed(.save, path: journal.path, cause: cause)) }
        return ([journalUnavailable(path, cause)], false)
      }
    }
  }

  /// The header a new log of this session's document starts with.
  func logHeader(base: String?, numbers: [NumberRun]?, start: Int = 0) -> JournalEntry.Header {
    let table = Root.fields
    return JournalEntry.Header(
      base: base, pid: getpid(), time: Journal.wallClock(), kind: Root.kind,
      schema: table.keepsAllMembers ? table.schemaDocument(title: Root.kind) : nil, numbers: numbers,
      start: start)
  }

  /// Starts `journal` afresh at the document as it is (which the file holds: `savedHash`).
  /// Its start records are written before its first step (`writeBase`).
  @discardableResult
  mutating func startLog(_ journal: Journal) -> [String] {
    let document = editor.document
    do throws(SystemCallError) {
      try journal.start(logHeader(base: savedHash, numbers: document.numberRuns))
    } catch {
      journal.abandon()
      self.journal = nil
      return [Self.journalUnavailable(filePath ?? "", error)]
    }
    self.journal = journal
    logStart = editor.history.start
    journal.needsBase = document.count > 0 || savedHash != nil
    journal.append(Journal.openEntry(kind: Root.kind), isStep: false)
    startBaseIfNeeded()
    return []
  }

  /// The document at the history's start state: the open groups' changes taken back, then
  /// the steps from the start to the current state. Costs a copy of the document and the
  /// reverts (the start records and a compaction need it; no edit does).
  func historyStart() -> Document<Root> {
    let history = editor.history
    var start = editor.document
    for pending in editor.openGroups.reversed() {
      for earlier in pending.commands.reversed() { earlier.revert(in: &start) }
    }
    if let route = history.route(to: history.start) {
      for number in route.revert { history.step(number)?.command.revert(in: &start) }
    }
    return start
  }

  /// Starts the log's start records when it still needs them (`Journal.needsBase`): the
  /// history's start state, which the file holds as this session read or saved it (read
  /// where it is, on the compression's thread: the edit copies nothing), else that state
  /// rebuilt from the document and encoded. Compressed away from the edit path
  /// (`Journal.startBase`).
  /// Called when the log becomes active (the first change) and when it starts afresh.
  func startBaseIfNeeded() {
    guard let journal, journal.isActive, journal.needsBase else { return }
    journal.needsBase = false
    let history = editor.history
    if history.savedState == history.start, let image = currentImage(), let hash = savedHash,
      image.image.layout == layout(of: filePath ?? ""), let source = image.baseSource()
    {
      journal.startBase(source, hash: hash)
      return
    }
    let records = RecordFile<Root>.encode(historyStart().records)
    journal.startBase(records, hash: ContentHash.of(records))
  }

  /// Sets the log's history aside as a backup in the state folder: now when the log is
  /// active, else at the first change. Returns the messages that say so.
  func setAside(_ journal: Journal, bytes: [UInt8], because reason: String) throws(SessionError)
    -> [String]
  {
    let backup: String
    let notes: [String]
    do throws(StorageError) {
      (backup, notes) = try journal.setAside(bytes)
    } catch {
      journal.abandon()
      throw .storage(error)
    }
    guard journal.isActive else {
      return ["the history was not applied (\(reason)); the first edit sets it aside as \"\(backup)\""]
    }
    return ["set the history aside as \"\(backup)\" (\(reason)); it was not applied"] + notes
  }

  /// Sets the log's history aside and starts it afresh at once (`--discard-journal`: the
  /// user asked for the change); the messages that say so.
  private mutating func setAsideNow(_ journal: Journal, bytes: [UInt8], because reason: String)
    throws(SessionError) -> [String]
  {
    let backup: String
    do throws(StorageError) {
      (backup, _) = try journal.setAside(bytes)
    } catch {
      throw .storage(error)
    }
    startLog(journal)
    let notes = try prepareToChange(strict: true)
    return ["set the history aside as \"\(backup)\" (\(reason)); it was not applied"] + notes
  }

  /// Reads an existing log back (see `attachJournal`).
  private mutating func adopt(_ log: LeftoverJournal, journal: Journal, recovery: RecoveryChoice)
    throws(SessionError) -> [String]
  {
    // Unsaved steps of a recsh still running are its own, not a dead session's: this
    // session shows the saved state, and its first edit is refused by that one's lock.
    let unsaved = log.stepCount > 0 && !log.writerAlive
    if !keepsHistory && !unsaved {
      return try setAside(journal, bytes: log.bytes, because: "keeping the undo history is off")
        + startLog(journal)
    }
    // Not ours to read: another kind, or a log that does not read back. Unsaved work in it
    // is the user's choice; a history without any is set aside and the session goes on.
    var problem: JournalError?
    if log.header.kind != Root.kind
      || (Root.fields.keepsAllMembers
        && log.header.schema.map({ $0 != Root.fields.schemaDocument(title: Root.kind) }) ?? false)
    {
      problem = .otherKind(log.header.kind)
    }
    var restored: JournalReplay.Restored<Root>?
    if problem == nil {
      do throws(JournalError) {
        restored = try JournalReplay.restore(log, onto: editor, fileHash: savedHash)
      } catch {
        problem = error
      }
    }
    guard let restored, problem == nil else {
      let error = problem ?? .notAJournal
      if unsaved && recovery != .discard { throw .journal(error) }
      if unsaved { return try setAsideNow(journal, bytes: log.bytes, because: "\(error)") }
      return try setAside(journal, bytes: log.bytes, because: "\(error)") + startLog(journal)
    }
    if unsaved {
      switch recovery {
      case .refuse:
        throw .journalFound(path: filePath ?? "", log)
      case .discard:
        // Only the unsaved steps go: the log is cut back to its last save or session start.
        let warnings = try setAside(
          journal, bytes: log.bytes, because: "it held unsaved steps of a session that ended abnormally")
        do throws(SystemCallError) {
          try journal.truncate(toLength: restored.keptLength, records: restored.keptRecords)
        } catch {
          journal.abandon()
          throw .storage(.failed(.save, path: journal.path, cause: error))
        }
        var cut = try Self.reread(journal, log, length: restored.keptLength)
        cut.writerAlive = false
        let kept = try adopt(cut, journal: journal, recovery: .refuse)
        return warnings + ["the unsaved steps were not applied; the saved history stays"] + kept
          + (try prepareToChange(strict: true))
      case .recover:
        break
      }
    }
    journal.resume(validLength: log.validLength, records: log.recordCount)
    self.journal = journal
    var warnings: [String] = []
    if let torn = log.tornTail {
      warnings.append("dropped \(torn) at the end of the journal (a write cut short)")
    }
    // A log without its start records (a session that died before they were written, or
    // one of an earlier version): the file holds them when it is still at the start.
    journal.needsBase = !log.hasBase && (restored.stepCount == 0 || log.header.base == savedHash)
    if restored.savedHash == savedHash {
      warnings += try placeAtSave(restored, journal: journal, recovering: unsaved)
      // The log follows: its next steps are made from the saved state, not where it ended.
      if !unsaved && editor.history.current != restored.finalState {
        journal.append(.place(editor.history.current), isStep: false)
      }
    } else if restored.stepCount == 0 && !unsaved {
      // No step to keep: the log starts again from the file as it is now.
      editor = Editor(document: editor.document, undoLimit: undoLimit, clock: editor.clock)
      return warnings + startLog(journal)
    } else if unsaved {
      self.journal = nil
      throw .journal(.baseMismatch)
    } else {
      warnings += try placeAfterOutsideChange(restored, log: log, journal: journal)
    }
    journal.append(Journal.openEntry(kind: Root.kind), isStep: false)
    if unsaved {
      // Still unsaved: a crash of this session must find them again (a `goto` where the
      // tree already is counts as this session's step and changes nothing).
      journal.append(.goto(editor.history.current))
      warnings += recoverUnsaved(restored, log: log)
    }
    editor.setUndoLimit(undoLimit)
    logStart = log.header.start
    if unsaved { warnings += try prepareToChange(strict: true) }
    return warnings
  }

  /// The log as it is now on disk, after a cut to `length` bytes.
  private static func reread(_ journal: Journal, _ log: LeftoverJournal, length: Int) throws(SessionError)
    -> LeftoverJournal
  {
    do throws(JournalError) {
      guard
        let cut = try Journal.leftover(Array(log.bytes[..<length]), modificationTime: log.modificationTime)
      else { throw .notAJournal }
      return cut
    } catch {
      journal.abandon()
      throw .journal(error)
    }
  }

  /// The file holds the last saved state: the tree is placed there, the document's records
  /// take their numbers back.
  /// `recovering`: a dead session's unsaved steps are recovered, so the tree stays where
  /// that session left it and the document is brought there from the saved state.
  private mutating func placeAtSave(
    _ restored: JournalReplay.Restored<Root>, journal: Journal, recovering: Bool
  )
    throws(SessionError) -> [String]
  {
    var document = editor.document
    let onDisk = document
    if let numbers = restored.savedNumbers {
      do throws(DocumentError) {
        document = try Document(renumbering: document, by: numbers)
      } catch {
        journal.abandon()
        self.journal = nil
        throw .journal(.badEntry(record: 0, reason: "the saved records' numbers: \(error)"))
      }
    }
    // A save inside a group wrote the group's changes so far: they are taken back, to the
    // state the group began at.
    for command in restored.savedPending.reversed() {
      guard command.isRevertible(in: document) else {
        journal.abandon()
        self.journal = nil
        throw .journal(
          .replayFailed(record: 0, reason: "\(command.name), saved inside a group, is not in the file"))
      }
      command.revert(in: &document)
    }
    var rebuilt = restored.editor
    rebuilt.checkedBelow = rebuilt.history.nextNumber
    rebuilt.replaceDocument(document)
    if recovering {
      do throws(HistoryError) {
        try rebuilt.bringDocument(from: restored.savedState)
      } catch {
        journal.abandon()
        self.journal = nil
        throw .journal(.replayFailed(record: 0, reason: "\(error)"))
      }
      editor = rebuilt
      return []
    }
    rebuilt.place(at: restored.savedState)
    editor = rebuilt
    if !restored.savedPending.isEmpty {
      editor.markUnsaved()
      if !restored.closed { return [] }
      // The session ended normally after a save inside a group: the file's records are
      // kept as one step from the state the group began at.
      recordFileDifference(to: onDisk, named: "Saved inside a group", journal: journal)
      return [
        "the file was saved inside a group: its records are step \(editor.history.current), \"Saved inside a group\""
      ]
    }
    guard restored.closed, restored.finalState != restored.savedState else { return [] }
    // Ahead on the branch `redo` walks, or elsewhere in the tree.
    guard let index = editor.history.stepsAhead(Int.max).firstIndex(of: restored.finalState) else {
      return [
        "the last session ended at step \(restored.finalState), not saved; 'goto \(restored.finalState)' brings it back"
      ]
    }
    let ahead = index + 1
    return [
      "the last session left \(ahead) unsaved step\(ahead == 1 ? "; 'redo' brings it back" : "s; 'redo' brings them back")"
    ]
  }

  /// The file was changed by another program since recsh saved it: the saved state is
  /// rebuilt from the log's start and its steps, and the difference becomes one step.
  /// Where that cannot be done the history is set aside and starts again from the file.
  private mutating func placeAfterOutsideChange(
    _ restored: JournalReplay.Restored<Root>, log: LeftoverJournal, journal: Journal
  ) throws(SessionError) -> [String] {
    let onDisk = editor.document
    let saved: Document<Root>
    do throws(JournalError) {
      saved = try Self.savedDocument(restored, log: log, fileLayout: layout(of: filePath ?? ""))
    } catch {
      editor = Editor(document: onDisk, undoLimit: undoLimit, clock: editor.clock)
      return try setAside(
        journal, bytes: log.bytes, because: "the file was changed outside recsh, and \(error)")
        + startLog(journal)
    }
    var rebuilt = restored.editor
    rebuilt.checkedBelow = rebuilt.history.nextNumber
    rebuilt.replaceDocument(saved)
    rebuilt.place(at: restored.savedState)
    editor = rebuilt
    if restored.finalState != restored.savedState {
      journal.append(.place(restored.savedState), isStep: false)
    }
    let count = recordFileDifference(to: onDisk, named: Self.outsideChangeName, journal: journal)
    guard count > 0 else {
      return [
        "the file was reformatted outside recsh (every record is the same); the next save writes recsh's formatting"
      ]
    }
    return [
      "the file was changed outside recsh since it saved it: recorded as step \(editor.history.current), "
        + "\"\(Self.outsideChangeName)\" (\(count) record change\(count == 1 ? "" : "s")); "
        + "'undo' gives back what recsh saved"
    ]
  }

  /// Records, as one step named `name`, the difference from the document to the file's
  /// records `onDisk`, and notes that the file holds it (a save in the log).
  /// Returns how many record changes it holds.
  @discardableResult
  private mutating func recordFileDifference(to onDisk: Document<Root>, named name: String, journal: Journal)
    -> Int
  {
    let difference = RecordDifference.commands(from: editor.document, to: onDisk)
    if !difference.isEmpty {
      let command = Command<Root>.group(name: name, CommandList(difference))
      editor.perform(command)
      logPerform(command)
    }
    editor.markSaved()
    journal.append(
      .save(
        hash: savedHash ?? "", state: editor.history.current, time: editor.clock(),
        numbers: editor.document.numberRuns),
      isStep: false)
    journal.append(.saved, isStep: false)
    return difference.count
  }

  /// The name of the step an outside change becomes.
  static var outsideChangeName: String { "Changed outside recsh" }

  /// The document recsh last saved: the log's start records, with the steps from the start
  /// to the saved state applied (each checked against the state it applies to).
  private static func savedDocument(
    _ restored: JournalReplay.Restored<Root>, log: LeftoverJournal, fileLayout: RecordLayout
  )
    throws(JournalError) -> Document<Root>
  {
    var document = Document<Root>()
    if let base = log.basePayload {
      // Its CRC-32 did not cover the records: their hash does, checked now they are needed.
      let parts = try JournalEntry.baseRecords(base)
      do {
        // The data file's bytes, or records encoded as an array: either layout. A table's
        // bytes are read as the file's layout says (a one-column TSV has no tab to sniff).
        let sniffed = RecordLayout(sniffing: parts.records[...])
        let loaded = try RecordFile<Root>.decode(
          parts.records, layout: sniffed.isDelimited && fileLayout.isDelimited ? fileLayout : sniffed)
        document = loaded.document
        if let numbers = log.header.numbers { document = try Document(renumbering: document, by: numbers) }
      } catch {
        throw .badEntry(record: 1, reason: "its start records cannot be read: \(error)")
      }
    } else if log.header.base != nil {
      throw .badEntry(record: 0, reason: "it does not keep the records it starts from")
    }
    let history = restored.editor.history
    var way: [Int] = []
    var state = restored.savedState
    while state != history.start {
      way.append(state)
      state = history.parent(of: state)
    }
    for number in way.reversed() {
      guard let command = history.step(number)?.command, command.isApplicable(to: document) else {
        throw .replayFailed(record: 0, reason: "step \(number) does not fit the records it starts from")
      }
      command.apply(to: &document)
    }
    return document
  }

  /// A dead session's unsaved steps, recovered: the document goes where the log left it,
  /// and groups open then are closed and kept.
  private mutating func recoverUnsaved(_ restored: JournalReplay.Restored<Root>, log: LeftoverJournal)
    -> [String]
  {
    var warnings = [
      "recovered \(log.changeCount) change\(log.changeCount == 1 ? "" : "s") "
        + "from a session that ended abnormally; they are not saved yet"
    ]
    for group in restored.openGroups {
      editor.begin(group.name, origin: group.origin)
      for command in group.commands where command.isApplicable(to: editor.document) {
        editor.perform(command)
      }
    }
    for group in restored.openGroups.reversed() {
      journal?.append(.end)
      warnings.append(
        "group \(group.name.map { "'\($0)'" } ?? "unnamed group") was open when the session ended; closed and kept"
      )
    }
    editor.closeAllGroups()
    return warnings
  }

  /// Rewrites the log to the kept tree when it holds much more than the limit keeps: more
  /// steps the limit dropped than the limit and `compactionSlack` together (steps are
  /// numbered in the order they were made, so the log holds those from its start's number
  /// on). When a file is opened, and at a normal exit.
  mutating func compactIfLarge() {
    let logged = editor.history.nextNumber - 1 - logStart
    guard undoLimit > 0, keepsHistory, logged - editor.history.keptCount > undoLimit + compactionSlack else {
      return
    }
    compactLog()
  }

  /// Rewrites the log as the tree kept now: a header, the start state's records, each
  /// kept step from its parent, the saves, and the current state.
  mutating func compactLog() {
    guard let journal, journal.isActive, editor.openGroups.isEmpty else { return }
    let history = editor.history
    let start = historyStart()
    let header = logHeader(base: nil, numbers: start.numberRuns, start: history.start)
    let records = JournalReplay.entries(
      of: history, startingFrom: start, header: header, savedHash: savedHash,
      savedNumbers: editor.document.numberRuns)
    do throws(SystemCallError) {
      try journal.replace(with: records)
      logStart = history.start
    } catch {
      // The old log is whole and still ours: appending goes on there.
    }
  }

  // MARK: Recording changes

  /// A command was performed: a new step, or part of the open group.
  func logPerform(_ command: Command<Root>) {
    logPerform(EditChange(command))
  }

  /// A change was made: a new step, or part of the open group.
  func logPerform(_ change: EditChange<Root>) {
    guard let journal else { return }
    journal.noteTime(editor.clock())
    // The bytes of `JournalEntry.perform(…).payload`, written in place.
    if journal.writesCompactSteps && change.isCompactStep {
      journal.append { out in change.appendStep(to: &out) }
    } else {
      journal.append { out in
        out += JournalEntry.performPrefix
        change.appendEncoded(to: &out)
        out.append(UInt8(ascii: "}"))
      }
    }
  }

  /// `end`: closes the group in the log too.
  func logEnd() {
    guard let journal else { return }
    journal.noteTime(editor.clock())
    journal.append(.end)
  }

  /// The document moved to another state.
  func logMove(_ move: HistoryMove) {
    guard move.moved else { return }
    journal?.append(.goto(move.to))
  }

  /// A save is about to replace the file with bytes of content hash `hash`: the log notes
  /// which state they hold (inside a group, with how many of the group's changes), and
  /// is flushed to the disk first. Reading the log back takes the last save whose hash
  /// the file has, so a crash before the rename leaves the earlier save in force.
  func logWillSave(hash: String, in journal: Journal?) {
    guard let journal else { return }
    // The start records first: once the file is replaced, only the log holds them.
    journal.appendReadyBase(wait: true)
    let pending = editor.pendingChangeCount
    journal.append(
      .save(
        hash: hash, state: editor.history.current, time: editor.clock(), numbers: editor.document.numberRuns,
        pending: pending),
      isStep: false)
    journal.sync(force: true)
  }

  /// Writes the journal's buffer to its file: call before anything is shown.
  func writeJournal() {
    journal?.write()
  }

  /// Before waiting for input: at the prompt (`everyStep`), flushed to the disk; in a
  /// script, batched.
  func syncJournal(everyStep: Bool) {
    if everyStep { journal?.sync() } else { journal?.writeBatched() }
  }

  /// A warning, once, when the journal could not be written.
  func journalFailureReport() -> String? {
    journal?.takeFailureReport()
  }

  /// For tests: the session dies as a killed process would.
  mutating func simulateKill() {
    journal?.simulateKill()
    journal = nil
  }

  /// A normal exit: the log is marked closed and stays (or goes, when history is not kept).
  mutating func close() {
    if journal != nil, editor.openGroups.isEmpty { compactIfLarge() }
    if keepsHistory { journal?.close() } else { journal?.remove() }
    journal = nil
  }
}

extension PersistentDocument {
  /// `history info`: where the file's history is kept and whether it is on disk yet, its
  /// size there, its steps (kept in the tree, and the numbers made), its oldest step's
  /// date, and the backups set aside for the file. Reads the folder only (`stat`, a listing).
  func historyInfo() -> String {
    guard let path = filePath else { return "no file: an unnamed document keeps its history in memory only" }
    guard let stateFolder else {
      return "no state folder (neither HOME nor RECSH_STATE_DIR is set): no history is kept"
    }
    var lines: [String] = []
    let log = journal?.path ?? stateFolder.logPath(forDataFile: path)
    lines.append("history of \(path): \(log)")
    switch stateFolder.check(using: fileSystem) {
    case .unsafe(let reason): lines.append("the state folder is unsafe: \(reason)")
    case .unexaminable(let error): lines.append("the state folder cannot be examined: \(error.description)")
    case .missing, .usable: break
    }
    if let status = try? fileSystem.lstat(log) {
      lines.append("size on disk: \(Self.byteCount(status.size))")
    } else {
      lines.append("size on disk: none yet (written at this session's first change)")
    }
    if journal == nil { lines.append("crash recovery is off for this file") }
    if !keepsHistory { lines.append("kept: not across sessions (--no-undo-file)") }
    let history = editor.history
    let kept = history.keptCount
    lines.append("steps: \(kept) kept (numbered up to \(history.nextNumber - 1))")
    if let oldest = history.keptSteps.map(\.time).min() {
      lines.append("oldest step: \(HistoryRenderer.date(oldest)) \(HistoryRenderer.clock(oldest))")
    }
    let backups = stateFolder.backups(ofLog: log, using: fileSystem)
    if backups.isEmpty {
      lines.append("backups: none")
    } else {
      lines.append("backups: \(backups.count) (at most \(StateFolder.backupLimit) are kept)")
      for backup in backups.reversed() {
        let size = (try? fileSystem.lstat(backup)).map { Self.byteCount($0.size) } ?? "?"
        lines.append("  \(backup) (\(size))")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `1234 bytes`, `12.3 KB`, `4.5 MB`: a size as people read it.
  static func byteCount(_ bytes: Int64) -> String {
    if bytes < 10_000 { return "\(bytes) byte\(bytes == 1 ? "" : "s")" }
    let units = ["KB", "MB", "GB", "TB"]
    var value = Double(bytes) / 1000
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    let rounded = (value * 10).rounded() / 10
    return "\(rounded) \(units[unit]) (\(bytes) bytes)"
  }
}
