import RecordKit

/// The document and everything that keeps it on disk, in step: the editor (document and
/// undo tree), the data file (its path, identity, content hash and the bytes read or
/// last written), the history log in the state folder (which is also the crash journal)
/// and its policy, pending merge conflicts, and where progress is reported.
///
/// Every change goes through it — `edit`, `begin`, `end`, `rollback`, `travel`, `save`,
/// `open` — and each records itself in the log before it returns, so the log never has
/// to be re-derived from the editor. The log reaches the disk at the first change
/// (`prepareToChange`); a session that changes nothing writes nothing.
/// `Session` holds one and never names its log.
public struct PersistentDocument<Root: Record> {
  var editor: Editor<Root>
  /// The data file; `nil` for an unnamed document that `save FILE` names.
  var filePath: String?
  /// What the file was when read or last saved; `nil` when there was no file.
  var identity: FileIdentity?
  let fileSystem: any FileSystem
  let undoLimit: Int
  /// Where the file's log, conflicts and backups are kept; `nil`: nowhere (no history is
  /// kept, crash recovery is off).
  var stateFolder: StateFolder?
  /// The history log (also the crash journal); `nil` for an unnamed document or when it
  /// cannot be made.
  public internal(set) var journal: Journal?
  /// Whether the history is kept across sessions (`--no-undo-file` turns it off: the log
  /// is then only the crash journal, removed at a normal exit).
  var keepsHistory = true
  /// The content hash of the file as last read or saved; `nil` with no file.
  var savedHash: String?
  /// How many steps dropped by the limit, beyond the limit itself, the log may hold before
  /// it is compacted: enough that a session near the limit does not rewrite its log every
  /// time. (Tests set it low, to make compaction happen.)
  var compactionSlack = 1000
  /// The number of the state the log starts from (its header's `start`).
  var logStart = 0
  /// How `filePath` holds its records: as `--layout` named it for the file the session
  /// opened, else as its name says (a file saved as or opened later goes by its name);
  /// `nil` with no file. Set wherever `filePath` is, once: the check that refuses lists
  /// in a CSV cell asks on every command, where working it out from the name cost about
  /// 225 instructions a line.
  var fileLayout: RecordLayout?
  /// Where `open` and `save` report how far they got; `nil`: nowhere (scripts, tests).
  var progress: ProgressHandler?
  /// The file's bytes per record when last read or written: a save's progress estimates
  /// its total from it before it knows.
  var bytesPerRecord = 100
  /// The conflicts a merge left for the file, as this session settles them; `nil` when
  /// there are none.
  var pendingConflicts: PendingConflicts?
  /// Where the file's records lie in its bytes as read, which a save writes over, and the
  /// file holding them, kept open (`StoredImage`); `nil` with no file, or once saved (then
  /// `lastWritten` says how to open the file written).
  var image: StoredImage?
  /// The file as this session last wrote it, opened again for its image only when a save
  /// or the log needs it (`currentImage()`).
  var lastWritten: WrittenFile?

  /// The document of `path` (or an unnamed one, `nil`), loaded (or `preloaded`), with its
  /// history read back from `stateFolder` — nothing written yet — and the merge conflicts
  /// kept for it; the warnings to show. A missing file starts empty. See `Session.open`.
  static func open(
    path: String?, fileSystem: any FileSystem, undoLimit: Int, recovery: RecoveryChoice,
    clock: @escaping @Sendable () -> Double, progress: ProgressHandler?, preloaded: DataFile<Root>.Loaded?,
    keepsHistory: Bool, stateFolder: StateFolder?, layout: RecordLayout? = nil
  ) throws(SessionError) -> (PersistentDocument, warnings: [String]) {
    var loaded = DataFile<Root>.Loaded(document: Document(), identity: nil, hash: nil, warnings: [])
    if let preloaded {
      loaded = preloaded
    } else if let path {
      loaded = try DataFile<Root>.load(path, layout: layout, using: fileSystem, progress: progress)
    }
    let perRecord = bytesPerRecord(loaded)
    var opened = PersistentDocument(
      editor: Editor(document: loaded.takeDocument(), undoLimit: undoLimit, clock: clock), filePath: path,
      identity: loaded.identity, fileSystem: fileSystem, undoLimit: undoLimit, stateFolder: stateFolder,
      journal: nil, keepsHistory: keepsHistory, progress: progress,
      bytesPerRecord: perRecord, image: loaded.takeImage())
    opened.fileLayout = path.map { layout ?? RecordLayout(path: $0) }
    let journalWarnings = try opened.attachJournal(hash: loaded.hash, recovery: recovery)
    let conflicts = opened.readConflicts()
    return (opened, loaded.warnings + journalWarnings + conflicts)
  }

  var document: Document<Root> { editor.document }

  /// How `path` holds its records: as `--layout` said for the session's file, else as its
  /// name says.
  func layout(of path: String) -> RecordLayout {
    if path == filePath, let fileLayout { return fileLayout }
    return RecordLayout(path: path)
  }
  /// Whether the log is still to be made ready, at the first change (`prepareToChange`).
  var waitsForFirstChange: Bool { journal?.isActive == false }
  var isDirty: Bool { editor.isDirty }

  /// How many steps separate the document from the saved file, for warnings.
  var unsavedChangeCount: Int {
    let history = editor.history
    let pending = editor.pendingChangeCount
    guard let save = history.savedState, let route = history.routeLength(to: save) else {
      return max(1, history.undoCount + pending)
    }
    return max(isDirty ? 1 : 0, route.revert + route.apply + pending)
  }

  /// The bytes per record of a file just read (100 for an empty or missing one).
  static func bytesPerRecord(_ loaded: DataFile<Root>.Loaded) -> Int {
    guard let size = loaded.identity?.size, loaded.document.count > 0 else { return 100 }
    return max(1, Int(size) / loaded.document.count)
  }

  // MARK: Changes, each logged

  /// Runs an edit of the editor and logs what it did (a step, or a change in the open
  /// group); its error is the editor's, and then nothing changed.
  mutating func edit(_ body: (inout Editor<Root>) throws(EditError) -> EditOutcome<Root>) throws(EditError) {
    switch try body(&editor) {
    case .unchanged: break
    case .recorded(let change, _), .grouped(let change): logPerform(change)
    }
  }

  /// Opens a group (`begin`), in the log too.
  mutating func begin(_ name: String?, origin: String?) {
    editor.begin(name, origin: origin)
    journal?.append(.begin(name: name, origin: origin))
  }

  /// Closes the innermost group (`end`), in the log too.
  mutating func end() throws(HistoryError) -> GroupClosing<Root> {
    let closing = try editor.end()
    logEnd()
    return closing
  }

  /// Takes the innermost group's changes back (`rollback`), in the log too.
  mutating func rollback() throws(HistoryError) -> (group: History<Root>.OpenGroup, reverted: Int) {
    let result = try editor.rollback()
    journal?.append(.rollback)
    return result
  }

  /// Moves the document to another state (`undo`, `redo`, `goto`, `earlier`, `later`) and
  /// logs where it went — also when the move stopped partway at a step that does not fit.
  mutating func travel(_ body: (inout Editor<Root>) throws(HistoryError) -> HistoryMove) throws(HistoryError)
    -> HistoryMove
  {
    let before = editor.history.current
    do {
      let move = try body(&editor)
      logMove(move)
      return move
    } catch {
      let now = editor.history.current
      if now != before { logMove(HistoryMove(from: before, to: now, reverted: [], applied: [])) }
      throw error
    }
  }

  /// Closes the open groups at the end of input, keeping their work (in the log too);
  /// the groups that were open, innermost last.
  mutating func closeAllGroups() -> [History<Root>.OpenGroup] {
    let groups = editor.openGroups
    while !editor.openGroups.isEmpty {
      _ = try? editor.end()
      logEnd()
    }
    return groups
  }

  /// `history clear`: the history is dropped and the log starts again from the document
  /// as it is (which must be the saved file). Returns the warnings to show.
  mutating func clearHistory() -> [String] {
    editor = Editor(document: editor.document, undoLimit: undoLimit, clock: editor.clock)
    guard let journal else { return [] }
    return startLog(journal)
  }

  /// A copy that logs nothing (a `preview`'s scratch document).
  func detached() -> PersistentDocument {
    var copy = self
    copy.journal = nil
    return copy
  }
}
