import Glibc
import RecordKit
import RecordShell

/// Runs recsh for one record kind: opens the file, then runs the commands
/// from `-c`, `-s`, a pipe or the prompt. Exits when done; returns the exit
/// status only when the file cannot be opened.
enum Shell {
  /// The shell for the shipped kind named `name` (as `KindRegistry` names it), each
  /// called with its record type written out: `run` through an opened `any Record.Type`
  /// would run as unspecialized generic code, at about half the speed of loading and
  /// editing (docs/PERFORMANCE.md). A test checks that every kind of the registry has one.
  static func launcher(forKind name: String) -> ((Options, Start) -> Int32)? {
    KindDispatch.run(Launcher(), shipped: name, preloaded: nil)
  }

  /// The shell of a shipped kind, as `KindDispatch` makes it for its record type.
  private struct Launcher: KindWork {
    func run<Root: Record>(_ kind: Root.Type, preloaded: DataFile<Root>.Loaded?) -> (Options, Start) -> Int32
    {
      { Shell.run(Root.self, options: $0, start: $1) }
    }
  }

  /// What every shell starts with, whatever the kind: where its output goes, whether it
  /// is interactive, the progress display, and the kind chosen, with the file already
  /// loaded when choosing it read the file.
  struct Start {
    var sink: EventSink
    var interactive: Bool
    var progress: ProgressHandler?
    var preloaded: Any?
    var kindNote: String
  }

  /// Chooses the kind (`KindChoice`) and runs the shell for it. Returns the exit status
  /// only when the file (or its schema) cannot be opened.
  static func start(options: Options) -> Int32 {
    let interactive = options.commands.isEmpty && options.script == nil && isatty(0) == 1 && isatty(1) == 1
    let sink = EventSink(interactive: interactive)
    // A long open or save shows its progress at the prompt only: never in a script, never
    // when standard error is not a terminal, never with --quiet.
    let display = interactive && isatty(2) == 1 && !options.quiet ? ProgressDisplay() : nil
    let progress: ProgressHandler? = display.map { display in { display.handle($0) } }
    let choice: KindChoice
    do {
      choice = try KindChoice.choose(
        file: options.file, layout: options.layout, kindFlag: options.kind, schemaPath: options.schema,
        progress: progress,
        stateFolder: options.stateFolder)
    } catch {
      sink.streams.err(loadFailure(error))
      sink.streams.flush()
      return 3
    }
    var start = Start(
      sink: sink, interactive: interactive, progress: progress, preloaded: nil, kindNote: choice.note)
    switch choice.kind {
    case .shipped(let name, let preloaded):
      guard let launch = launcher(forKind: name) else {
        sink.streams.err("recsh: no shell for the kind \"\(name)\"")
        return 2
      }
      start.preloaded = preloaded
      return launch(options, start)
    case .runTime(let kind, let preloaded):
      start.preloaded = preloaded
      return RunTimeKind.$current.withValue(kind) { run(RunTimeRecord.self, options: options, start: start) }
    }
  }

  static func run<Root: Record>(_ kind: Root.Type, options: Options, start: Start) -> Int32 {
    let interactive = start.interactive
    let sink = start.sink
    let progress = start.progress
    let fileSystem = PosixFileSystem()
    let readFile = { (path: String) throws(SessionError) -> [UInt8] in
      do throws(StorageError) {
        return try FileReader.readFile(path, using: fileSystem).bytes
      } catch {
        throw .storage(error)
      }
    }
    // The script is read before the data file is opened, so a bad `-s` touches nothing.
    var scriptText: [UInt8]?
    if let script = options.script {
      do {
        scriptText = try readFile(script)
      } catch {
        sink.streams.err("recsh: error: cannot read the script: \(error)")
        return 2
      }
    }
    var recovery: RecoveryChoice = options.recover ? .recover : options.discardJournal ? .discard : .refuse
    var opened: (session: Session<Root>, warnings: [String])?
    while opened == nil {
      do {
        opened = try Session<Root>.open(
          path: options.file, fileSystem: fileSystem, undoLimit: options.undoLimit,
          isInteractive: interactive,
          recovery: recovery, clock: Self.clock, progress: progress,
          preloaded: start.preloaded as? DataFile<Root>.Loaded,
          keepsHistory: options.keepsHistory && !Self.undoFileTurnedOff, stateFolder: options.stateFolder,
          layout: options.layout)
      } catch {
        if case .journalFound(_, let leftover) = error, interactive, recovery == .refuse,
          let choice = askAboutJournal(leftover, file: options.file ?? "", sink: sink)
        {
          recovery = choice
          continue
        }
        sink.streams.err(loadFailure(error))
        return 3
      }
    }
    guard let openingWarnings = opened?.warnings else { return 3 }
    /// The runner, made with the opened session handed over: the session is then the one
    /// holder of the file's bytes (a copy left in a variable here would keep them past the
    /// first save, beside the saved ones).
    func handOver() -> ScriptRunner<Root>? {
      guard var session = opened?.session else { return nil }
      opened = nil
      session.outputWidth = Self.outputWidth
      session.kindNote = start.kindNote
      session.format = options.format
      session.timing = options.timing
      // A benchmark knob, not a user setting: scripts/bench measures the journal's
      // cost by running the same edits with it and without it.
      if let knob = getenv("RECSH_NO_JOURNAL"), String(cString: knob) == "1" { session.close() }
      BrokenPipe.journal = session.persistence.journal
      return ScriptRunner(session: session, readFile: readFile, emit: sink.handle)
    }
    sink.handle(.info(start.kindNote))
    guard var runner = handOver() else { return 3 }
    for warning in openingWarnings {
      sink.handle(.diagnostic(Diagnostic(.warning, warning, at: options.file)))
    }
    runner.keepGoing = options.keepGoing || interactive
    runner.echo = options.echo
    let name: String
    if let script = options.script, let scriptText {
      name = script
      var lines = TextLines(bytes: scriptText)
      runner.run(&lines, name: script)
    } else if !options.commands.isEmpty {
      name = "<command>"
      var lines = TextLines(bytes: Array(options.commands.joined(separator: [UInt8(ascii: "\n")])))
      runner.run(&lines, name: name)
    } else if interactive {
      name = "<stdin>"
      if let signal = runInteractive(&runner, sink: sink) {
        // A hang-up or termination signal is not a normal exit: the journal stays (made
        // durable here) for the next open to recover, and recsh ends by the signal itself,
        // so that its parent sees it (a shell says 129 or 143).
        runner.session.syncJournal()
        sink.streams.flush()
        Glibc.signal(signal, SIG_DFL)
        raise(signal)
        exit(128 + signal)
      }
    } else {
      name = "<stdin>"
      var lines = StandardInputLines()
      runner.run(&lines, name: name)
    }
    if !runner.quitRequested || !interactive { runner.finish(name: name) }
    if !interactive, let warning = runner.unsavedWarning { sink.streams.err(warning) }
    runner.session.writeJournal()
    sink.streams.flush()
    // A normal exit: the log is marked closed. (A signal ends recsh without this, and its
    // unsaved steps are a dead session's, to recover.)
    runner.session.close()
    // Exit here, with the session still alive: the kernel takes its memory back at
    // once, where freeing a million records one by one is slow (docs/PERFORMANCE.md).
    exit(runner.refusedEditing ? 3 : runner.failed && !interactive ? 1 : 0)
  }

  /// The clock steps are dated by: the system's, or, for tests of `earlier`/`later` and of
  /// dates in `history`, the fixed time `RECSH_CLOCK` names (seconds since 1970). A testing
  /// knob, not a user setting.
  static let clock: @Sendable () -> Double = {
    if let value = getenv("RECSH_CLOCK"), let seconds = Double(String(cString: value)) {
      return { seconds }
    }
    return { Double(time(nil)) }
  }()

  /// `RECSH_UNDO_FILE=off` (or `0`, `no`): the history is not kept across sessions.
  static var undoFileTurnedOff: Bool {
    guard let value = getenv("RECSH_UNDO_FILE") else { return false }
    return ["off", "0", "no", "false"].contains(String(cString: value).lowercased())
  }

  /// At the prompt, a journal left by a crashed session: say what it holds and ask.
  private static func askAboutJournal(_ leftover: LeftoverJournal, file: String, sink: EventSink)
    -> RecoveryChoice?
  {
    var modified = time_t(leftover.modificationTime)
    var parts = tm()
    localtime_r(&modified, &parts)
    var text = [CChar](repeating: 0, count: 64)
    strftime(&text, text.count, "%Y-%m-%d %H:%M:%S", &parts)
    let when = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    sink.streams.out(
      """
      "\(file)" has a journal of \(leftover.changeCount) unsaved change\(leftover.changeCount == 1 ? "" : "s") \
      from a session that ended abnormally
        last written \(when) by process \(leftover.pid) \
      (\(leftover.writerAlive ? "still running" : "no longer running"))\(leftover.tornTail.map { "; \($0) will be dropped" } ?? "")
      """)
    while true {
      sink.streams.out("[r]ecover the steps, [d]iscard them (kept as a backup), or [q]uit? ")
      sink.streams.flush()
      guard let answer = readLine(strippingNewline: true) else { return nil }
      switch answer.lowercased() {
      case "r", "recover": return .recover
      case "d", "discard": return .discard
      case "q", "quit": return nil
      default: continue
      }
    }
  }

  /// The prompt: errors never end it; Ctrl-D acts as `quit` (open groups are
  /// closed and kept first; unsaved changes refuse once). The history file is
  /// written when it ends. Returns the hang-up or termination signal that ended
  /// it, if one did (the terminal is back in its own mode by then).
  private static func runInteractive<Root: Record>(_ runner: inout ScriptRunner<Root>, sink: EventSink)
    -> Int32?
  {
    let editor = LineEditor(historyPath: HistoryLocation.current.prepare())
    if let warning = editor.warning { sink.streams.err(warning) }
    defer {
      if let warning = editor.close() { sink.streams.err(warning) }
    }
    let style = PromptStyle.current
    while !runner.quitRequested {
      var lines = EditedLines(
        editor: editor, prompt: style.render(runner.session.prompt), continuationPrompt: style.continuation,
        completion: runner.session.completionContext(listDirectory: DirectoryListing.entries))
      runner.run(&lines, name: "<stdin>", firstLine: runner.lastLineNumber + 1)
      if let signal = lines.terminatingSignal { return signal }
      if runner.quitRequested { break }
      if lines.reachedEnd {
        runner.finish(name: "<stdin>")
        _ = runner.runLine("quit", location: "<stdin>", chain: [])
        if isatty(0) != 1 { break }
      }
    }
    return nil
  }

  /// The terminal's width when standard output is one, else 80.
  static func outputWidth() -> Int {
    var size = winsize()
    guard isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }

  /// A data file that cannot be opened: `FILE:LINE:COLUMN: error: …` for bad
  /// contents, `recsh: error: …` otherwise.
  static func loadFailure(_ error: SessionError) -> String {
    if case .file(let path, .violations(let listed, let total)) = error {
      var lines = listed.map { "\(path):\($0.position): error: \($0)" }
      if total > listed.count {
        lines.append(
          "\(path): error: \(total - listed.count) more violation\(total - listed.count == 1 ? "" : "s") of the schema"
        )
      }
      return lines.joined(separator: "\n")
    }
    if case .file(let path, let fileError) = error {
      return "\(path):\(fileError.position): error: \(fileError.description)"
    }
    if case .schema(let path, let pointer, let message) = error {
      return "\(path): error: \(pointer): \(message)"
    }
    if case .storage(.changedWhileReading(let path)) = error {
      return "\(path): error: changed while being read; nothing was opened"
    }
    return "recsh: error: \(error)"
  }
}

/// Routes the runner's events to the streams. A class, because the runner's
/// closure and the prompt loop share it.
final class EventSink {
  var streams = StandardStreams()
  let interactive: Bool

  init(interactive: Bool) {
    self.interactive = interactive
  }

  func handle(_ event: ScriptEvent) {
    switch event {
    case .output(let text): streams.out(text)
    case .outputBytes(let bytes): streams.out(bytes: bytes)
    case .info(let text): if interactive { streams.out(text) }
    case .diagnostic(let diagnostic): streams.err(diagnostic.formatted(showingLocation: !interactive))
    case .flush: streams.flush()
    case .timing(let seconds): streams.err(ScriptEvent.timingLine(seconds))
    }
  }
}
