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
  /// Runs it for its command line (read as `CommandLineTable.diff` declares) and returns
  /// the exit status.
  static func run(_ parsed: ParsedCommandLine) -> Int32 {
    var streams = StandardStreams()
    defer { streams.flush() }
    let format = parsed.text(.format).flatMap(OutputFormat.init(rawValue:)) ?? .table
    let kind = parsed.text(.kind)
    var schema = parsed.text(.schema)
    let paths = parsed.operands
    let forGit = paths.count == 7
    guard paths.count == 2 || forGit else { return 2 }  // `CommandLineTable.diff` checked it
    let (old, new) = forGit ? (paths[1], paths[4]) : (paths[0], paths[1])
    if forGit, schema == nil, kind == nil { schema = KindChoice.nonEmptySchema(besideDataFile: paths[0]) }
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
      return .failure(.load(error))
    }
    // Choosing the kind may have read the file as that kind already: that load is used.
    let comparison = Comparison(old: old, new: new, layout: layout, chooser: chooser, format: format)
    return KindDispatch.run(comparison, choice)
      ?? .failure(.noKind(kind ?? ""))
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
        return .failure(.load(error))
      }
    }
  }
}
