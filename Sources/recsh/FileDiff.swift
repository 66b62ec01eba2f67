import Glibc
import RecordKit
import RecordShell

/// `recsh diff [--format F] [--kind K | --schema S] A B`: the record-level difference
/// between two files of one kind, matched by key (by position for a kind without one), as
/// the shell's `diff` prints it. Exit status as `diff`'s: 0 equal, 1 different, 3 when a
/// file cannot be read (2 for bad usage).
///
/// Called as git calls an external diff program, with seven arguments (`PATH OLD-FILE
/// OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE`), it prints the same under a header naming
/// PATH and exits 0, as git requires of a difference found; `/dev/null` (a file added or
/// deleted) is a file of no records. PATH, the file's place in the work tree, decides the
/// kind where it has a schema beside it, and whether the files hold JSON Lines (git's
/// temporary files have no name of their own).
///
/// The kind is chosen as opening the new file would choose it (`KindChoice`, the old file
/// when the new one is `/dev/null`), and both files are read as that kind: an old file
/// whose records that kind does not fit is an error, exit 3.
enum FileDiff {
  static let usage = "usage: recsh diff [--format FORMAT] [--kind KIND | --schema FILE] OLD NEW"

  /// Runs it for `arguments` (those after `diff`) and returns the exit status.
  static func run(_ arguments: [String]) -> Int32 {
    var streams = StandardStreams()
    defer { streams.flush() }
    let parsed: FileCommandArguments
    switch FileCommandArguments.parse(arguments, options: ["--format", "--kind", "--schema"]) {
    case .success(let arguments): parsed = arguments
    case .failure(let error): return usageError(error.description, &streams)
    }
    var format = OutputFormat.table
    if let name = parsed.values["--format"] {
      guard let chosen = OutputFormat(rawValue: name) else {
        return usageError("unknown format '\(name)'; the formats are \(OutputFormat.names)", &streams)
      }
      format = chosen
    }
    let kind = parsed.values["--kind"]
    var schema = parsed.values["--schema"]
    let paths = parsed.operands
    let forGit = paths.count == 7
    guard paths.count == 2 || forGit else {
      return usageError("'diff' takes two files (or git's seven arguments)", &streams)
    }
    let (old, new) = forGit ? (paths[1], paths[4]) : (paths[0], paths[1])
    if forGit, schema == nil, kind == nil { schema = FileCommandArguments.schema(besideDataFile: paths[0]) }
    // git's files are temporary: PATH's name says how they hold their records.
    let layout = forGit ? RecordLayout(path: paths[0]) : nil
    let result = compare(old: old, new: new, layout: layout, kind: kind, schema: schema, format: format)
    switch result {
    case .failure(let failure):
      streams.err(failure.message)
      return 3
    case .success(let (text, differ)):
      if forGit { streams.out("recsh diff a/\(paths[0]) b/\(paths[0])") }
      streams.out(bytes: text)
      return forGit ? 0 : (differ ? 1 : 0)
    }
  }

  private static func usageError(_ message: String, _ streams: inout StandardStreams) -> Int32 {
    streams.err("recsh: \(message)\n\(usage)")
    return 2
  }

  /// The difference as the format prints it, and whether there is one; or why a file
  /// could not be read.
  private static func compare(
    old: String, new: String, layout: RecordLayout?, kind: String?, schema: String?, format: OutputFormat
  ) -> Result<([UInt8], Bool), FileCommandFailure> {
    let chooser = new == "/dev/null" ? old : new
    let choice: KindChoice
    do {
      choice = try KindChoice.choose(
        file: chooser, layout: layout, kindFlag: kind, schemaPath: schema,
        stateFolder: StateFolder.forProcess(explicit: nil))
    } catch {
      return .failure(FileCommandFailure(Shell.loadFailure(error)))
    }
    // Choosing the kind may have read the file as that kind already: that load is used.
    let comparison = Comparison(old: old, new: new, layout: layout, chooser: chooser, format: format)
    return KindDispatch.run(comparison, choice)
      ?? .failure(FileCommandFailure("recsh: no kind \"\(kind ?? "")\""))
  }

  /// The two files compared as records of the chosen kind.
  private struct Comparison: KindWork {
    var old: String
    var new: String
    var layout: RecordLayout?
    /// The file the kind was chosen by (which choosing it may have loaded).
    var chooser: String
    var format: OutputFormat

    func run<Root: Record>(_ kind: Root.Type, preloaded: DataFile<Root>.Loaded?)
      -> Result<([UInt8], Bool), FileCommandFailure>
    {
      // A diff writes no file: the bytes the kind's choice kept go at once.
      _ = preloaded?.takeImage()
      func records(_ path: String) throws(SessionError) -> Document<Root> {
        guard path != "/dev/null" else { return Document() }
        if path == chooser, let preloaded { return preloaded.document }
        return try DataFile<Root>.loadExisting(path, layout: layout).document
      }
      do {
        let changes = RecordChanges(matchingKeysOf: try records(old), try records(new))
        return .success((DiffRenderer.renderBytes(changes, format: format), !changes.isEmpty))
      } catch {
        return .failure(FileCommandFailure(Shell.loadFailure(error)))
      }
    }
  }
}
