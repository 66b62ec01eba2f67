import RecordKit
import RecordShell

#if canImport(Glibc)
  import Glibc
#endif

/// Opens a task file and saves it again without edits, as the shell does, timing each
/// phase: the bench's measure of recsh's open + save. Each file's name decides its layout
/// (`RecordLayout(path:)`): `.jsonl` in and out times JSON Lines.
///
/// It checks nothing: the script compares the output with the input. Like the shell, it
/// maps the input and lets its pages go as the records are made (`FileReader.scanFile`),
/// and saves a chunk at a time into the temporary file; both hash their bytes for the
/// journal, as the shell does.
///
/// `read` is the time to open and map the file; reading its pages happens while
/// decoding, so `decode` holds it. The save interleaves encoding and writing: `write`
/// is the time spent in the chunks' `write` calls and in the `fsync`s and renames after
/// them, `encode` the rest.
enum RoundTrip {
  /// The phase times in seconds, and the process's peak resident set.
  struct Report {
    var records: Int
    var bytes: Int
    var read: Double
    var decode: Double
    var encode: Double
    var write: Double
    var peakKiB: Int

    var total: Double { read + decode + encode + write }

    /// One line of `key=value` pairs for the script to parse.
    var line: String {
      let times = [
        ("read", read), ("decode", decode), ("encode", encode), ("write", write), ("total", total),
      ]
      .map { "\($0.0)=\(format($0.1))" }.joined(separator: " ")
      return "roundtrip records=\(records) bytes=\(bytes) \(times) maxrss_kib=\(peakKiB)"
    }

    private func format(_ seconds: Double) -> String {
      let micros = Int((seconds * 1_000_000).rounded())
      let fraction = String(micros % 1_000_000)
      return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
  }

  static func run(input: String, output: String) throws(BenchError) -> Report {
    let fileSystem = PosixFileSystem()
    let clock = ContinuousClock()
    let start = clock.now
    var size = 0
    var read = start
    let scanned = try storage { () throws(StorageError) in
      try FileReader.scanFile(input, using: fileSystem) { bytes, passed in
        size = bytes.count
        read = clock.now
        return Result { () throws(RecordFileError) in
          try RecordFile<TaskRecord>.decode(bytes, layout: RecordLayout(path: input), passing: passed)
        }
      }
    }
    let loaded: RecordFile<TaskRecord>.Loaded
    do {
      loaded = try scanned.result.get()
    } catch {
      throw .file(path: input, error)
    }
    let decoded = clock.now
    var writing = Duration.zero
    var encodedAt = decoded
    var saveHasher = ContentHasher()
    _ = try storage { () throws(StorageError) in
      try AtomicFile.save(to: output, using: fileSystem) { (write) throws(SystemCallError) in
        try RecordFile<TaskRecord>.encode(loaded.document.records, layout: RecordLayout(path: output)) {
          (chunk) throws(SystemCallError) in
          saveHasher.combine(chunk)
          let before = clock.now
          try write(chunk)
          writing += clock.now - before
        }
        encodedAt = clock.now
      }
    }
    _ = saveHasher.finalize()
    let saved = clock.now
    // recsh exits with its records alive (the kernel takes the memory back at once);
    // so does this: a global is never torn down.
    keptUntilExit = loaded.document
    return Report(
      records: loaded.document.count, bytes: size,
      read: seconds(read - start), decode: seconds(decoded - read),
      encode: seconds(encodedAt - decoded - writing), write: seconds(writing + (saved - encodedAt)),
      peakKiB: peakResidentKiB())
  }

  /// The process's peak resident set size so far (`ru_maxrss`, in KiB on Linux).
  static func peakResidentKiB() -> Int {
    var usage = rusage()
    guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
    return usage.ru_maxrss
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (whole, attoseconds) = duration.components
    return Double(whole) + Double(attoseconds) * 1e-18
  }

  private static func storage<Value>(_ body: () throws(StorageError) -> Value) throws(BenchError) -> Value {
    do {
      return try body()
    } catch {
      throw .storage(error)
    }
  }
}

/// The loaded records, kept until the process exits, as recsh keeps its session.
nonisolated(unsafe) private var keptUntilExit: Document<TaskRecord>?
