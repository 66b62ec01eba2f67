import RecordKit
import RecordShell

/// Opens a file of records as the shell opens one of an inferred kind — reads the records
/// with no kind, infers the kind, makes it and the document — timing the inference apart:
/// the bench's measure of what inference adds to the open (`RunTimeFile.decode` does the
/// same steps, in this order, over the same records).
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
          try RecordFile<RunTimeRecord>.decodeRecords(
            buffer, layout: RecordLayout(path: input), passing: { _ in })
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
    for record in records { inference.add(record.custom) }
    let document = inference.schemaDocument(title: "bench")
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
    return
      "infer records=\(opened?.count ?? 0) fields=\(kind.table.fields.count) load=\(seconds(loaded - start)) "
      + "infer=\(seconds(inferred - loaded)) open=\(seconds(indexed - start))"
  }

  private static func seconds(_ duration: Duration) -> String {
    let (whole, attoseconds) = duration.components
    return String(Double(whole) + Double(attoseconds) * 1e-18)
  }
}
