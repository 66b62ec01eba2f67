import RecordKit
import RecordShell

/// The arguments of `recsh diff` and `recsh merge`: options that each take the argument
/// after them (`--kind task`), and operands (the files), in order. An option given twice
/// takes its last value; `--kind` and `--schema` exclude each other, as they do when
/// opening a file.
struct FileCommandArguments {
  /// Each option given, with its value.
  var values: [String: String] = [:]
  /// The other arguments, in order.
  var operands: [String] = []

  /// The arguments read, with `options` the names that take a value; or what is wrong
  /// with them, as a usage error says it.
  static func parse(_ arguments: [String], options: Set<String>) -> Result<Self, Options.UsageError> {
    var parsed = Self()
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard options.contains(argument) else {
        parsed.operands.append(argument)
        continue
      }
      guard index < arguments.count else {
        return .failure(Options.UsageError(description: "\(argument) needs a value"))
      }
      parsed.values[argument] = arguments[index]
      index += 1
    }
    if parsed.values["--kind"] != nil, parsed.values["--schema"] != nil {
      return .failure(Options.UsageError(description: "--kind and --schema cannot be used together"))
    }
    return .success(parsed)
  }

  /// The schema beside the data file at `path`, when there is one that is not empty (an
  /// empty one is what `recsh FILE -c schema > FILE.schema.json` leaves while it runs).
  static func schema(besideDataFile path: String) -> String? {
    let beside = KindChoice.schemaPath(besideDataFile: path)
    guard let status = try? PosixFileSystem().stat(beside), status.size > 0 else { return nil }
    return beside
  }
}

/// Why `recsh diff` or `recsh merge` could not do its work: the message, as opening the
/// file would say it.
struct FileCommandFailure: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

extension DataFile {
  /// The file at `path`, which must exist: opening a missing file makes a new one, but
  /// comparing or merging one is an error (the `stat`'s, with the path).
  static func loadExisting(_ path: String, layout: RecordLayout?) throws(SessionError) -> Loaded {
    let fileSystem = PosixFileSystem()
    do {
      _ = try fileSystem.stat(path)
    } catch {
      throw .storage(.failed(.read, path: path, cause: error))
    }
    return try load(path, layout: layout, using: fileSystem)
  }
}
