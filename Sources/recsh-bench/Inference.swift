import RecordKit
import RecordShell

/// Reads a file of records with no kind and infers one, timing the two apart: the
/// bench's measure of what inference adds to opening a file of a kind inferred from it
/// (the shell does both in `RunTimeFile.decode`, in this order, over the same records).
enum Inference {
  static func run(input: String) throws(BenchError) -> String {
    let clock = ContinuousClock()
    let bytes: [UInt8]
    do {
      bytes = try FileReader.readFile(input, using: PosixFileSystem()).bytes
    } catch {
      throw .storage(error)
    }
    let start = clock.now
    let read = RunTimeKind.$current.withValue(.unbound) {
      bytes.withUnsafeBufferPointer { buffer in
        Result { () throws(RecordFileError) in
          try RecordFile<RunTimeRecord>.decodeRecords(buffer, passing: { _ in })
        }
      }
    }
    let records: [RunTimeRecord]
    do {
      records = try read.get()
    } catch {
      throw .file(path: input, error)
    }
    let loaded = clock.now
    var inference = KindInference()
    for record in records { inference.add(record.custom.members) }
    let document = inference.schemaDocument(title: "bench")
    let inferred = clock.now
    guard case .object(let schema) = document, case .object(let fields)? = schema["properties"] else {
      return "infer records=\(records.count) fields=0"
    }
    return
      "infer records=\(records.count) fields=\(fields.members.count) load=\(seconds(loaded - start)) infer=\(seconds(inferred - loaded))"
  }

  private static func seconds(_ duration: Duration) -> String {
    let (whole, attoseconds) = duration.components
    return String(Double(whole) + Double(attoseconds) * 1e-18)
  }
}
