import RecordKit
import RecordShell

#if canImport(Glibc)
  import Glibc
#endif

/// Opens a task file and saves it again without edits, as the shell does, timing each
/// phase: the bench's measure of recsh's open + save.
///
/// It checks nothing: the script compares the output with the input. The input's bytes
/// are dropped once decoded, like the shell drops them after loading, so peak memory is
/// the larger of "file bytes + records" (decoding) and "records + new bytes" (saving).
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
    var (bytes, _) = try storage { () throws(StorageError) in
      try FileReader.readFile(input, using: fileSystem)
    }
    let size = bytes.count
    let read = clock.now
    let loaded: RecordFile<TaskRecord>.Loaded
    do {
      loaded = try RecordFile<TaskRecord>.decode(bytes)
    } catch {
      throw .file(path: input, error)
    }
    bytes = []
    let decoded = clock.now
    let encoded = RecordFile<TaskRecord>.encode(loaded.document.records)
    let encodedAt = clock.now
    _ = try storage { () throws(StorageError) in
      try AtomicFile.save(bytes: encoded, to: output, using: fileSystem)
    }
    let written = clock.now
    return Report(
      records: loaded.document.count, bytes: size,
      read: seconds(read - start), decode: seconds(decoded - read),
      encode: seconds(encodedAt - decoded), write: seconds(written - encodedAt),
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
