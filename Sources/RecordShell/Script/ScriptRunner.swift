import RecordKit

/// Runs lines of input through a session: the script mode (a pipe, `-s`, `-c`) and the
/// loop behind the prompt. Diagnostics name where they come from
/// (`FILE:LINE:`, `<stdin>:N:`, `<command>:N:`) with the chain of `source`s.
public struct ScriptRunner<Root: Record> {
  public var session: Session<Root>
  /// `-k`: go on after a failed command.
  public var keepGoing = false
  /// `-e`: print each command before running it.
  public var echo = false
  /// Whether a command failed (the exit status is 1 then).
  public private(set) var failed = false
  /// Whether a script ended because the file cannot be edited by this session
  /// (`SessionError.refusesEditing`): the exit status is 3 then, as for a file that
  /// cannot be opened. At the prompt the user goes on (`open!` reloads).
  public private(set) var refusedEditing = false
  /// The number of the last line the latest `run` read.
  public private(set) var lastLineNumber = 0
  /// Whether `quit` was accepted.
  public private(set) var quitRequested = false
  /// Reads a sourced file's bytes; the executable gives the real one, tests a fake.
  var readFile: (String) throws(SessionError) -> [UInt8]
  private let emit: (ScriptEvent) -> Void
  private var sourceStack: [String] = []
  private let quickParser = QuickParser(kind: Root.self)

  static var sourceDepthLimit: Int { 64 }

  public init(
    session: Session<Root>, readFile: @escaping (String) throws(SessionError) -> [UInt8],
    emit: @escaping (ScriptEvent) -> Void
  ) {
    self.session = session
    self.readFile = readFile
    self.emit = emit
  }

  /// Runs `source` to its end, a `quit`, or (without `-k`) the first failure.
  /// `name` is how diagnostics call it; `chain` the `source` lines that led here;
  /// `firstLine` numbers the first line read (the prompt reads one line per call).
  /// Returns whether to go on with whatever comes after.
  @discardableResult
  public mutating func run(
    _ source: inout some LineSource, name: String, chain: [String] = [], firstLine: Int = 1
  ) -> Bool {
    var lineNumber = firstLine - 1
    defer { lastLineNumber = lineNumber }
    // Read from a local, which no line can change: read from `self` (which the closure
    // below holds inout) its field table was retained and released on every line.
    let quickParser = quickParser
    while true {
      // The lines the source holds whole run from where they are while the fast lane
      // takes them, read a few ahead (`LinesAhead`); the first it does not take is read
      // below.
      var heldOutcome: HeldLines?
      let lent = source.withHeldLines(beforeWaiting: { self.waiting() }) { bytes -> Int in
        var ahead = LinesAhead<Root>(bytes, parser: quickParser)
        var used = 0
        while let line = ahead.next(warming: &session) {
          lineNumber += 1
          let goOn = runQuick(
            line.quick, in: UnsafeBufferPointer(rebasing: bytes[line.bytes]), lookahead: line.lookahead,
            at: Place(name: name, line: lineNumber), chain: chain)
          used = line.next
          if !goOn {
            heldOutcome = .stop
            return used
          }
        }
        heldOutcome = ahead.stopped ? .slowLine : .more
        return used
      }
      if lent {
        switch heldOutcome {
        case .stop?: return false
        case .more?: continue
        case .slowLine?, nil: break
        }
      }
      // The fast lane reads the line's bytes where the source holds them and runs what it
      // scanned there and then, from the bytes (`Session.execute(_:in:)`): no command is
      // made of the line. Any other line becomes a `String` for the tokenizer.
      let read = source.withNextLine(beforeWaiting: { self.waiting() }) { bytes -> LineRead in
        lineNumber += 1
        do throws(TokenizerError) {
          try Tokenizer.validateUTF8(bytes)
        } catch {
          return .invalid(error, echoed: echo ? String(decoding: bytes, as: UTF8.self) : nil)
        }
        guard let quick = quickParser.scan(bytes: bytes) else {
          return .line(String(decoding: bytes, as: UTF8.self))
        }
        return .ran(
          goOn: runQuick(quick, in: bytes, at: Place(name: name, line: lineNumber), chain: chain))
      }
      guard let read else { return true }
      let startLine = lineNumber
      var line: String
      switch read {
      case .ran(let goOn):
        if !goOn { return false }
        continue
      case .line(let text):
        line = text
      case .invalid(let error, let echoed):
        if let echoed { report(.output(echoed)) }
        let message = SessionError.parse(.syntax(error)).description
        if !fail(message, location: Place(name: name, line: startLine).text, chain: chain) { return false }
        continue
      }
      // Tokenized once: the result says whether an open quote or list needs
      // the next line, and is what the parser then reads.
      var tokenized = Tokenizer.tokenizeLine(line)
      while tokenized.needsContinuation,
        let more = source.withNextLine(beforeWaiting: { self.waiting() }, Self.checkedText)
      {
        lineNumber += 1
        switch more {
        case .success(let text):
          line += "\n" + text
          tokenized = Tokenizer.tokenizeLine(line)
        case .failure(let error):
          // A continuation line that is not UTF-8 fails the command it continues, at its line.
          tokenized.error = TokenizerError(
            error.reason, line: lineNumber - startLine + 1, column: error.column)
        }
      }
      let place = Place(name: name, line: startLine)
      if echo, !line.allSatisfy({ $0 == " " || $0 == "\t" }) { report(.output(line)) }
      if !runTokenized(tokenized, at: place, chain: chain) { return false }
      if quitRequested { return false }
    }
  }

  /// A line's text, or why its bytes are not UTF-8.
  private static func checkedText(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<String, TokenizerError> {
    Result { () throws(TokenizerError) in
      try Tokenizer.validateUTF8(bytes)
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// Everything owed to the reader goes out before the shell waits for input:
  /// the journal first (so what is shown as done survives a kill), then the output.
  private func waiting() {
    session.syncJournal()
    emit(.flush)
  }

  /// Hands an event on; the journal is written before anything is shown.
  private func report(_ event: ScriptEvent) {
    session.writeJournal()
    emit(event)
  }

  /// Runs one line; whether to go on.
  public mutating func runLine(_ line: String, location: String, chain: [String]) -> Bool {
    runTokenized(Tokenizer.tokenizeLine(line), at: Place(name: location, line: nil), chain: chain)
  }

  /// Runs one tokenized line as the same commands on separate lines would run: each
  /// command is parsed only once the ones before it have run (against the selection and
  /// custom fields as they are then), a failed one stops the line unless `-k` says go on,
  /// and a tokenizer error fails where it stands, after the commands before it.
  /// Returns whether to go on.
  private mutating func runTokenized(_ tokenized: TokenizedLine, at place: Place, chain: [String]) -> Bool {
    for tokens in tokenized.commands {
      let command: ShellCommand
      do {
        command = try session.parse(tokens)
      } catch {
        if !fail(error.description, location: place.text, chain: chain) { return false }
        continue
      }
      if !run(command, at: place, chain: chain) || quitRequested { return false }
    }
    if let error = tokenized.error {
      return fail(SessionError.parse(.syntax(error)).description, location: place.text, chain: chain)
    }
    return true
  }

  /// Runs one command and reports its replies; whether to go on.
  private mutating func run(_ command: ShellCommand, at place: Place, chain: [String]) -> Bool {
    run(at: place, chain: chain) { (session, origin) throws(SessionError) in
      try session.execute(command, origin: origin())
    }
  }

  /// Runs one command, `execute` given the session and where the line came from, and
  /// reports its replies (timed under `timing on`; a failure reported as such); whether
  /// to go on. Inlined into its two callers, so that the fast lane's `execute` is called
  /// directly rather than through a closure.
  @inline(__always)
  private mutating func run(
    at place: Place, chain: [String],
    _ execute: (inout Session<Root>, @autoclosure () -> String?) throws(SessionError) -> [Reply]
  ) -> Bool {
    let replies: [Reply]
    // `timing on` and `timing off` themselves are not timed.
    let timed = session.timing
    let started = timed ? MonotonicClock.seconds() : 0
    defer {
      if timed, session.timing { report(.timing(MonotonicClock.seconds() - started)) }
    }
    do {
      replies = try execute(&session, place.text)
    } catch {
      // What the first change said before it failed (the log cannot be kept, say) comes
      // before the error.
      for case .warning(let text) in session.takeUndeliveredNotes() {
        report(.diagnostic(Diagnostic(.warning, text, at: place.text, chain: chain)))
      }
      if error.refusesEditing && !session.isInteractive {
        refusedEditing = true
        _ = fail(error.description, location: place.text, chain: chain)
        return false
      }
      return fail(error.description, location: place.text, chain: chain)
    }
    if let warning = session.journalFailureReport() {
      report(.diagnostic(Diagnostic(.warning, warning, at: place.text)))
    }
    for reply in replies {
      switch reply {
      case .output(let text): report(.output(text))
      case .outputBytes(let bytes): report(.outputBytes(bytes))
      case .info(let text): report(.info(text))
      case .warning(let text): report(.diagnostic(Diagnostic(.warning, text, at: place.text, chain: chain)))
      case .quit: quitRequested = true
      case .source(let file):
        if !runSource(file, location: place.text, chain: chain) { return false }
      }
      if quitRequested { return false }
    }
    return true
  }

  /// Runs a line the parser's fast lane scanned (`QuickParser.scan`), `text` its bytes,
  /// echoed first under `-e`; `lookahead`, a `use`'s lookup begun when the line was read
  /// ahead. Whether to go on: false after a failure without `-k`, or a `quit`.
  @inline(__always)
  private mutating func runQuick(
    _ quick: QuickCommand, in text: UnsafeBufferPointer<UInt8>, lookahead: IDLookahead? = nil,
    at place: Place, chain: [String]
  ) -> Bool {
    if echo { report(.output(String(decoding: text, as: UTF8.self))) }
    let goOn = run(at: place, chain: chain) { (session, _) throws(SessionError) in
      try session.execute(quick, in: text, lookahead: lookahead)
    }
    return goOn && !quitRequested
  }

  /// Where a line came from: `name:line` (`script.rsh:3`), or a name alone. Its text is
  /// made only when something needs it (an error, a group's origin), not for every line.
  private struct Place {
    let name: String
    let line: Int?

    var text: String { line.map { "\(name):\($0)" } ?? name }
  }

  /// A nested script. A group it opens must be closed in it: one left open is
  /// closed (its work kept) and reported as a failure.
  private mutating func runSource(_ file: String, location: String, chain: [String]) -> Bool {
    guard chain.count < Self.sourceDepthLimit else {
      return fail(
        SessionError.sourceDepth(limit: Self.sourceDepthLimit).description, location: location, chain: chain)
    }
    let bytes: [UInt8]
    do {
      bytes = try readFile(file)
    } catch {
      return fail(error.description, location: location, chain: chain)
    }
    var lines = TextLines(bytes: bytes)
    let depth = session.editor.openGroups.count
    let innerChain = [location] + chain
    let goOn = run(&lines, name: file, chain: innerChain)
    var leftOpen: [String] = []
    while session.editor.openGroups.count > depth {
      let group = session.editor.openGroups[session.editor.openGroups.count - 1]
      leftOpen.append(group.displayName + (group.origin.map { " (opened at \($0))" } ?? ""))
      _ = try? session.execute(.end)
    }
    if !leftOpen.isEmpty {
      let message = "group \(leftOpen.joined(separator: ", ")) not closed in \"\(file)\"; closed and kept"
      return fail(message, location: location, chain: chain) && goOn
    }
    return goOn
  }

  /// Reports a failed command; whether to go on (`-k`).
  private mutating func fail(_ message: String, location: String, chain: [String]) -> Bool {
    failed = true
    report(.diagnostic(Diagnostic(.error, message, at: location, chain: chain)))
    return keepGoing
  }

  /// End of input: close open groups (kept) with a warning naming each; a
  /// script then fails. Then the unsaved-changes warning.
  public mutating func finish(name: String) {
    let warnings = session.endOfInput()
    for warning in warnings {
      report(.diagnostic(Diagnostic(.warning, warning, at: name)))
    }
    if !warnings.isEmpty { failed = true }
  }

  /// The warning for a script that ends with unsaved changes, if it does.
  public var unsavedWarning: String? {
    guard session.isDirty else { return nil }
    let count = session.unsavedChangeCount
    let what = count == 1 ? "1 unsaved change" : "\(count) unsaved changes"
    return "warning: \(what)\(session.filePath.map { " to \"\($0)\"" } ?? "") not saved"
  }
}

/// How `ScriptRunner` left the lines a source lent together: a command ended the run
/// (`quit`, a failure without `-k`), all were run (ask for more), or the next is one the
/// fast lane does not take (read it alone).
private enum HeldLines {
  case stop
  case more
  case slowLine
}

/// What `ScriptRunner` made of a line it read: a command the fast lane parsed and ran
/// (whether to go on), or the text for the tokenizer. Outside the generic runner so that
/// it is one concrete type, copied and destroyed inline rather than through a generic
/// type's value witnesses; a ran command leaves nothing in it to release.
private enum LineRead {
  case ran(goOn: Bool)
  case line(String)
  /// Bytes that are not UTF-8: the line is refused rather than read with U+FFFD in it.
  case invalid(TokenizerError, echoed: String?)
}
