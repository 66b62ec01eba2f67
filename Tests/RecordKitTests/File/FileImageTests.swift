import Testing

@testable import RecordKit

/// The pieces of a save over the bytes read: where a value's parts lie (`JSONSpan`), the
/// style a record shows (`JSONLayoutStyle`), and the image's rewrite of a document.
@Suite struct FileImageTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func aSpanFindsMembersElementsAndKeysWithEscapes() {
    let text = #"  {"a": [1, "x,]"], "b\u0022": {"c": null} }"#
    let span = JSONSpan.scan(Self.bytes(text))
    #expect(span.range == 2..<text.utf8.count - 0)
    guard case .object(_, let members) = span.content else {
      Issue.record("not an object: \(span)")
      return
    }
    #expect(members.map(\.key) == ["a", "b\""])
    let first = Array(text.utf8)[members[0].value.range]
    #expect(String(decoding: first, as: UTF8.self) == #"[1, "x,]"]"#)
    guard case .array(_, let elements) = members[0].value.content else {
      Issue.record("not an array")
      return
    }
    #expect(elements.count == 2)
    #expect(String(decoding: Array(text.utf8)[members[1].value.range], as: UTF8.self) == #"{"c": null}"#)
  }

  @Test(arguments: [
    (
      "[\n   {\n      \"a\":1,\n      \"t\":[\"x\",\"y\"]\n   }\n]", "   ", ":", ",", true, false, "   ", "\n"
    ),
    ("[\r\n\t{\"a\": 1, \"t\": [\"x\", \"y\"]}\r\n]", "  ", ": ", ", ", false, false, "\t", "\r\n"),
    (
      "[\n  {\n    \"a\": 1,\n    \"t\": [\n      \"x\"\n    ]\n  }\n]\n", "  ", ": ", ", ", true, true, "  ",
      "\n"
    ),
    ("[\n  {\n    \"a\": 1,\n    \"t\": [\"x\", \"y\"]\n  }\n]\n", "  ", ": ", ", ", true, false, "  ", "\n"),
  ])
  func aRecordShowsItsStyle(
    _ text: String, _ unit: String, _ key: String, _ inline: String, _ records: Bool, _ nested: Bool,
    _ indent: String, _ lineEnding: String
  ) {
    let bytes = Self.bytes(text)
    let start = bytes.firstIndex(of: UInt8(ascii: "{")) ?? 0
    let end = (bytes.lastIndex(of: UInt8(ascii: "}")) ?? 0) + 1
    let style = bytes.withUnsafeBufferPointer {
      JSONLayoutStyle(of: start..<end, in: $0, base: .recsh, layout: .array)
    }
    #expect(style.indentUnit == Self.bytes(unit))
    #expect(style.keySeparator == Self.bytes(key))
    #expect(style.inlineSeparator == Self.bytes(inline))
    #expect(style.recordsMultiline == records)
    #expect(style.nestedMultiline == nested)
    #expect(style.recordIndent == Self.bytes(indent))
    #expect(style.lineEnding == Self.bytes(lineEnding))
  }

  @Test func aStyleWritesValuesOverLinesOrOnOne() {
    var over: [UInt8] = []
    let value = JSONValue.object(JSONObject(["k": .array([.number("1"), .string("é")])]))
    JSONLayoutStyle(indentUnit: Self.bytes("\t")).write(
      value, indent: Self.bytes("\t"), multiline: true, into: &over)
    #expect(String(decoding: over, as: UTF8.self) == "{\n\t\t\"k\": [\n\t\t\t1,\n\t\t\t\"é\"\n\t\t]\n\t}")
    var inline: [UInt8] = []
    JSONLayoutStyle.lines.write(value, indent: [], multiline: false, into: &inline)
    #expect(String(decoding: inline, as: UTF8.self) == #"{"k":[1,"é"]}"#)
  }

  /// A splice keeps the separator between parts that stood side by side, and a removed
  /// part takes one separator with it.
  @Test func aSpliceKeepsSeparatorsOfNeighbours() {
    let text = "[a ,\n b,c]"
    let bytes = Self.bytes(text)
    bytes.withUnsafeBufferPointer { buffer in
      let splice = SpanSplice(bytes: buffer, inner: 1..<9, parts: [1..<2, 6..<7, 8..<9])
      var out: [UInt8] = []
      splice.write([.kept(0), .kept(2)], into: &out)
      #expect(String(decoding: out, as: UTF8.self) == "a,c")
      out = []
      splice.write([.kept(1), .kept(2), .written(Self.bytes("d"), replacing: nil)], into: &out)
      #expect(String(decoding: out, as: UTF8.self) == "b,c,d")
      out = []
      splice.write([], into: &out)
      #expect(out.isEmpty)
    }
  }

  /// A patched object finds each member of the bytes in the old and new values by key,
  /// wherever it stands there: equal members keep their bytes (`"b" : 2` keeps its
  /// spaces), a changed one gets its value written anew, one the new value lacks goes with
  /// a separator, and a member new to the object goes after the one before it in the new
  /// value's order (`x` after `b`, although `b` stands first there), or last when none is
  /// before it, with the last member's key separator (the separators between members
  /// are `SpanSplice`'s).
  @Test(arguments: [
    (#"{"b": 2, "x": 9, "a": 1}"#, #"{"a" :1,"b" : 2,"x":9}"#),
    (#"{"x": 9, "c": 4, "a": 1}"#, #"{"a" :1, "c":4, "x":9}"#),
    (#"{"c": 3, "a": 1, "b": 2}"#, #"{"a" :1,"b" : 2, "c":3}"#),
  ])
  func aPatchedObjectFindsMembersByKeyWhereverTheyStand(_ new: String, _ expected: String) throws {
    let text = Self.bytes(#"{"a" :1,"b" : 2, "c":3}"#)
    let old = try JSONValue.parse(bytes: text)
    let newValue = try JSONValue.parse(bytes: Self.bytes(new))
    var out: [UInt8] = []
    text.withUnsafeBufferPointer { buffer in
      ValuePatch(bytes: buffer, style: .lines).write(
        JSONSpan.scan(buffer, at: 0), old: old, new: newValue, indent: [], multiline: false, into: &out)
    }
    #expect(String(decoding: out, as: UTF8.self) == expected)
  }

  @Test(arguments: [
    "[{\"id\": \"a\", \"title\": \"x\"}]",
    "\u{FEFF}[\n\n   {\"id\":\"a\",\"title\":\"x\"} ,\n\t{\"id\": \"b\"}\n\n]\n\n",
    "[ ]",
  ])
  func anUneditedRewriteGivesTheBytesBack(_ text: String) throws {
    let bytes = Self.bytes(text)
    let loaded = try RecordFile<TaskRecord>.decode(bytes)
    let document = loaded.document
    let image = try #require(
      FileImage(
        written: bytes, layout: .array, ids: IDList(count: document.count, id: document.id(at:)), lineage: 1))
    #expect(image.rewrite(document).heldBytes == bytes)
  }
}

extension FileImageTests {
  static let locatorFiles = [
    "\u{FEFF}[\n\n   {\"id\":\"a\",\"title\":\"x\"} ,\n\t{\"id\": \"b\"}\n\n]\n\n",
    "[{\"id\": \"a\", \"title\": \"x\"},{\"id\":\"b\",\"tags\":[\"p\",\"q\"]}]",
    "[\r\n  {\r\n    \"id\": \"a\"\r\n  },\r\n  {\r\n    \"id\": \"b\",\r\n    \"done\": true\r\n  }\r\n]",
    "{\"id\":\"a\"}\n{\"id\":\"b\",\"title\":\"t\"}\r\n\n{\"id\":\"c\"}",
    "[ ]",
  ]

  /// A locator fed each record's end as the file is read, with nothing of the file past
  /// that end to see (those bytes garbled at each step), places the records as the image
  /// made from the whole file does; the image it makes holds no bytes and rewrites a
  /// document over bytes handed to it as the holding image does over its own.
  @Test(arguments: locatorFiles)
  func aLocatorPlacesRecordsWithoutLookingAhead(_ text: String) throws {
    let bytes = Self.bytes(text)
    let layout: RecordLayout = text.hasPrefix("{") ? .lines : .array
    var ends: [Int] = []
    var document = try bytes.withUnsafeBufferPointer { buffer in
      try RecordFile<TaskRecord>.decode(buffer, layout: layout, passing: { ends.append($0) }).document
    }
    let ids = (0..<document.count).map(document.id(at:))
    var locator = FileImage.Locator(layout: layout)
    for end in ends {
      var seen = bytes
      for index in end..<seen.count { seen[index] = UInt8(ascii: "#") }
      #expect(seen.withUnsafeBufferPointer { locator.pass(end, in: $0) })
    }
    let located = try #require(bytes.withUnsafeBufferPointer { locator.finish(in: $0) })
    let unheld = try #require(
      FileImage(located: located, layout: layout, ids: IDList(ids), lineage: document.lineage))
    let held = try #require(
      FileImage(bytes: bytes, layout: layout, recordEnds: ends, ids: IDList(ids), lineage: document.lineage))
    #expect(unheld.heldBytes == nil)
    #expect(unheld.spans == held.spans)
    #expect(unheld.inner == held.inner)
    #expect(unheld.style == held.style)
    var editor = Editor(document: document, undoLimit: 0)
    if document.count > 0 {
      _ = try editor.set([FieldAssignment("title", .quoted("changed"))], at: 0)
      _ = try editor.deleteRecord(at: document.count - 1)
    }
    document = editor.document
    let rewritten = bytes.withUnsafeBufferPointer { buffer in
      var out: [UInt8] = []
      _ = unheld.rewrite(document, in: buffer, chunkSize: 7) { out += $0 }
      return out
    }
    #expect(rewritten == held.rewrite(document).heldBytes)
  }
}
