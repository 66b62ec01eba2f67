import RecordKit
import RecordShell

/// What must hold for any line of shell input, whatever its bytes: thrown
/// errors are answers, a trap or a failed precondition is a bug.
///
/// - The UTF-8 check agrees with the standard library's validation, and the
///   tokenizer's byte and `String` entry points give the same commands or error.
/// - Where `QuickParser` answers, the full parser gives that one command,
///   whatever the bytes are (task records for inputs of even length, contacts
///   for odd: one kind per input keeps the executions cheap).
/// - Completion at the end of the line (of even length; in its middle for odd)
///   replaces a range that ends at the cursor.
/// - A query or bulk edit the line parses to (`list`, `count`, `… where …`), or an
///   `insert` of a record given as JSON, runs on a small document of tasks with every
///   kind of value, and whatever it does, `undo` gives the document back; `diff`, `log`, `blame`, `assert` run there too, and a
///   `preview` leaves the document and the history as they were.
enum CommandLineCheck {
  /// Custom keys of the selected record, as `ParseContext` gets them; `title2`
  /// is near a declared name, so that suggestions are computed too.
  static let customFields = ["color", "title2", "due date"]
  static let taskLane = QuickParser(kind: TaskRecord.self)
  static let contactLane = QuickParser(kind: ContactRecord.self)
  static let taskContext = ParseContext(kind: TaskRecord.self, customFields: customFields)
  static let contactContext = ParseContext(kind: ContactRecord.self, customFields: customFields)

  static func check(_ bytes: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: bytes, as: UTF8.self)
    let isUTF8 = String(validating: bytes, as: UTF8.self) != nil
    let fromBytes = Result { () throws(TokenizerError) in try Tokenizer.tokenize(utf8: bytes) }
    if isUTF8 {
      precondition(fromBytes == Result { () throws(TokenizerError) in try Tokenizer.tokenize(text) })
    } else {
      guard case .failure(let error) = fromBytes, case .invalidUTF8 = error.reason else {
        preconditionFailure("bytes that are not UTF-8 were tokenized")
      }
    }
    if case .failure(let error) = fromBytes { _ = error.description }
    _ = Tokenizer.needsContinuation(text)

    let isEven = bytes.count % 2 == 0
    // The fast lane reads only lines checked to be UTF-8, as the script runner gives it.
    if isEven {
      if isUTF8 { agree(taskLane, taskContext, bytes, text) }
      runQueries(text)
    } else {
      if isUTF8 { agree(contactLane, contactContext, bytes, text) }
    }

    let context = CompletionContext(
      document: Document<TaskRecord>(), selected: nil,
      listDirectory: { _ in [.init("docs", isDirectory: true), .init("a b.json")] })
    let scalars = text.unicodeScalars.count
    let cursor = isEven ? scalars : scalars / 2
    let result = Completer.complete(line: text, cursor: cursor, context: context)
    precondition(0 <= result.start && result.start <= result.end && result.end == cursor)
  }

  /// Tasks with every kind of value (and none): custom numbers, strings, lists, null.
  /// (Only read: each input runs on a copy. A fuzz target runs on one thread.)
  nonisolated(unsafe) static let querySession: Session<TaskRecord> = {
    guard var session = try? Session<TaskRecord>.open(path: nil).session else {
      preconditionFailure("an unnamed session did not open")
    }
    let lines = [
      "new title one priority 3 done false tags [a, b] due 2026-12-01",
      "new title Two priority 0 done true due null; set +estimate 2.50; set +color red",
      "new title \"thr ee\" tags []; set +estimate 1e2; set +color [x, 1]",
      "new; set +estimate \"7\"; set +color null",
    ]
    for line in lines {
      guard (try? session.run(line: line)) != nil else { preconditionFailure("\(line) failed") }
    }
    return session
  }()

  /// Runs the line's queries and bulk edits on a copy of `querySession`; a bulk edit is
  /// undone and must give the records back.
  static func runQueries(_ text: String) {
    guard
      case .success(let commands) = Result(catching: { () throws(ParseError) in
        try ShellParser.parse(text, context: querySession.parseContext)
      })
    else { return }
    var session = querySession
    for command in commands {
      switch command {
      case .list, .count, .diff, .log, .blame, .assert:
        _ = try? session.execute(command)
      case .preview:
        // A preview changes nothing, whatever it previews.
        let (records, history) = (session.document.records, session.editor.history.keptSteps.count)
        _ = try? session.execute(command)
        precondition(
          session.document.records == records && session.editor.history.keptSteps.count == history,
          "a preview changed the session: \(text)")
      case .bulk, .deleteWhere, .insert:
        let before = session.document.records
        guard (try? session.execute(command)) != nil else {
          precondition(session.document.records == before, "a refused edit changed records: \(text)")
          continue
        }
        if session.document.records != before {
          _ = try? session.execute(.undo(count: 1))
          precondition(session.document.records == before, "undo did not give the records back: \(text)")
        }
      default: continue
      }
    }
  }

  /// The fast lane answers only where the full parser gives exactly its command.
  static func agree(
    _ lane: QuickParser, _ context: ParseContext, _ bytes: UnsafeBufferPointer<UInt8>, _ text: String
  ) {
    let full = Result { () throws(ParseError) in try ShellParser.parse(text, context: context) }
    if case .failure(let error) = full { _ = error.description }
    guard let quick = lane.parse(bytes: bytes) else { return }
    guard case .success(let commands) = full, commands == [quick] else {
      preconditionFailure("QuickParser gave \(quick) for \(text.debugDescription); the parser: \(full)")
    }
  }
}
