import Testing

@testable import RecordKit

/// `TextBlock` and `TextArena`: texts stored front to back into shared blocks, each read
/// back as stored; a text that does not fit starts a new block (of its own size when it is
/// longer than a block); `CustomFields` made in an arena are equal, read and edited as
/// those made one by one; a string kept as bytes (`BlockText`, `TextCodec`) equals, orders
/// and reads back as its `String` by bytes, and a task file's strings share the read's
/// blocks.
@Suite struct TextBlockTests {
  @Test func aBlockTakesTextsUntilFullAndGivesEachBack() {
    let block = TextBlock.make(capacity: 10)
    #expect(block.used == 0)
    #expect(block.capacity >= 10)
    let first = [UInt8]("abcd".utf8).withUnsafeBufferPointer { block.append($0) }
    let second = [UInt8]("efghij".utf8).withUnsafeBufferPointer { block.append($0) }
    #expect(first == 0)
    #expect(second == 4)
    #expect(block.used == 10)
    // The allocator may give more room than asked: a text one byte longer than what is left
    // does not fit, one of exactly what is left does.
    let left = block.capacity - block.used
    let tooLong = [UInt8](repeating: 1, count: left + 1).withUnsafeBufferPointer { block.append($0) }
    #expect(tooLong == nil)
    #expect(block.used == 10)
    let rest = [UInt8](repeating: 2, count: left).withUnsafeBufferPointer { block.append($0) }
    #expect(rest == 10)
    #expect(block.used == block.capacity)
    #expect(block.withBytes(from: 0, count: 4) { Array($0) } == Array("abcd".utf8))
    #expect(block.withBytes(from: 4, count: 6) { Array($0) } == Array("efghij".utf8))
    #expect(block.withBytes(from: 10, count: left) { Array($0) } == [UInt8](repeating: 2, count: left))
    let empty = [UInt8]().withUnsafeBufferPointer { block.append($0) }
    #expect(empty == block.capacity, "an empty text fits a full block")
  }

  @Test func anArenaFillsABlockThenStartsAnother() {
    var arena = TextArena()
    let size = TextArena.readBlockSize
    let half = [UInt8](repeating: 7, count: size / 2)
    let a = half.withUnsafeBufferPointer { arena.store($0) }
    let b = half.withUnsafeBufferPointer { arena.store($0) }
    let c = [UInt8](repeating: 9, count: 1).withUnsafeBufferPointer { arena.store($0) }
    #expect(a.block === b.block)
    #expect((a.start, b.start) == (0, size / 2))
    #expect(c.block !== a.block)
    #expect(c.start == 0)
    let long = [UInt8](repeating: 1, count: size + 5)
    let d = long.withUnsafeBufferPointer { arena.store($0) }
    #expect(d.block.capacity >= size + 5)
    #expect(d.block.withBytes(from: d.start, count: long.count) { Array($0) } == long)
    #expect(a.block.withBytes(from: a.start, count: half.count) { Array($0) } == half)
    #expect(c.block.withBytes(from: 0, count: 1) { Array($0) } == [9])
  }

  @Test func fieldsMadeInAnArenaAreTheFieldsMadeAlone() throws {
    let texts = [
      #"{"a":1,"b":"x"}"#, #"{"t":[1,2,{"n":null}]}"#, "{}", #"{"a":1,"b":"x"}"#, #"{"é":"ü"}"#,
    ]
    var arena = TextArena()
    var shared: [CustomFields] = []
    for text in texts {
      shared.append(Array(text.utf8).withUnsafeBufferPointer { CustomFields(canonical: $0, in: &arena) })
    }
    let alone = texts.map { CustomFields(canonical: Array($0.utf8)) }
    #expect(shared == alone)
    #expect(shared[0] == shared[3])
    #expect(shared[0] != shared[1])
    #expect(shared[2].isEmpty)
    #expect(shared.map(\.keys) == alone.map(\.keys))
    #expect(shared[1]["t"] == alone[1]["t"])
    // An edit gives the record a text of its own; the others sharing the block keep theirs.
    var edited = shared[0]
    edited["b"] = .string("y")
    #expect(edited["b"] == .string("y"))
    #expect(shared[0]["b"] == .string("x"))
    #expect(shared[3]["b"] == .string("x"))
    edited["a"] = nil
    edited["b"] = nil
    #expect(edited.isEmpty)
    #expect(edited == CustomFields())
  }

  /// Strings with escapes, non-ASCII text, prefixes of each other, an empty one.
  static let strings = [
    "", "a", "ab", "abc", "b", "Zebra", "zebra", "é", "e\u{301}", "東京", "日本", "👍🏽", "a\u{0}b",
    "long text that is longer than eight bytes", "long text that is longer than eight bytez",
    "quote \" and backslash \\ and tab \t", String(repeating: "x", count: 300),
  ]

  @Test func aBlockTextOrdersAndEqualsAsItsBytes() {
    var arena = TextArena()
    let shared = Self.strings.map { text in
      var text = text
      return text.withUTF8 { BlockText(copying: $0, in: &arena) }
    }
    let alone = Self.strings.map { BlockText($0) }
    #expect(shared == alone)
    #expect(shared.map(\.string) == Self.strings)
    #expect(alone[0].isEmpty && shared[0].isEmpty && !alone[1].isEmpty)
    #expect(shared[1].sharesBlock(with: shared[2]))
    #expect(!alone[1].sharesBlock(with: alone[2]))
    for (i, left) in Self.strings.enumerated() {
      for (j, right) in Self.strings.enumerated() {
        // The order of UTF-8 bytes, which is code point order; never Swift's `==`.
        let expected =
          left.utf8.elementsEqual(right.utf8) ? 0 : (left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : 1)
        #expect(BlockText.compare(shared[i], alone[j]) == expected, "\(left) against \(right)")
        #expect((shared[i] == alone[j]) == (expected == 0))
      }
    }
    #expect(BlockText("é") != BlockText("e\u{301}"), "equal as Swift strings, not as bytes")
    let filled = BlockText(count: 5) { block in
      _ = Array("ab".utf8).withUnsafeBufferPointer { block.append($0) }
      _ = Array("cde".utf8).withUnsafeBufferPointer { block.append($0) }
    }
    #expect(filled == BlockText("abcde"))
    #expect(BlockText(count: 0) { _ in } == BlockText())
    // Where a text's bytes are, for a cache hint, is where it reads them from: in a shared
    // block or its own; none for no bytes.
    for text in shared + alone {
      let span = text.byteSpan
      let read = text.withBytes { bytes in bytes.baseAddress.map { (Int(bitPattern: $0), bytes.count) } }
      #expect(span?.address == read?.0 && span?.count == read?.1, "\(text)")
      #expect((span == nil) == text.isEmpty)
    }
  }

  @Test func aTextCodecReadsWritesAndComparesAsTheStringCodec() throws {
    let codec = TextCodec()
    let strings = StringCodec()
    for text in Self.strings {
      let json = JSONValue.string(text)
      let file = json.compactUTF8
      var arena = TextArena()
      let read = try file.withUnsafeBufferPointer { bytes in
        var reader = JSONReader(unsafeBytes: bytes)
        return try codec.read(from: &reader, texts: &arena)
      }
      #expect(read?.string == text)
      #expect(codec.decode(json) == read)
      #expect(codec.decode(json, texts: &arena) == read)
      #expect(codec.encode(try #require(read)) == json)
      var commandBytes: [UInt8] = []
      codec.appendForCommand(try #require(read), to: &commandBytes)
      var stringBytes: [UInt8] = []
      strings.appendForCommand(text, to: &stringBytes)
      #expect(commandBytes == stringBytes)
      var writer = JSONWriter(compact: true)
      codec.write(try #require(read), to: &writer)
      var stringWriter = JSONWriter(compact: true)
      strings.write(text, to: &stringWriter)
      #expect(Array(writer.unsafeBytes) == Array(stringWriter.unsafeBytes))
      #expect(codec.display(try #require(read)) == strings.display(text))
    }
    for token in [ValueToken.word("null"), .word("plain"), .quoted("null"), .quoted("a b")] {
      #expect(codec.parse(token)?.string == strings.parse(token))
    }
    // A string with escapes and invalid UTF-8 are read as the string codec reads them.
    let escaped = Array(#""caf\u00e9 \"x\"""#.utf8)
    let invalid: [UInt8] = [0x22, 0x61, 0xFF, 0x22]
    for bytes in [escaped, invalid] {
      let asText = bytes.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(unsafeBytes: buffer)
        var arena = TextArena()
        return Result { () throws(JSONSyntaxError) in try codec.read(from: &reader, texts: &arena)?.string }
      }
      let asString = bytes.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(unsafeBytes: buffer)
        var arena = TextArena()
        return Result { () throws(JSONSyntaxError) in try strings.read(from: &reader, texts: &arena) }
      }
      #expect(asText == asString)
    }
    #expect(
      try escaped.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(unsafeBytes: buffer)
        return try reader.readStringToken()
      } == "café \"x\"")
  }

  @Test func aTaskFilesStringsShareTheReadsBlocks() throws {
    let file = Array(
      #"""
      [{"id": "a", "title": "the first task's title", "detail": "and its detail, long enough", "owner": "Ann",
        "tags": ["home", "work"]},
       {"id": "b", "title": "a second title", "estimate": 2},
       {"id": "c", "title": "caf\u00e9 with an escape", "tags": []}]
      """#.utf8)
    let records = try RecordFile<TaskRecord>.decode(file).document.records
    let first = try #require(records[0].titleText)
    #expect(first.sharesBlock(with: try #require(records[0].detailText)))
    #expect(first.sharesBlock(with: try #require(records[1].titleText)))
    #expect(first.sharesBlock(with: try #require(records[2].titleText)))
    #expect(records.map(\.title) == ["the first task's title", "a second title", "café with an escape"])
    #expect(records.map(\.tags) == [["home", "work"], nil, []])
    #expect(first.sharesBlock(with: try #require(records[0].tagList).packed))
    #expect(records[0].detail == "and its detail, long enough")
    // A CSV table's cells go to shared blocks too.
    let table = Array("id,title,detail\na,first title,its detail\nb,second title,\n".utf8)
    let rows = try RecordFile<TaskRecord>.decode(table, layout: .csv).document.records
    let firstRow = try #require(rows[0].titleText)
    #expect(firstRow.sharesBlock(with: try #require(rows[0].detailText)))
    #expect(firstRow.sharesBlock(with: try #require(rows[1].titleText)))
    #expect(rows.map(\.title) == ["first title", "second title"])
    #expect(records[0].custom["owner"] == .string("Ann"))
    #expect(records[1].custom["estimate"] == .number("2"))
    // Setting the `String` gives the record a text of its own.
    var edited = records[1]
    edited.title = "changed"
    #expect(edited.title == "changed")
    #expect(!(try #require(edited.titleText)).sharesBlock(with: first))
    #expect(records[1].title == "a second title")
  }

  /// Lists of strings, the empty one and one of an empty string among them, with elements
  /// longer than 127 bytes (a length of two bytes) and of 16k (three).
  static let lists: [[String]] = [
    [], [""], ["a"], ["a", "b"], ["b", "a"], ["a", "b", "c"], ["é", "e\u{301}"], ["東京", "👍🏽", ""],
    [String(repeating: "x", count: 127), String(repeating: "y", count: 128)],
    [String(repeating: "z", count: 16_384), "after"],
  ]

  @Test func aTextListHoldsItsElementsInOrder() {
    for list in Self.lists {
      let packed = TextList(list)
      #expect(packed.elements == list)
      #expect(packed == TextList(list))
      for element in list + ["absent", "e"] {
        let byBytes = list.contains { $0.utf8.elementsEqual(element.utf8) }
        #expect(packed.contains(element) == byBytes, "\(list) holds \(element)")
      }
      // Stopping early stops.
      var seen = 0
      packed.forEachElement { _ in
        seen += 1
        return false
      }
      #expect(seen == min(1, list.count))
    }
    for (i, left) in Self.lists.enumerated() {
      for (j, right) in Self.lists.enumerated() {
        #expect((TextList(left) == TextList(right)) == (i == j), "\(left) against \(right)")
      }
    }
    #expect(TextList(["é"]) != TextList(["e\u{301}"]), "equal as Swift strings, not as bytes")
  }

  @Test func aTextListCodecReadsWritesAndComparesAsTheStringListCodec() throws {
    let codec = TextListCodec()
    let strings = StringListCodec()
    var arena = TextArena()
    var read: [TextList] = []
    for list in Self.lists {
      let json = JSONValue.array(list.map(JSONValue.string))
      let value = try json.compactUTF8.withUnsafeBufferPointer { bytes in
        var reader = JSONReader(unsafeBytes: bytes)
        return try codec.read(from: &reader, texts: &arena)
      }
      let list = try #require(value)
      read.append(list)
      #expect(list.elements == strings.decode(json))
      #expect(codec.decode(json) == list)
      #expect(codec.decode(json, texts: &arena) == list)
      #expect(codec.encode(list) == json)
      var writer = JSONWriter(compact: false)
      codec.write(list, to: &writer)
      var stringWriter = JSONWriter(compact: false)
      strings.write(try #require(strings.decode(json)), to: &stringWriter)
      #expect(Array(writer.unsafeBytes) == Array(stringWriter.unsafeBytes))
      #expect(codec.display(list) == strings.display(list.elements))
      for element in ["a", "é", "absent"] {
        #expect(codec.contains(list, element) == strings.contains(list.elements, element))
      }
    }
    for (a, b) in zip(read, read.dropFirst()) {
      #expect(codec.compare(a, b) == strings.compare(a.elements, b.elements))
    }
    // Not a list of strings: nothing, as the string list codec says.
    for text in [#"[1]"#, #"["a", null]"#, #""a""#, #"{"a": 1}"#] {
      let bytes = Array(text.utf8)
      let value = try bytes.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(unsafeBytes: buffer)
        return try codec.read(from: &reader, texts: &arena)
      }
      let expected = try bytes.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(unsafeBytes: buffer)
        return try strings.read(from: &reader, texts: &arena)
      }
      #expect(value == nil && expected == nil, "\(text)")
    }
    let token = ValueToken.list([.word("a"), .quoted("b c")])
    #expect(codec.parse(token)?.elements == strings.parse(token))
  }
}
