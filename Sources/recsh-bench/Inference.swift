import RecordKit
import RecordShell

/// Opens a file of records as the shell opens one of an inferred kind — reads the records
/// with no kind, inferring the kind as they are read, makes the kind and the document —
/// and reads them without inferring first (after a read that warms the heap): what
/// inference adds to the open is the difference of the two reads (`RunTimeFile.decode` does the same steps, in this
/// order, over the same records).
enum Inference {
  static func run(input: String) throws(BenchError) -> String {
    let clock = ContinuousClock()
    let bytes: [UInt8]
    do {
      bytes = try FileReader.readFile(input, using: PosixFileSystem()).bytes
    } catch {
      throw .storage(error)
    }
    let layout = RecordLayout(path: input)
    func read(inferring: Bool) throws(BenchError) -> ([RunTimeRecord], KindInference?) {
      let read = RunTimeKind.$current.withValue(.unbound) {
        bytes.withUnsafeBufferPointer { buffer in
          Result { () throws(RecordFileError) in
            try RecordFile<RunTimeRecord>.decodeRecordsAndTable(
              buffer, layout: layout, readings: nil, inferring: inferring, passing: { _ in })
          }
        }
      }
      do {
        let read = try read.get()
        return (read.records, read.inference)
      } catch {
        throw .file(path: input, error)
      }
    }
    // A first read, not timed: the two timed reads then both take their memory from the
    // heap it freed (the first read of a big file pays the system for fresh pages, which
    // would be counted against the read without inference).
    _ = try read(inferring: false)
    let plainStart = clock.now
    _ = try read(inferring: false)
    let plain = clock.now - plainStart
    let start = clock.now
    let (records, inference) = try read(inferring: true)
    let loaded = clock.now
    // A CSV or TSV file's records are inferred from after the read, as the shell does.
    var walked = KindInference()
    if inference == nil { for record in records { walked.add(record.custom) } }
    let document = (inference ?? walked).schemaDocument(title: "bench")
    let inferred = clock.now
    // The rest of the open: the kind made from the inferred schema, and the document
    // with its index.
    let schema: RecordSchema
    do {
      schema = try RecordSchema(reading: document)
    } catch {
      return "infer failed: \(error)"
    }
    let kind = RunTimeKind(name: "bench", schema: schema, key: nil)
    let opened = try? Document(records: records)
    let indexed = clock.now
    let inferring = (loaded - start) - plain + (inferred - loaded)
    return
      "infer records=\(opened?.count ?? 0) fields=\(kind.table.fields.count) load=\(seconds(plain)) "
      + "infer=\(seconds(inferring)) open=\(seconds(indexed - start))"
  }

  private static func seconds(_ duration: Duration) -> String {
    let (whole, attoseconds) = duration.components
    return String(Double(whole) + Double(attoseconds) * 1e-18)
  }
}
