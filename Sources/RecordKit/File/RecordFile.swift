/// The file format: a JSON array of objects, one per record, or JSON Lines, one object
/// per line (`RecordLayout`), mapped through the kind's field table. Pure bytes in, bytes out; reading and writing the
/// file itself is the shell's storage layer.
///
/// - Reading streams the array: one record's object is parsed, checked and
///   turned into a record at a time, its values read straight into the record's
///   fields, so no tree is built, neither of the file nor of a record.
/// - Writing is pretty-printed with 2-space indents, keys in a stable order
///   (`id`, declared fields in table order, then custom keys in file order) and
///   a final newline, so a file written by recsh and saved again without edits
///   is byte-identical, and diffs stay small.
/// - JSON Lines are written one compact object per line, each line ended by a line
///   break, keys in the same order; read, lines of only whitespace are skipped and the
///   last line may lack its line break (`JSONReader.readLines`).
/// - A file of zero bytes is an empty collection (a `touch`ed file opens);
///   anything else must be strict JSON.
public enum RecordFile<Root: Record> {
  /// What loading found: the document, and warnings that do not stop it.
  public struct Loaded: Sendable {
    public var document: Document<Root>
    public var warnings: [String]
    /// A CSV or TSV file's table as read, for its image (`FileImage`), which then need
    /// not read it again; `nil` for JSON.
    package var table: CSVTable?
  }

  public static func decode(_ bytes: [UInt8], layout: RecordLayout = .array) throws(RecordFileError) -> Loaded
  {
    try decode(bytes, layout: layout, streaming: true)
  }

  /// Decodes `bytes`, front to back, calling `passed` after each record with the offset
  /// the reader has reached: the bytes before it are not read again unless there is an
  /// error to place, so a caller that maps the file can let their memory go.
  public static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout, passing passed: (Int) -> Void
  ) throws(RecordFileError) -> Loaded {
    try decode(bytes, layout: layout, streaming: true, passing: passed)
  }

  /// `decode(_:)`; with `streaming` false every record goes the slow way, through a
  /// tree, so that tests and the fuzz targets can check that both ways load and
  /// refuse files alike.
  package static func decode(_ bytes: [UInt8], layout: RecordLayout = .array, streaming: Bool)
    throws(RecordFileError) -> Loaded
  {
    try bytes.withUnsafeBufferPointer { (buffer) throws(RecordFileError) in
      try decode(buffer, layout: layout, streaming: streaming, passing: { _ in })
    }
  }

  private static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout, streaming: Bool, passing passed: (Int) -> Void
  ) throws(RecordFileError) -> Loaded {
    let (records, table) = try decodeRecordsAndTable(
      bytes, layout: layout, streaming: streaming, passing: passed)
    try Root.fields.checkRecords?(records, bytes, layout)
    let document: Document<Root>
    do {
      document = try Document(records: records)
    } catch {
      guard case .duplicateID(let id, let first, let second) = error else {
        preconditionFailure("records read from a file are numbered in order: \(error)")
      }
      throw .duplicateID(
        id, first: first, second: second, at: position(ofRecord: second, in: bytes, layout: layout))
    }
    return Loaded(document: document, warnings: kindWarnings(records), table: table)
  }

  /// The records of the file, in order, without the document's index of their ids (a
  /// run-time kind gives its records their identities after reading them all).
  package static func decodeRecords(
    _ bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout, streaming: Bool = true,
    passing passed: (Int) -> Void
  ) throws(RecordFileError) -> [Root] {
    try decodeRecordsAndTable(bytes, layout: layout, streaming: streaming, passing: passed).records
  }

  /// `decodeRecords`, with a CSV or TSV file's table as read (for its image, which then
  /// need not read it again); `readings`: how a table's columns read where the caller knows
  /// better than `Root.fields` (`DelimitedFile.decodeRecords`).
  package static func decodeRecordsAndTable(
    _ bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout, streaming: Bool = true,
    readings: [String: CellReading]? = nil, passing passed: (Int) -> Void
  ) throws(RecordFileError) -> (records: [Root], table: CSVTable?) {
    let read = try decodeRecordsAndTable(
      bytes, layout: layout, streaming: streaming, readings: readings, inferring: false, passing: passed)
    return (read.records, read.table)
  }

  /// What `decodeRecordsAndTable(_:layout:streaming:readings:inferring:checking:keyedBy:passing:)`
  /// read, and what it found out on the way.
  package struct RecordsRead {
    package var records: [Root]
    /// A CSV or TSV file's table as read.
    package var table: CSVTable?
    /// The kind inferred from a JSON or JSON Lines file's records, when asked.
    package var inference: KindInference?
    /// The records (0-based, in order) whose text broke the schema given; `nil` when
    /// none was given or the file is a table (the caller checks).
    package var refused: [Int]?
    /// Whether every record's identity is its key member's value, given as it was read.
    package var keyed = false
  }

  /// `decodeRecordsAndTable`, with what a run-time kind's read does on the way, each
  /// record's members taken as the reader marked them (`RecordReading`), for a JSON or JSON
  /// Lines file (a CSV or TSV file's records are read as they are; the caller does the rest):
  /// - `inferring`: the kind is inferred from the records (`inference`);
  /// - `schema`: each record is checked against it (`refused`: those whose text breaks a
  ///   rule, as `CustomFields.meets` says);
  /// - `key`: the name of a string key member; each record whose member of that name is a
  ///   non-empty string without escapes gets that string as identity (`keyed`: all did),
  ///   as `FieldTable.runTimeRecord` gives it under a kind with that key.
  package static func decodeRecordsAndTable(
    _ bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout, streaming: Bool = true,
    readings: [String: CellReading]?, inferring: Bool, checking schema: JSONSchema? = nil,
    keyedBy key: String? = nil, passing passed: (Int) -> Void
  ) throws(RecordFileError) -> RecordsRead {
    if bytes.isEmpty {
      return RecordsRead(
        records: [], inference: inferring ? KindInference() : nil, refused: schema.map { _ in [] },
        keyed: true)
    }
    guard layout.isDelimited else {
      var reading = RecordReading(inferring: inferring, checking: schema, keyedBy: key)
      let records = try decodeJSONRecords(
        bytes, layout: layout, streaming: streaming, reading: &reading, passing: passed)
      return RecordsRead(
        records: records, inference: reading.inference, refused: reading.schema.map { _ in reading.refused },
        keyed: reading.keyed)
    }
    let table = try DelimitedFile<Root>.read(bytes, layout: layout)
    return RecordsRead(
      records: try DelimitedFile<Root>.decodeRecords(
        from: table, bytes: bytes, readings: readings, passing: passed),
      table: table)
  }

  /// The records of a JSON array or JSON Lines file, in order.
  private static func decodeJSONRecords(
    _ bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout, streaming: Bool, reading: inout RecordReading,
    passing passed: (Int) -> Void
  ) throws(RecordFileError) -> [Root] {
    let table = Root.fields
    var records: [Root] = []
    do {
      var reader = JSONReader(unsafeBytes: bytes)
      if layout == .array {
        let kind = try reader.peek()
        guard kind == .array else {
          throw RecordFileError.notAnArray(found: kind.description, at: reader.position)
        }
      }
      try reader.readRecords(layout) { element in
        defer { passed(element.index) }
        RecordCount.reserve(in: &records, read: element.index, of: bytes.count)
        let start = element.tokenStart
        let mark = element.mark
        if streaming, try table.readRecord(from: &element, appendingTo: &records, reading: &reading) {
          return
        }
        element.rewind(to: mark)
        let value = try element.readValue()
        guard case .object(let object) = value else {
          throw RecordFileError.record(
            records.count + 1, id: nil, .notAnObject(found: value.kindDescription),
            at: element.position(at: start))
        }
        do {
          records.append(try table.decode(object, position: records.count))
          // Read through a tree: inference and the check walk its text.
          reading.inference?.add(records[records.count - 1].custom)
          reading.check(records[records.count - 1].custom, record: records.count - 1)
          reading.keyed = false
        } catch let error as RecordDecodingError {
          var id: String?
          if case .string(let text)? = object["id"] { id = text }
          throw RecordFileError.record(records.count + 1, id: id, error, at: element.position(at: start))
        }
      }
      try reader.finish()
    } catch let error as RecordFileError {
      throw error
    } catch let error as JSONSyntaxError {
      if records.isEmpty, let looks = Self.notJSON(bytes, failingAt: error.position.offset) {
        throw .unrecognized(looksLike: looks, expected: layout, at: error.position)
      }
      throw .syntax(error)
    } catch {
      // The reader and the closures above throw only the two types handled.
      throw .syntax(JSONSyntaxError(.emptyDocument, at: JSONPosition(line: 1, column: 1, offset: 0)))
    }
    return records
  }

  /// What bytes that fail as JSON at their first value look like (`CSV`, `TSV`, `XML or
  /// HTML`, `text`), for an error that says so; `nil` when they fail further in (JSON
  /// with a mistake).
  static func notJSON(_ bytes: UnsafeBufferPointer<UInt8>, failingAt offset: Int) -> String? {
    var first = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { first = 3 }
    while first < bytes.count, JSONSpan.isWhitespace(bytes[first]) { first += 1 }
    guard offset == first, first < bytes.count else { return nil }
    let byte = bytes[first]
    guard byte != UInt8(ascii: "["), byte != UInt8(ascii: "{"), byte != UInt8(ascii: "\"") else { return nil }
    if byte == UInt8(ascii: "<") { return "XML or HTML" }
    let line = bytes[first...].prefix { $0 != 0x0A && $0 != 0x0D }
    if line.contains(0x09) { return "TSV" }
    if line.contains(UInt8(ascii: ",")) || line.contains(UInt8(ascii: ";")) { return "CSV" }
    return "text"
  }

  /// Where record `number` (1-based) starts, for the one error that names a record after
  /// all were read. Found by reading the array again: keeping every record's start would
  /// cost a word per record for an error that is rare.
  private static func position(
    ofRecord number: Int, in bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout
  )
    -> JSONPosition
  {
    if layout.isDelimited {
      return DelimitedFile<Root>.positions(of: [(number, nil)], in: bytes, layout: layout)[0]
    }
    var reader = JSONReader(unsafeBytes: bytes)
    var count = 0
    var start = 0
    try? reader.readRecords(layout) { element in
      count += 1
      if count == number { start = element.tokenStart }
      try element.skipValue()
    }
    return reader.position(at: start)
  }

  /// Encodes the records: the bytes `save` writes, in one array or as lines.
  public static func encode(_ records: [Root], layout: RecordLayout = .array) -> [UInt8] {
    var bytes: [UInt8] = []
    encode(records, layout: layout) { chunk in bytes.append(contentsOf: chunk) }
    return bytes
  }

  /// The records at `positions` as the file holds them (key order, number spellings): one
  /// compact record per line (`lines`, JSON Lines) or one array laid out as recsh saves
  /// files; without the final newline. `reservingCapacity`: the bytes expected (a
  /// guess too small costs a regrowth, a copy of all written so far). O(bytes written); no `JSONValue` per record for a kind without nested objects.
  public static func encode(_ records: [Root], at positions: [Int], lines: Bool, reservingCapacity: Int = 0)
    -> [UInt8]
  {
    let table = Root.fields
    var writer = JSONWriter(reservingCapacity: max(reservingCapacity, positions.count * 64), compact: lines)
    if !lines { writer.beginArray() }
    records.withUnsafeBufferPointer { records in
      guard let base = records.baseAddress else { return }
      for position in positions {
        writer.beginObject()
        table.write(base + position, to: &writer)
        writer.endObject()
        if lines { writer.lineBreak() }
      }
    }
    if !lines {
      writer.endArray()
      writer.finish()
    }
    return writer.bytesWithoutFinalNewline
  }

  /// How many bytes `encode(_:chunkSize:into:)` hands over at a time, unless told.
  public static var defaultChunkSize: Int { 1 << 18 }

  /// Encodes the records, handing the bytes to `sink` in chunks of about `chunkSize`
  /// (a record is never split; the last chunk may be shorter), so that a save holds
  /// one chunk in memory instead of the whole new file beside the records.
  public static func encode<Failure: Error>(
    _ records: [Root], layout: RecordLayout, chunkSize: Int = defaultChunkSize,
    into sink: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
  ) throws(Failure) {
    if layout.isDelimited {
      return try DelimitedFile.encode(records, layout: layout, chunkSize: chunkSize, into: sink)
    }
    let table = Root.fields
    let lines = layout == .lines
    var writer = JSONWriter(reservingCapacity: chunkSize + chunkSize / 4, compact: lines)
    if !lines { writer.beginArray() }
    try records.withUnsafeBufferPointer { (records) throws(Failure) in
      guard let base = records.baseAddress else { return }
      // Each record through a pointer's `pointee` (an addressor): `records[index]` or
      // `for record in records` copy the record first, a retain and release per field.
      for index in records.indices {
        writer.beginObject()
        table.write(base + index, to: &writer)
        writer.endObject()
        if lines { writer.lineBreak() }
        if writer.byteCount >= chunkSize { try writer.drain(into: sink) }
      }
    }
    if !lines {
      writer.endArray()
      writer.finish()
    }
    try writer.drain(into: sink)
  }

  /// A file whose records carry none of the kind's declared fields was probably
  /// written for another kind; say so, without refusing it.
  static func kindWarnings(_ records: [Root]) -> [String] {
    guard !Root.fields.keepsAllMembers else { return [] }
    let declared = Root.fields.fields.dropFirst()
    guard !records.isEmpty,
      !records.contains(where: { record in declared.contains { $0.json(in: record) != nil } })
    else { return [] }
    let names = declared.map(\.name).joined(separator: ", ")
    let count = records.count == 1 ? "the record has" : "none of the \(records.count) records has"
    return ["\(count) a \(Root.kind) field (\(names)); is this file of another kind? (see --kind)"]
  }
}

/// Why a file's bytes are not a collection of records of the kind.
public enum RecordFileError: Error, Equatable, Sendable {
  case syntax(JSONSyntaxError)
  /// A CSV or TSV file that is not a table recsh reads.
  case table(CSVSyntaxError)
  /// A file read as JSON (`expected`) that is not JSON from its first byte, and looks like
  /// another layout or none (`CSV`, `TSV`, `XML or HTML`, `text`).
  case unrecognized(looksLike: String, expected: RecordLayout, at: JSONPosition)
  case notAnArray(found: String, at: JSONPosition)
  /// Record `number` (1-based), with its id when it has one.
  case record(Int, id: String?, RecordDecodingError, at: JSONPosition)
  case duplicateID(String, first: Int, second: Int, at: JSONPosition)
  /// Records that break the kind's schema: the first few (at most
  /// `RunTimeFile.violationLimit`), and how many there are in all.
  case violations([RecordViolation], total: Int)

  /// Where in the file, for `FILE:LINE:COLUMN: error: …`.
  public var position: JSONPosition {
    switch self {
    case .syntax(let error): error.position
    case .table(let error): error.position
    case .notAnArray(_, let position), .record(_, _, _, let position), .duplicateID(_, _, _, let position),
      .unrecognized(_, _, let position):
      position
    case .violations(let listed, _): listed.first?.position ?? JSONPosition(line: 1, column: 1, offset: 0)
    }
  }
}

extension RecordFileError: CustomStringConvertible {
  /// The message without the position.
  public var description: String {
    switch self {
    case .syntax(let error): error.message
    case .table(let error): error.message
    case .unrecognized(let looks, let expected, _):
      "recsh reads JSON, JSON Lines, CSV and TSV; this file was read as \(expected == .lines ? "JSON Lines" : "JSON") "
        + "(by its name) and looks like \(looks)"
        + (looks == "CSV" || looks == "TSV"
          ? ": name it .\(looks.lowercased()) or give --layout \(looks.lowercased())" : "")
    case .notAnArray(let found, _): "expected an array of records, found \(found)"
    case .record(let number, let id?, let error, _): "record \(number) (id \"\(id)\"): \(error)"
    case .record(let number, nil, let error, _): "record \(number): \(error)"
    case .duplicateID(let id, let first, let second, _):
      "records \(first) and \(second) have the same id \"\(id)\""
    case .violations(let listed, let total):
      (listed.first?.description ?? "") + (total > 1 ? " (and \(total - 1) more)" : "")
    }
  }
}

/// Room for a file's records (or their places), made once: after the first 1,024 are
/// read, for the count their size foretells, 3% to spare — so that an array neither grows
/// by doubling (copying itself each time) nor ends up to a third empty (100k task records
/// had room for 131,072).
enum RecordCount {
  /// Reserves room in `items` for the whole file of `total` bytes when they are the first
  /// 1,024, which took `read` bytes of it; does nothing at any other count. Inlined: it
  /// is asked at every record read, where a call cost about 50 instructions a record
  /// (callgrind, `recsh FILE -c save` of 100k tasks: 1,164M, inlined 1,159M).
  @inline(__always)
  static func reserve(in items: inout some Reserving, read: Int, of total: Int) {
    guard items.count == 1024, read > 0 else { return }
    items.reserveCapacity(
      Int(min(Double(Int32.max), Double(items.count) * Double(total) / Double(read) * 1.03)))
  }

  /// What room is made in: a file's records (an array) or their places (`SpanList`).
  protocol Reserving {
    var count: Int { get }
    mutating func reserveCapacity(_ count: Int)
  }
}

extension Array: RecordCount.Reserving {}
extension SpanList: RecordCount.Reserving {}
