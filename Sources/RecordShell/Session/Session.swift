import RecordKit

/// The interpreter: the open document and its file, the selected record and
/// the undo history. It runs `ShellCommand`s and returns replies; it never
/// prints and never touches a terminal.
public struct Session<Root: Record> {
  /// The document, its undo history and its link to disk (file, log, conflicts).
  public internal(set) var persistence: PersistentDocument<Root>
  var selectedID: String?
  /// Where the selected record was last seen: a hint, checked against `selectedID`
  /// before use, so that `set` after `use` finds the record without hashing its id.
  var selectedPosition = 0
  /// Scripts leave at `quit` with a warning; at the prompt `quit` refuses once.
  let isInteractive: Bool
  var quitRefused = false
  /// At the prompt `history clear` asks once (refuses, saying what it drops), as `quit` does.
  var clearRefused = false
  /// What the first change's preparation said when that change then failed
  /// (`takeUndeliveredNotes`).
  private var undeliveredNotes: [Reply] = []
  /// The width `help` wraps to, asked when it runs: the executable gives the terminal's
  /// (which a resize changes); 80 when the output is not a terminal.
  public var outputWidth: () -> Int = { 80 }
  /// Which kind the session edits and why ("books, inferred from the records: …"), the
  /// first line of `fields`; set by whoever chose the kind.
  public var kindNote: String?
  /// How `list`, `show`, `count`, `history` and `fields` print (`--format`, `format`).
  public var format = OutputFormat.table
  /// Whether each command's wall time follows it (`--timing`, `timing on`): `run` adds a
  /// `.timing` reply after each.
  public var timing = false

  /// The editor (document and undo tree), edited in place.
  public internal(set) var editor: Editor<Root> {
    get { persistence.editor }
    _modify { yield &persistence.editor }
  }
  /// The data file; `nil` for an unnamed document that `save FILE` names.
  var filePath: String? { persistence.filePath }
  /// Where `open` and `save` report how far they got; `nil`: nowhere (scripts, tests).
  var progress: ProgressHandler? {
    get { persistence.progress }
    set { persistence.progress = newValue }
  }
  var fileSystem: any FileSystem { persistence.fileSystem }

  /// A session on `path` (or an unnamed document); a missing file starts empty
  /// and is created by the first save. Refuses files it cannot read or parse.
  /// `progress` hears how the load goes, and later `open` and `save` (see `progress`).
  public static func open(
    path: String?, fileSystem: any FileSystem = PosixFileSystem(), undoLimit: Int = 10_000,
    isInteractive: Bool = false, recovery: RecoveryChoice = .refuse,
    clock: @escaping @Sendable () -> Double = { 0 }, progress: ProgressHandler? = nil,
    preloaded: DataFile<Root>.Loaded? = nil, keepsHistory: Bool = true, stateFolder: StateFolder? = nil,
    layout: RecordLayout? = nil
  ) throws(SessionError) -> (session: Session, warnings: [String]) {
    let (persistence, warnings) = try PersistentDocument<Root>.open(
      path: path, fileSystem: fileSystem, undoLimit: undoLimit, recovery: recovery, clock: clock,
      progress: progress, preloaded: preloaded, keepsHistory: keepsHistory, stateFolder: stateFolder,
      layout: layout)
    return (Session(persistence: persistence, selectedID: nil, isInteractive: isInteractive), warnings)
  }

  public var document: Document<Root> { editor.document }
  var selectedRecord: Root? { selectedID.flatMap { editor.document.record(withID: $0) } }
  var isDirty: Bool { editor.isDirty }
  /// What the parser needs: the field table and the selected record's custom keys.
  public var parseContext: ParseContext {
    ParseContext(
      kind: Root.self, customFields: selectedID.map { editor.document.customKeys(ofRecordWithID: $0) } ?? [])
  }

  /// Parses and runs one line, one command at a time: each is parsed only once the
  /// commands before it have run, as if they stood on lines of their own. The first
  /// failure ends the line; what the commands before it did stays done.
  public mutating func run(line: String, origin: String? = nil) throws(SessionError) -> [Reply] {
    let tokenized = Tokenizer.tokenizeLine(line)
    var replies: [Reply] = []
    for tokens in tokenized.commands {
      replies += try execute(try parse(tokens), origin: origin)
    }
    if let error = tokenized.error { throw .parse(.syntax(error)) }
    return replies
  }

  /// One command of a line, parsed against the selection and custom fields as they are
  /// now (so after the commands before it on its line have run).
  func parse(_ tokens: TokenizedCommand) throws(SessionError) -> ShellCommand {
    do {
      return try ShellParser.parse(tokens, context: parseContext)
    } catch {
      throw .parse(error)
    }
  }

  /// Runs one command. On failure nothing has changed. `origin` (where the line came
  /// from) is read only by `begin`, so a script does not format it for every line.
  /// The session's first change makes the file's log ready first (`prepareToChange`),
  /// which may refuse it; its notes come before the command's replies.
  public mutating func execute(_ command: ShellCommand, origin: @autoclosure () -> String? = nil)
    throws(SessionError) -> [Reply]
  {
    if case .quit = command {} else { quitRefused = false }
    if case .clearHistory = command {} else { clearRefused = false }
    try refuseWhatNoCellHolds(command)
    guard mayChange(command) else { return try dispatch(command, origin: origin()) }
    return try preparingFirstChange { (session) throws(SessionError) in
      try session.dispatch(command, origin: origin())
    }
  }

  /// Runs `change`; when it is the session's first, the log is made ready first
  /// (`prepareToChange`, which may refuse it) and what that says comes before `change`'s
  /// replies, or, when `change` fails, waits for `takeUndeliveredNotes`: it is not said
  /// again.
  @inline(__always)
  private mutating func preparingFirstChange(_ change: (inout Self) throws(SessionError) -> [Reply])
    throws(SessionError) -> [Reply]
  {
    guard persistence.waitsForFirstChange else { return try change(&self) }
    let notes = try persistence.prepareToChange().map(Reply.warning)
    do {
      return notes + (try change(&self))
    } catch {
      undeliveredNotes = notes
      throw error
    }
  }

  /// The first change's notes when that change failed (they are not given again), for
  /// whoever reports the failure to show first: taken once.
  mutating func takeUndeliveredNotes() -> [Reply] {
    defer { undeliveredNotes = [] }
    return undeliveredNotes
  }

  /// Runs a line the parser's fast lane read (`QuickParser.scan`), `line` its bytes (UTF-8,
  /// as the fast lane needs), exactly as `execute` runs the command it is
  /// (`QuickCommand.command(in:names:)`): the same checks in the same order, the same replies
  /// and errors. The command itself is never made: the words go from the line into what
  /// `use` and `set` keep (the selected id, the pair), which saves the copies and the
  /// dispatch a script of a million `use`/`set` lines made of each.
  /// `lookahead`, when given, is the lookup of a `use`'s id begun by the runner as it read
  /// the line ahead (`LinesAhead`), taken of the same bytes.
  mutating func execute(
    _ quick: QuickCommand, in line: UnsafeBufferPointer<UInt8>, lookahead: IDLookahead? = nil
  ) throws(SessionError) -> [Reply] {
    quitRefused = false
    clearRefused = false
    switch quick {
    case .use(let ref):
      // Neither refused by a table's cells nor a change: nothing else to check. A whole
      // ASCII id (what `target` tries first) is looked up by its bytes, and the record's
      // own id kept: no string is made of the line's.
      let id = UnsafeBufferPointer(rebasing: line[ref])
      if Root.fields.key != nil,
        let position = lookahead.map({ editor.document.position(ofASCIIID: id, lookahead: $0) })
          ?? editor.document.position(ofASCIIID: id)
      {
        (selectedID, selectedPosition) = (editor.document.id(at: position), position)
      } else {
        try select(QuickCommand.word(ref, in: line))
      }
      return []
    case .set(let field, let value, let quoted):
      // The value's bytes go to the field as they are in the line (`SetValue`): the pair
      // lives only in this call.
      let assignments = FieldAssignments(
        FieldAssignment(
          declared: field, named: Root.fields.names[field], bytes: UnsafeBufferPointer(rebasing: line[value]),
          quoted: quoted))
      try refuseWhatNoCellHolds(set: assignments)
      return try preparingFirstChange { (session) throws(SessionError) in
        try session.set(assignments)
        return []
      }
    }
  }

  /// Asks the processor for the index slot of a `use` the runner read ahead
  /// (`Document.warmSlot(for:)`): changes nothing.
  func warmSlot(for lookahead: IDLookahead) {
    persistence.editor.document.warmSlot(for: lookahead)
  }

  /// Asks the processor for the record a `use` the runner read ahead most likely selects
  /// (`Document.warmRecord(for:)`): changes nothing.
  func warmRecord(for lookahead: IDLookahead) {
    persistence.editor.document.warmRecord(for: lookahead)
  }

  /// Asks the processor for the memory a `set` of declared field `field` reads first on
  /// the record a `use` the runner read ahead most likely selects
  /// (`Document.warmField(_:for:)`): changes nothing.
  func warmField(_ field: Int, for lookahead: IDLookahead) {
    persistence.editor.document.warmField(field, for: lookahead)
  }

  /// `use REF`: the record `ref` names becomes the selected one.
  private mutating func select(_ ref: String) throws(SessionError) {
    (selectedID, selectedPosition) = try target(ref, for: "use")
  }

  /// `set FIELD VALUE...` on the selected record.
  private mutating func set(_ assignments: FieldAssignments) throws(SessionError) {
    let position = try target(nil, for: "set").position
    try edit { (editor) throws(EditError) in try editor.set(assignments, at: position) }
  }

  /// Whether `command` may change the document or write its file: what makes the log
  /// ready first. Groups' `begin`, `end` and `rollback` change nothing by themselves (the
  /// edits inside do); `undo`/`redo` with nothing to move over fail without a change. A
  /// save of a document that nothing has changed in this session or before it (no step,
  /// no open group) writes the file's own records back and notes nothing: it starts no
  /// history log, so a session that changes nothing keeps nothing in the state folder.
  func mayChange(_ command: ShellCommand) -> Bool {
    switch command {
    case .new, .delete, .insert, .set, .unset, .listEdit, .bulk, .deleteWhere, .resolve, .clearHistory,
      .goto, .earlier, .later:
      return true
    case .undo: return editor.history.canUndo || editor.pendingChangeCount > 0
    case .redo: return editor.history.canRedo
    case .save(let file, _):
      return (file == nil || file == filePath)
        && (editor.history.keptCount > 0 || !editor.openGroups.isEmpty)
    default: return false
    }
  }

  private mutating func dispatch(_ command: ShellCommand, origin: @autoclosure () -> String?)
    throws(SessionError) -> [Reply]
  {
    switch command {
    case .new(let assignments): return try newRecord(assignments)
    case .delete(let ref): return try delete(ref)
    case .insert(let position, let record): return try insertRecord(record, at: position)
    case .use(let ref):
      try select(ref)
      return []
    case .set(let assignments):
      try set(assignments)
      return []
    case .unset(let field):
      let id = try target(nil, for: "unset").id
      try edit { (editor) throws(EditError) in try editor.unset(field, onRecord: id) }
      return []
    case .listEdit(let field, let element, let adding):
      let id = try target(nil, for: adding ? "add" : "remove").id
      try edit { (editor) throws(EditError) in
        try editor.editList(field, element, adding: adding, onRecord: id)
      }
      return []
    case .show(let ref):
      let position = try target(ref, for: "show").position
      return [.output(RecordOutput.show(editor.document, position: position, format: format))]
    case .list(let query): return [try list(query)]
    case .count(let filters): return [.output(try count(filters))]
    case .bulk(let assignments, let filters): return try bulkEdit(assignments, filters: filters)
    case .deleteWhere(let filters): return try deleteWhere(filters)
    case .assert(let ref, let filters): return try assertRecord(ref, filters)
    case .preview(let inner): return [.output(try preview(inner))]
    case .log(let ref, let field): return [.output(try log(ref, field: field))]
    case .blame(let ref): return [.output(try blame(ref))]
    case .diff(let from, let to): return [.outputBytes(try diff(from: from ?? .saved, to: to ?? .now))]
    case .format(let format?):
      self.format = format
      return []
    case .format(nil): return [.output(format.rawValue)]
    case .timing(let on?):
      timing = on
      return []
    case .timing(nil): return [.output(timing ? "on" : "off")]
    case .begin(let name):
      persistence.begin(name, origin: origin())
      return []
    case .end: return try endGroup()
    case .rollback: return try rollback()
    case .undo(let count): return try move(count, undo: true)
    case .redo(let count): return try move(count, undo: false)
    case .goto(let state): return try travel { (editor) throws(HistoryError) in try editor.goto(state) }
    case .earlier(let span): return try travel { (editor) throws(HistoryError) in try editor.earlier(span) }
    case .later(let span): return try travel { (editor) throws(HistoryError) in try editor.later(span) }
    case .history(let all):
      guard format == .table else {
        let (columns, rows) = HistoryRenderer.rows(editor.history, all: all)
        return [.output(RecordOutput.rows(columns: columns, rows, format: format))]
      }
      return [.output(HistoryRenderer.render(editor.history, all: all, now: editor.clock()))]
    case .clearHistory: return try clearHistory()
    case .historyInfo: return [.output(persistence.historyInfo())]
    case .save(let file, let force): return try persistence.save(to: file, force: force)
    case .open(let file, let force):
      let replies = try persistence.open(file, force: force)
      selectedID = nil
      return replies
    case .export(let file, let from, let to, let force):
      return try export(to: file, from: from, to: to, force: force)
    case .source(let file): return [.source(file)]
    case .fields:
      guard format == .table else {
        let (columns, rows) = RecordRenderer.fieldRows(of: Root.self, selected: selectedRecord)
        return [.output(RecordOutput.rows(columns: columns, rows, format: format))]
      }
      return [.output(RecordRenderer.fields(of: Root.self, selected: selectedRecord, note: kindNote))]
    case .schema:
      var text = String(
        decoding: JSONWriter.write(Root.fields.schemaDocument(title: Root.kind)), as: UTF8.self)
      if text.hasSuffix("\n") { text.removeLast() }
      return [.output(text)]
    case .help(let topic):
      return [.output(try HelpRenderer.help(topic, fields: Root.fields, width: outputWidth()))]
    case .quit(let force): return try quit(force: force)
    case .conflicts: return [.output(conflictList())]
    case .resolve(let ref, let field, let choice): return try resolve(ref, field: field, choice: choice)
    }
  }

  /// Closes open groups at the end of input, keeping their work. Returns the
  /// warnings that name them and where they were opened.
  mutating func endOfInput() -> [String] {
    let groups = persistence.closeAllGroups()
    return groups.reversed().map { group in
      "group \(group.displayName)\(group.origin.map { " (opened at \($0))" } ?? "") was still open "
        + "at the end of input; closed and kept as one undo step"
    }
  }

  /// How many steps separate the document from the saved file, for warnings.
  var unsavedChangeCount: Int { persistence.unsavedChangeCount }

  // MARK: The log, through the persistent document

  /// Writes the log's buffer to its file: call before anything is shown.
  public func writeJournal() { persistence.writeJournal() }

  /// Before waiting for input: at the prompt, flushed to the disk; in a script, batched.
  public func syncJournal() { persistence.syncJournal(everyStep: isInteractive) }

  /// A warning, once, when the log could not be written.
  func journalFailureReport() -> String? { persistence.journalFailureReport() }

  /// A normal exit: the log is marked closed and stays (or goes, when history is not kept).
  public mutating func close() { persistence.close() }

  /// For tests: the session dies as a killed process would.
  mutating func simulateKill() { persistence.simulateKill() }
}
