import CEditLine
import Glibc
import RecordShell

/// Line editing at the prompt: libedit through its readline-compatible API.
/// Every libedit call of recsh is in this file, and only the interactive
/// shell creates a `LineEditor`: scripts never initialise libedit, so they
/// print no prompt and read no `~/.editrc`.
///
/// Keys come to libedit through `rl_getc_function`, not through its own
/// reads, so that Ctrl-C cannot be lost: the signal handlers only write the
/// signal's number to a self-pipe, and the reader `poll`s a private
/// non-blocking descriptor of the terminal together with that pipe. A
/// Ctrl-C while libedit is busy elsewhere waits in the pipe for the next read.
/// While a command runs, the signals only fill the pipe, which is drained
/// before the next prompt: a Ctrl-C during a long save is ignored, never a
/// half-written file.
final class LineEditor {
  /// What one prompt gave.
  enum Input: Equatable {
    /// A line, and the bytes typed into it that were not UTF-8, in the order typed:
    /// libedit was given U+FFFD for each, so the line holds one U+FFFD per byte, unless
    /// it was deleted again before Return.
    case line(String, invalidBytes: [UInt8])
    /// Ctrl-C: the line was cancelled.
    case interrupted
    /// Ctrl-D on an empty line, or the terminal went away.
    case end
    /// A hang-up or termination signal came: libedit has put the terminal back, and the
    /// shell should end as that signal ends a process (the journal stays).
    case terminated(signal: Int32)
  }

  /// The most lines the history file keeps.
  static let historySize: Int32 = 1000

  /// A private, non-blocking descriptor of the terminal: setting O_NONBLOCK on
  /// standard input would change it for the shell recsh was started from too.
  private let terminal: Int32
  /// Bytes read from the terminal and not yet handed to libedit: the rest of a
  /// UTF-8 sequence, or keys typed ahead.
  private var pending: [UInt8] = []
  private var interrupted = false
  /// SIGHUP or SIGTERM, once one came.
  private var terminatingSignal: Int32?
  /// Bytes typed during this `readLine` that are not UTF-8 (libedit got U+FFFD for each).
  private var invalidBytes: [UInt8] = []
  /// What Tab may offer for the line being read; `nil` outside `readLine`, so
  /// no copy of the document outlives the prompt.
  private var completion: CompletionContext?
  /// The earlier lines of a multi-line input, which completion reads as context.
  private var earlierLines: String?
  private let historyPath: String?
  private var lastHistoryEntry: String?
  private var historyChanged = false
  /// Something the user should hear about setting up (an unreadable history file).
  private(set) var warning: String?

  /// Sets libedit up, in the order it needs: the locale, the signal
  /// handlers, then the name, signal, reader and completion settings, all
  /// before the first call that initialises libedit (`stifle_history` here).
  init(historyPath: String?) {
    if setlocale(LC_CTYPE, "") == nil || String(cString: nl_langinfo(Int32(CODESET))) != "UTF-8" {
      // In the C locale libedit silently drops every non-ASCII key.
      setlocale(LC_CTYPE, "C.UTF-8")
    }
    terminal = Self.openTerminal()
    self.historyPath = historyPath
    Self.installSignalHandlers()
    activeEditor = self
    // libedit keeps these pointers: storage that lives as long as the process.
    recsh_rl_set_readline_name(strdup("recsh"))
    recsh_rl_set_basic_word_break_characters(strdup(" \t\n;=[]"))
    recsh_rl_set_catch_signals(0)
    recsh_rl_set_catch_sigwinch(0)
    recsh_rl_set_getc_function(readCharacter)
    recsh_rl_set_attempted_completion_function(completeWord)
    recsh_rl_set_attempted_completion_over(1)
    // Never "Display all N possibilities? (y or n)": libedit reads the answer
    // with stdio, past the reader above. Long lists are cut instead.
    recsh_rl_set_completion_query_items(Int32.max)
    stifle_history(Self.historySize)
    if let historyPath {
      let status = read_history(historyPath)
      if status != 0 && status != ENOENT {
        warning = "recsh: warning: cannot read the history file \"\(historyPath)\": \(Self.describe(status))"
      }
      lastHistoryEntry = Self.lastEntry()
    }
  }

  /// Reads one line at `prompt`. `earlierLines`: the lines before it when it
  /// continues an unterminated quote or list, for completion.
  func readLine(prompt: String, earlierLines: String? = nil, completion: CompletionContext) -> Input {
    drainSignals()
    if let terminatingSignal { return .terminated(signal: terminatingSignal) }
    interrupted = false
    invalidBytes = []
    self.completion = completion
    self.earlierLines = earlierLines
    defer {
      self.completion = nil
      self.earlierLines = nil
    }
    let line = prompt.withCString { readline($0) }
    defer { free(line) }
    if let terminatingSignal { return .terminated(signal: terminatingSignal) }
    if interrupted { return .interrupted }
    guard let line else { return .end }
    return .line(String(cString: line), invalidBytes: invalidBytes)
  }

  /// Keeps a typed line in the history: not a blank one, not a repeat of the last.
  func remember(_ line: String) {
    guard line.contains(where: { !$0.isWhitespace }), line != lastHistoryEntry else { return }
    add_history(line)
    lastHistoryEntry = line
    historyChanged = true
  }

  /// Writes the history file, atomically: a temporary file beside it, renamed
  /// over it. Returns a warning when that failed.
  func close() -> String? {
    guard let historyPath, historyChanged else { return nil }
    let temporary = historyPath + ".tmp\(getpid())"
    var status = write_history(temporary)
    if status == 0 && rename(temporary, historyPath) != 0 { status = errno }
    guard status != 0 else { return nil }
    unlink(temporary)
    return "recsh: warning: cannot write the history file \"\(historyPath)\": \(Self.describe(status))"
  }

  // MARK: - Reading keys

  /// The next key for libedit, as a Unicode scalar value (libedit stores it in
  /// a `wchar_t`); -1 ends the line: after a Ctrl-C (with `interrupted` set)
  /// or when the terminal is gone.
  fileprivate func nextCharacter() -> Int32 {
    while true {
      if let scalar = decodePending() { return scalar }
      var descriptors = [
        pollfd(fd: terminal, events: Int16(POLLIN), revents: 0),
        pollfd(fd: signalPipe.read, events: Int16(POLLIN), revents: 0),
      ]
      if poll(&descriptors, 2, -1) < 0 {
        if errno == EINTR { continue }
        return -1
      }
      if descriptors[1].revents != 0 {
        handleSignals()
        if interrupted || terminatingSignal != nil { return -1 }
      }
      if descriptors[0].revents != 0 {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(terminal, &buffer, buffer.count)
        if count > 0 {
          pending += buffer[..<count]
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
          // The terminal is gone (EIO after a hang-up): that is a hang-up, not a
          // Ctrl-D, whether or not SIGHUP has come yet.
          terminatingSignal = terminatingSignal ?? SIGHUP
          return -1
        }
      }
    }
  }

  /// The first UTF-8 sequence of `pending`, consumed; `nil` when it is not
  /// complete yet. A malformed byte becomes U+FFFD for libedit and is kept in
  /// `invalidBytes`, so that the line is refused rather than run with U+FFFD in it.
  private func decodePending() -> Int32? {
    guard let lead = pending.first else { return nil }
    let length: Int
    switch lead {
    case 0..<0x80: length = 1
    case 0xC2..<0xE0: length = 2
    case 0xE0..<0xF0: length = 3
    case 0xF0..<0xF5: length = 4
    default: length = 0
    }
    let continuations = pending.dropFirst().prefix(max(0, length - 1))
    guard length > 0, continuations.allSatisfy({ $0 & 0xC0 == 0x80 }) else {
      invalidBytes.append(pending.removeFirst())
      return 0xFFFD
    }
    guard pending.count >= length else { return nil }
    var iterator = pending[..<length].makeIterator()
    var decoder = Unicode.UTF8()
    let result = decoder.decode(&iterator)
    guard case .scalarValue(let scalar) = result else {
      invalidBytes.append(pending.removeFirst())
      return 0xFFFD
    }
    pending.removeFirst(length)
    return Int32(bitPattern: scalar.value)
  }

  /// Acts on the signals in the pipe: Ctrl-C ends the line; a resize and a
  /// continue after Ctrl-Z are passed on to libedit, which no longer sees them.
  private func handleSignals() {
    for signal in readSignals() {
      switch signal {
      case SIGINT: interrupted = true
      case SIGHUP, SIGTERM: terminatingSignal = terminatingSignal ?? signal
      case SIGWINCH: rl_resize_terminal()
      case SIGCONT:
        rl_deprep_terminal()
        rl_prep_terminal(1)
        rl_forced_update_display()
      default: break
      }
    }
  }

  /// Before a prompt: forgets the Ctrl-Cs that came while a command ran, but
  /// keeps the terminal's new size and a hang-up or termination signal, which
  /// ends the shell now that the command is done.
  private func drainSignals() {
    let signals = readSignals()
    if signals.contains(SIGWINCH) { rl_resize_terminal() }
    if let ending = signals.first(where: { $0 == SIGHUP || $0 == SIGTERM }) {
      terminatingSignal = terminatingSignal ?? ending
    }
  }

  private func readSignals() -> [Int32] {
    var signals: [Int32] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let count = read(signalPipe.read, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return signals }
      signals += buffer[..<count].map { Int32($0) }
    }
  }

  // MARK: - Completion

  /// The matches libedit wants for the word from `start` to `end` (Unicode
  /// scalars of the line): the replacement first, then the candidates, each
  /// `strdup`ed in a `malloc`ed, NULL-terminated array that libedit frees.
  fileprivate func completions(word: String, start: Int, end: Int) -> MatchArray? {
    guard let completion, let buffer = recsh_rl_line_buffer() else { return nil }
    let scalars = Array(String(cString: buffer).unicodeScalars)
    // A line buffer that does not match libedit's word is stale: offer nothing.
    guard start >= 0, start <= end, end <= scalars.count, Self.text(scalars[start..<end]) == word else {
      return nil
    }
    let before = earlierLines.map { $0 + "\n" } ?? ""
    let offset = before.unicodeScalars.count
    let result = Completer.complete(
      line: before + Self.text(scalars[...]), cursor: offset + end, context: completion)
    guard !result.candidates.isEmpty, result.start >= offset else { return nil }
    // libedit replaces its own word, which may start elsewhere than recsh's
    // (it breaks words at `=`, and inside quotes): shift the texts to fit it.
    let ours = result.start - offset
    let fit: (String) -> String?
    if ours < start {
      let extra = Self.text(scalars[ours..<start]).unicodeScalars
      fit = { text in
        text.unicodeScalars.starts(with: extra) ? Self.text(text.unicodeScalars.dropFirst(extra.count)) : nil
      }
    } else {
      let missing = Self.text(scalars[start..<ours])
      fit = { missing + $0 }
    }
    if result.candidates.count == 1, let only = result.candidates.first {
      guard let text = fit(only.text) else { return nil }
      recsh_rl_set_completion_append_character(only.isComplete ? 0x20 : 0)
      return Self.matchArray([text])
    }
    let limit = 200
    var listed = result.candidates.prefix(limit).map(\.text)
    if result.candidates.count > limit { listed.append("…(\(result.candidates.count - limit) more)") }
    // The field's description goes into the listing as one more entry, as the count above
    // does: libedit lists the entries, and a Tab never inserts one of them alone.
    if let note = result.note { listed.append("(\(note))") }
    let first = result.replacement.flatMap(fit) ?? word
    return Self.matchArray([first] + listed)
  }

  /// Two NULLs end the array: libedit reads `matches[2]` to tell a single
  /// match, even when `matches[1]` already ended it.
  private static func matchArray(_ texts: [String]) -> MatchArray? {
    let slots = texts.count + 2
    guard let memory = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * slots) else { return nil }
    // Fresh memory is initialized as the pointers it holds (all NULL), then filled.
    let array = memory.initializeMemory(as: UnsafeMutablePointer<CChar>?.self, repeating: nil, count: slots)
    for (index, text) in texts.enumerated() {
      array[index] = strdup(text)
    }
    return array
  }

  private static func text<Scalars: Sequence<Unicode.Scalar>>(_ scalars: Scalars) -> String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    return String(view)
  }

  // MARK: - Setup

  private static func openTerminal() -> Int32 {
    if let name = ttyname(0) {
      let descriptor = open(name, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
      if descriptor >= 0 { return descriptor }
    }
    return 0
  }

  private static func installSignalHandlers() {
    _ = signalPipe
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { signal in
      let saved = errno
      var byte = UInt8(truncatingIfNeeded: signal)
      _ = write(signalPipe.write, &byte, 1)
      errno = saved
    }
    sigemptyset(&action.sa_mask)
    // Restarted calls: a Ctrl-C during a save must not fail one of its writes.
    action.sa_flags = SA_RESTART
    var handled = sigset_t()
    sigemptyset(&handled)
    // A hang-up or SIGTERM is noted like the others: at the prompt it ends the
    // line (libedit puts the terminal back), during a command it waits for the
    // command to end, so that neither leaves the terminal raw or a save half done.
    for signal in [SIGINT, SIGWINCH, SIGCONT, SIGHUP, SIGTERM] {
      sigaction(signal, &action, nil)
      sigaddset(&handled, signal)
    }
    // A blocked mask is inherited through exec: a parent that blocked SIGINT
    // must not make Ctrl-C dead here.
    sigprocmask(SIG_UNBLOCK, &handled, nil)
  }

  private static func lastEntry() -> String? {
    guard let entries = history_list() else { return nil }
    var index = 0
    var last: String?
    while let entry = entries[index] {
      last = entry.pointee.line.map { String(cString: $0) }
      index += 1
    }
    return last
  }

  private static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

/// The editor that libedit's callbacks reach. They are plain C function
/// pointers (the completion function, `rl_getc_function`) that cannot carry
/// context, so this one global points at the editor: set once, before the
/// first `readline`, and only read afterwards, on the main thread.
nonisolated(unsafe) private var activeEditor: LineEditor?

/// The self-pipe the signal handlers write to. A constant, created before any
/// handler is installed, so a handler reads it without touching mutable state.
private let signalPipe = SignalPipe()

private struct SignalPipe: Sendable {
  let read: Int32
  let write: Int32

  init() {
    var descriptors: [Int32] = [-1, -1]
    _ = pipe(&descriptors)
    for descriptor in descriptors where descriptor >= 0 {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
    read = descriptors[0]
    write = descriptors[1]
  }
}

/// What a completion function returns: `malloc`ed C strings in a `malloc`ed,
/// NULL-terminated array, all freed by libedit.
private typealias MatchArray = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

/// `rl_getc_function`.
private func readCharacter(_ stream: UnsafeMutablePointer<FILE>?) -> Int32 {
  activeEditor?.nextCharacter() ?? -1
}

/// `rl_attempted_completion_function`. libedit clears
/// `rl_attempted_completion_over` after every completion, so it is set again
/// here: with it, no match never falls back to completing file names.
private func completeWord(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32) -> MatchArray? {
  recsh_rl_set_attempted_completion_over(1)
  recsh_rl_set_completion_append_character(0x20)
  return activeEditor?.completions(
    word: text.map { String(cString: $0) } ?? "", start: Int(start), end: Int(end))
}
