import Testing

@testable import RecordKit

/// JSON Lines files (`.jsonl`, `.ndjson`): one compact record per line, read and written
/// with the guarantees of the array layout.
@Suite struct JSONLinesTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  static func load(_ text: String) throws(RecordFileError) -> [TaskRecord] {
    try RecordFile<TaskRecord>.decode(bytes(text), layout: .lines).document.records
  }

  static func refusal(_ text: String, layout: RecordLayout = .lines) -> RecordFileError? {
    do {
      _ = try RecordFile<TaskRecord>.decode(bytes(text), layout: layout)
      return nil
    } catch {
      return error
    }
  }

  /// Lines as recsh writes them: the sample of `RecordFileTests` (spellings, nested
  /// values, escapes, custom keys).
  static let sample =
    #"{"id":"k3x9p2aa","title":"Renew passport","done":false,"priority":3,"tags":["admin","café 日本"],"due":"2026-12-01","estimate":1.50,"big":12345678901234567890,"sci":1e3,"neg":-0.0,"meta":{"source":"import","list":[],"obj":{}}}"#
    + "\n" + #"{"id":"b7c1d2e3","title":"Call \"Ann\"\n\ttwice","due":null}"# + "\n"
    + #"{"id":"z0000001","due":"2026-12-01T09:30:00+01:00"}"# + "\n"

  @Test(arguments: [
    ("tasks.jsonl", RecordLayout.lines), ("dir/tasks.ndjson", .lines), ("TASKS.JSONL", .lines),
    ("a.NdJson", .lines), ("tasks.json", .array), ("tasks", .array), ("tasks.jsonl.bak", .array),
    ("dir.jsonl/tasks", .array), (".jsonl", .array), ("x.jsonl/", .array), ("xjsonl", .array),
    ("books.csv", .csv), ("B.CSV", .csv), ("a.b.tsv", .tsv), ("dir/.csv", .array), ("a.csvx", .array),
    ("a.xcsv", .array), ("a.ndjsonl", .array), ("a.jsonl\u{0}", .array), ("a.t\u{E9}v", .array),
    ("", .array), ("/", .array), ("café.tsv", .tsv),
  ])
  func theNameDecidesTheLayout(_ path: String, _ layout: RecordLayout) {
    #expect(RecordLayout(path: path) == layout, "\(path)")
  }

  @Test func bytesThatLoadedTellTheirLayoutByTheirFirstByte() {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    #expect(RecordLayout(sniffing: Array("[]\n".utf8)) == .array)
    #expect(RecordLayout(sniffing: Array(" \n\t[\n  {}\n]".utf8)) == .array)
    #expect(RecordLayout(sniffing: bom + Array("[]".utf8)) == .array)
    #expect(RecordLayout(sniffing: [UInt8]()) == .array)
    #expect(RecordLayout(sniffing: Array("{\"id\":\"a\"}\n".utf8)) == .lines)
    #expect(RecordLayout(sniffing: Array("\n\n  {\"id\":\"a\"}".utf8)) == .lines)
    #expect(RecordLayout(sniffing: bom + Array("{}".utf8)) == .lines)
  }

  @Test func aFileRecshWroteSavesByteForByte() throws {
    let records = try Self.load(Self.sample)
    #expect(records.count == 3)
    #expect(records[0].custom["estimate"] == .number("1.50"))
    #expect(records[0].custom["big"] == .number("12345678901234567890"))
    #expect(records[1].title == "Call \"Ann\"\n\ttwice")
    #expect(RecordFile<TaskRecord>.encode(records, layout: .lines) == Self.bytes(Self.sample))
  }

  @Test func conversionBothWaysKeepsTheValues() throws {
    let lines = try Self.load(Self.sample)
    let array = RecordFile<TaskRecord>.encode(lines, layout: .array)
    #expect(array.first == UInt8(ascii: "["))
    let fromArray = try RecordFile<TaskRecord>.decode(array, layout: .array).document.records
    #expect(fromArray == lines)
    #expect(RecordFile<TaskRecord>.encode(fromArray, layout: .lines) == Self.bytes(Self.sample))
    // and the JSON values, read by the plain JSON reader line by line, are the array's elements
    let elements = try JSONReader.parseDocument(array)
    let parsedLines = try Self.sample.split(separator: "\n").map {
      try JSONReader.parseDocument(Array($0.utf8))
    }
    #expect(elements == .array(parsedLines))
  }

  @Test func blankLinesCarriageReturnsAndAMissingFinalNewlineAreRead() throws {
    let text = "\n  \n{\"id\":\"a\"}\r\n\t\n{\"id\":\"b\"} \n\n{\"id\":\"c\"}"
    #expect(try Self.load(text).map(\.id) == ["a", "b", "c"])
    #expect(try Self.load("").isEmpty)
    #expect(try Self.load("\n \n").isEmpty)
    // written back: one line each, every line ended
    #expect(
      RecordFile<TaskRecord>.encode(try Self.load(text), layout: .lines)
        == Self.bytes("{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\":\"c\"}\n"))
    #expect(RecordFile<TaskRecord>.encode([], layout: .lines).isEmpty)
  }

  @Test func aByteOrderMarkAtTheStartIsSkipped() throws {
    #expect(
      try RecordFile<TaskRecord>.decode([0xEF, 0xBB, 0xBF] + Self.bytes("{\"id\":\"a\"}\n"), layout: .lines)
        .document.count == 1)
  }

  @Test func aTornLastLineIsRefusedWithItsLine() {
    let error = Self.refusal("{\"id\":\"a\"}\n{\"id\":\"b\",\"title\":\"half")
    #expect(error?.position.line == 2)
    #expect(error?.position.column == 1)
    #expect(
      error?.description
        == "the last line ends inside its value (the file ends with no line break, mid-value)")
    // cut right after a member, and after the first byte
    #expect(Self.refusal("{\"id\":\"a\"}\n{\"id\":\"b\",")?.position.line == 2)
    #expect(Self.refusal("{\"id\":\"a\"}\n{")?.description.hasPrefix("the last line ends inside") == true)
  }

  @Test func aRecordAcrossLinesIsRefusedAtItsFirstLine() {
    let error = Self.refusal("{\"id\":\"a\"}\n{\"id\":\"b\",\n\"title\":\"x\"}\n")
    #expect(error?.position.line == 2)
    #expect(error?.description == "the value goes on to line 3; JSON Lines holds each value on one line")
    // a pretty-printed array in a .jsonl file: refused, not guessed at
    let array = Self.refusal("[\n  {\"id\":\"a\"}\n]\n")
    #expect(array?.position.line == 1)
    // an unfinished record followed by more lines: said in terms of lines, not the end of input
    let open = Self.refusal("{\"id\":\"a\"\n{\"id\":\"b\"}\n")
    #expect(open?.position.line == 1)
  }

  @Test func anArrayOrAScalarOnALineIsRefused() {
    let array = Self.refusal("{\"id\":\"a\"}\n[{\"id\":\"b\"}]\n")
    #expect(array?.description == "record 2: expected an object, found an array")
    #expect(array?.position.line == 2)
    for (line, found) in [("3", "a number"), ("\"x\"", "a string"), ("null", "null"), ("true", "a boolean")] {
      let error = Self.refusal("{\"id\":\"a\"}\n\(line)\n")
      #expect(error?.description == "record 2: expected an object, found \(found)")
    }
  }

  @Test func twoValuesOnOneLineAreRefused() {
    let error = Self.refusal("{\"id\":\"a\"} {\"id\":\"b\"}\n")
    #expect(error?.description == "expected the end of the line after the value, found '{'")
    #expect(error?.position.column == 12)
    #expect(
      Self.refusal("{\"id\":\"a\"},\n")?.description
        == "expected the end of the line after the value, found ','")
  }

  @Test func duplicateIdsAndBadFieldsNameTheirLine() {
    let duplicate = Self.refusal("{\"id\":\"a\"}\n\n{\"id\":\"b\"}\n{\"id\":\"a\"}\n")
    #expect(duplicate?.description == "records 1 and 3 have the same id \"a\"")
    #expect(duplicate?.position.line == 4)
    let badField = Self.refusal("{\"id\":\"a\"}\n{\"id\":\"b\",\"done\":\"yes\"}\n")
    #expect(badField?.position.line == 2)
    #expect(badField?.description.hasPrefix("record 2 (id \"b\"):") == true)
    #expect(Self.refusal("{\"id\":\"a\",\"id\":\"b\"}\n")?.description == "duplicate key \"id\"")
  }

  @Test func streamingAndTheTreeReadLinesAlike() throws {
    let texts = [
      Self.sample, "{\"id\":\"a\"}\n{\"id\":\"a\"}", "{\"id\":\"a\",\"priority\":\"x\"}", "{\"id\":1}\n",
    ]
    for text in texts {
      let streamed = Result { () throws(RecordFileError) in
        try RecordFile<TaskRecord>.decode(Self.bytes(text), layout: .lines, streaming: true).document.records
      }
      let tree = Result { () throws(RecordFileError) in
        try RecordFile<TaskRecord>.decode(Self.bytes(text), layout: .lines, streaming: false).document.records
      }
      #expect(streamed == tree, "\(text)")
    }
  }

  @Test func aRunTimeKindReadsLinesAndPlacesItsViolations() throws {
    let text = "{\"isbn\":\"1\",\"pages\":10}\n{\"isbn\":\"2\",\"pages\":12}\n"
    let loaded = try Self.bytes(text).withUnsafeBufferPointer { buffer in
      try RunTimeFile.decode(buffer, layout: .lines, schema: nil, name: "books")
    }
    #expect(loaded.document.count == 2)
    let schema = try RecordSchema(reading: loaded.kind.document)
    let bad = Self.bytes(text + "{\"isbn\":\"3\",\"pages\":\"many\"}\n")
    let refused = Result { () throws(RecordFileError) in
      try bad.withUnsafeBufferPointer { buffer throws(RecordFileError) in
        try RunTimeFile.decode(buffer, layout: .lines, schema: schema, name: "books")
      }
    }
    guard case .failure(let error) = refused else {
      Issue.record("a record breaking the schema loaded: \(refused)")
      return
    }
    #expect(error.position.line == 3)
    #expect(error.position.column == 21)
  }
}

/// JSONTestSuite's documents, each on one line as the value of a record (`{"id":"r","v":…}`):
/// a JSON Lines file accepts and refuses exactly what the array layout does for the same
/// record, so every `y_` document loads (the two with duplicate keys aside, refused as
/// recsh refuses them) and every `n_` one is refused.
@Suite struct JSONLinesConformanceTests {
  static func files(_ prefix: String) -> [String] {
    JSONConformanceTests.files(in: "test_parsing", prefix: prefix)
  }

  /// The document on one line: a valid document's line feeds are whitespace between
  /// tokens (a string cannot hold one), so spaces stand in for them; an invalid one is
  /// kept as it is.
  static func wrapped(_ document: [UInt8], asOneLine: Bool) -> (line: [UInt8], array: [UInt8]) {
    let body = asOneLine ? document.map { $0 == 0x0A ? 0x20 : $0 } : document
    let record = Array(#"{"id":"r","v":"#.utf8) + body + Array("}".utf8)
    return (record + [0x0A], Array("[".utf8) + record + Array("]\n".utf8))
  }

  static func verdict(_ bytes: [UInt8], _ layout: RecordLayout) -> Result<[TaskRecord], RecordFileError> {
    Result { () throws(RecordFileError) in
      try RecordFile<TaskRecord>.decode(bytes, layout: layout).document.records
    }
  }

  /// A verdict without the error's place: the records, or the refusal's words.
  static func outcome(_ verdict: Result<[TaskRecord], RecordFileError>) -> String {
    switch verdict {
    case .success(let records): "loaded \(records)"
    case .failure(let error): "refused: \(error.description)"
    }
  }

  @Test func theSuiteIsThere() {
    #expect(Self.files("y_").count == 95)
    #expect(Self.files("n_").count == 188)
  }

  @Test(arguments: files("y_"))
  func validDocumentLoadsAsALine(_ name: String) throws {
    let (line, array) = Self.wrapped(try JSONConformanceTests.contents(of: name), asOneLine: true)
    let lines = Self.verdict(line, .lines)
    // the same records, or the same refusal (its place differs: a line, not inside an array)
    #expect(Self.outcome(lines) == Self.outcome(Self.verdict(array, .array)), "\(name)")
    if JSONConformanceTests.duplicateKeyFiles[name] != nil {
      guard case .failure = lines else {
        Issue.record("\(name): duplicate keys loaded")
        return
      }
      return
    }
    guard case .success(let records) = lines else {
      Issue.record("\(name) refused as a line: \(lines)")
      return
    }
    #expect(records.count == 1)
    // and saved as a line, it loads again as the same record
    let saved = RecordFile<TaskRecord>.encode(records, layout: .lines)
    #expect(Self.verdict(saved, .lines) == .success(records), "\(name)")
  }

  @Test(arguments: files("n_"))
  func invalidDocumentIsRefusedAsALine(_ name: String) throws {
    let (line, array) = Self.wrapped(try JSONConformanceTests.contents(of: name), asOneLine: false)
    guard case .failure(let error) = Self.verdict(line, .lines) else {
      Issue.record("\(name) loaded as a line")
      return
    }
    #expect(error.position.line >= 1 && error.position.offset <= line.count, "\(name)")
    // the record around it does not make it valid JSON either
    guard case .failure = Self.verdict(array, .array) else {
      Issue.record("\(name) loaded in an array: the wrapping made it valid")
      return
    }
  }
}
