import Testing

@testable import RecordKit

/// Canonical text (`CanonicalJSON`): what the reader makes of a source is what the
/// compact writer makes of its tree, it reads back as the same value, its bytes are equal
/// exactly when the values are, and the scans find what the tree holds.
@Suite struct CanonicalJSONTests {
  /// The canonical text `readCanonical` makes of a whole document, or its error.
  static func readCanonical(_ bytes: [UInt8]) -> Result<[UInt8], JSONSyntaxError> {
    Result { () throws(JSONSyntaxError) in try CanonicalJSON.read(document: bytes) }
  }

  /// The tree's verdict on `bytes` in the same shape: its compact text, or its error.
  static func viaTree(_ bytes: [UInt8]) -> Result<[UInt8], JSONSyntaxError> {
    Result { () throws(JSONSyntaxError) -> [UInt8] in
      CanonicalJSON.text(of: try JSONReader.parseDocument(bytes))
    }
  }

  static func expectAgreement(_ bytes: [UInt8], _ context: Comment) {
    switch (readCanonical(bytes), viaTree(bytes)) {
    case (.success(let canonical), .success(let tree)):
      #expect(canonical == tree, context)
    case (.failure(let canonical), .failure(let tree)):
      #expect(canonical.message == tree.message, context)
      #expect(canonical.offset == tree.offset, context)
    case (let canonical, let tree):
      Issue.record("the canonical reader says \(canonical), the tree \(tree): \(context)")
    }
  }

  @Test func everySuiteFileReadsAsTheTreeReadsIt() throws {
    let names = ["y_", "n_", "i_"].flatMap { JSONConformanceTests.files(in: "test_parsing", prefix: $0) }
    #expect(names.count == 318)
    for name in names { Self.expectAgreement(try JSONConformanceTests.contents(of: name), "\(name)") }
  }

  @Test func sourcesWithEscapesWhiteSpaceAndBadBytesReadAsTheTreeReadsThem() {
    let sources: [String] = [
      #"{ "a" : "\u00e9\/\"" , "b":[ 1 ,2.50e3, -0 ], "c" : { } , "d":[] }"#,
      #"["\u0001\t", "e\u0301", "😀", "\uD83D\uDE00", "\\u0041"]"#,
      #"{"a": 1, "a": 2}"#, #"{"a": [1, }"#, #"[01]"#, #"["unterminated"#, #"{"k":tru}"#,
      String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
      // Keys: an escaped one that repeats a plain one, and the other way; NFC and NFD are
      // two keys; more keys than a scan takes, with a repeat late; a repeat in a nested object.
      #"{"a": 1, "b": 2, "\u0061": 3}"#, #"{"\u0062": 1, "a": 2, "b": 3}"#, #"{"é": 1, "e\u0301": 2}"#,
      "{" + (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + #", "k33": 0}"#,
      "{" + (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "}",
      #"{"o": {"x": 1, "y": {"x": 2}, "x": 3}}"#, #"{"a" 1}"#, #"{"a": 1 "b": 2}"#, #"{1: 2}"#,
    ]
    for source in sources { Self.expectAgreement(Array(source.utf8), "\(source.prefix(40))") }
    Self.expectAgreement([0x22, 0xC3, 0x28, 0x22], "invalid UTF-8")
    Self.expectAgreement([0x22, 0x61, 0xE2, 0x82, 0x22], "truncated UTF-8")
  }

  @Test(arguments: [0xCA_0001, 0xCA_0002] as [UInt64])
  func randomValuesKeepTheirTextAndReadBack(_ seed: UInt64) {
    var documents = JSONWriterTests.RandomDocuments(generator: .init(state: seed))
    var previous = JSONValue.null
    var previousText = CanonicalJSON.text(of: .null)
    for iteration in 0..<1500 {
      let value = documents.value()
      let text = CanonicalJSON.text(of: value)
      let context: Comment = "seed \(seed) iteration \(iteration)"
      // Read from the pretty form a file has, the text is the compact writer's.
      #expect((try? Self.readCanonical(JSONWriter.write(value)).get()) == text, context)
      text.withUnsafeBufferPointer { buffer in
        #expect(CanonicalJSON.value(buffer, 0..<buffer.count) == value, context)
        #expect(CanonicalJSON.valueEnd(buffer, from: 0) == buffer.count, context)
        var pretty = JSONWriter()
        pretty.canonical(buffer, 0..<buffer.count)
        pretty.finish()
        #expect(pretty.bytes == JSONWriter.write(value), context)
        if case .object(let object) = value {
          var members: [(String, JSONValue)] = []
          CanonicalJSON.forEachMember(buffer, 0..<buffer.count) { key, member in
            members.append((CanonicalJSON.string(buffer, key), CanonicalJSON.value(buffer, member)))
            return true
          }
          #expect(members.map(\.0) == object.members.map(\.key), context)
          #expect(members.map(\.1) == object.members.map(\.value), context)
        }
      }
      // Equal texts exactly when equal values, both ways (a value and its neighbour
      // mostly differ; the same value twice must give the same bytes).
      #expect((text == previousText) == (value == previous), context)
      #expect(CanonicalJSON.text(of: value) == text, context)
      (previous, previousText) = (value, text)
    }
  }

  @Test func textsEqualExactlyWhenValuesAre() {
    let pairs: [(JSONValue, JSONValue, Bool)] = [
      (.string("é"), .string("e\u{301}"), false),
      (.number("1.0"), .number("1"), false),
      (.object(JSONObject(["a": .null, "b": .null])), .object(JSONObject(["b": .null, "a": .null])), false),
      (.array([.string("\"")]), .array([.string("\"")]), true),
    ]
    for (left, right, equal) in pairs {
      #expect((left == right) == equal)
      #expect((CanonicalJSON.text(of: left) == CanonicalJSON.text(of: right)) == equal)
    }
  }
}

/// `CustomFields`, kept as keyed text, against the plain array of members it stood for:
/// random reads, sets, removals, positioned inserts and a `set`'s exchange, compared after
/// every step. The keys are more than take one-byte codes, and one is too long for a code,
/// so a text holds codes of both widths and spelled keys.
@Suite struct CustomFieldsModelTests {
  @Test(arguments: [0xC0_0001, 0xC0_0002, 0xC0_0003] as [UInt64])
  func randomEditsAgreeWithAnArrayOfMembers(_ seed: UInt64) {
    var documents = JSONWriterTests.RandomDocuments(generator: .init(state: seed))
    var generator = SplitMix64(seed: seed)
    var keys = ["a", "title", "titl", "é", "e\u{301}", "with \"quote\"", "back\\slash", "", "tab\t", "k5"]
    var rowWriter = JSONWriter(compact: true)
    var rows = TextArena()
    keys += (0..<40).map { "many\($0)" } + [String(repeating: "long", count: 70)]
    var fields = CustomFields()
    var model: [JSONObject.Member] = []
    for step in 0..<3000 {
      let key = keys[Int(generator.next() % UInt64(keys.count))]
      let context: Comment = "seed \(seed) step \(step) key \(key)"
      let index = model.firstIndex { JSONValue.sameBytes($0.key, key) }
      switch generator.next() % 6 {
      case 0, 1:
        let value = documents.value()
        let position = Int(generator.next() % 6)
        fields[positioned: key] = CustomValue(value, position: position)
        if let index {
          model[index].value = value
        } else {
          model.insert(JSONObject.Member(key: key, value: value), at: min(position, model.count))
        }
      case 2:
        fields[positioned: key] = nil
        if let index { model.remove(at: index) }
      case 3:
        let value = documents.value()
        fields[key] = value
        if let index {
          model[index].value = value
        } else {
          model.append(JSONObject.Member(key: key, value: value))
        }
      case 4:
        let value = generator.next() % 3 == 0 ? (index.map { model[$0].value } ?? .null) : documents.value()
        let position = Int(generator.next() % 6)
        let old = fields.exchange(key, with: CustomValue(value, position: position))
        if let index {
          if model[index].value == value {
            #expect(old == nil, context)
          } else {
            #expect(old == .some(CustomValue(model[index].value)), context)
            #expect(old??.position == index, context)
            model[index].value = value
          }
        } else {
          #expect(old == .some(nil), context)
          model.insert(JSONObject.Member(key: key, value: value), at: min(position, model.count))
        }
      default:
        #expect(fields[key] == index.map { model[$0].value }, context)
        #expect(fields[positioned: key]?.position == index, context)
      }
      #expect(fields.members == model, context)
      #expect(fields.keys == model.map(\.key), context)
      #expect(fields.isEmpty == model.isEmpty, context)
      #expect(fields.keys.count == model.count, context)
      #expect(fields.contains(key) == model.contains { JSONValue.sameBytes($0.key, key) }, context)
      #expect(fields == CustomFields(model), context)
      // Spelled out, the text is the members' canonical text; read back into an arena, as a
      // file's records are, it is the same fields.
      let canonical = CanonicalJSON.text(of: .object(JSONObject(model)))
      #expect(fields.withText { Array($0) } == (model.isEmpty ? [] : canonical), context)
      var arena = TextArena()
      let read = canonical.withUnsafeBufferPointer { CustomFields(canonical: $0, in: &arena) }
      #expect(read == fields, context)
      // Written member by member into an arena kept from step to step, as a table's rows
      // are (its codes remembered by place from the members before).
      #expect(CustomFields(model, using: &rowWriter, in: &rows) == fields, context)
    }
  }

  @Test func membersAreWrittenInTheWritersLayout() {
    let members = [
      JSONObject.Member(
        key: "list", value: .array([.number("1"), .object(JSONObject(["x": .string("é")]))])),
      JSONObject.Member(key: "esc\"", value: .string("a\nb")),
      JSONObject.Member(key: "empty", value: .array([])),
    ]
    for compact in [false, true] {
      var fromText = JSONWriter(compact: compact)
      fromText.beginObject()
      CustomFields(members).write(to: &fromText)
      fromText.endObject()
      var fromTree = JSONWriter(compact: compact)
      fromTree.value(.object(JSONObject(members)))
      #expect(fromText.bytes == fromTree.bytes)
    }
  }
}
