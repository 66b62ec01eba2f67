/// A list of strings kept as one text (`TextList`): the shipped kinds' tags. Parses,
/// prints and compares as `StringListCodec` does; reads a file's list straight into the
/// read's shared blocks, and a filter's `tags=x` looks for the element's bytes in place.
struct TextListCodec: ListFieldCodec {
  private var strings: StringListCodec { StringListCodec() }

  var type: FieldType { .stringList }

  func parse(_ token: ValueToken) -> TextList? { strings.parse(token).map { TextList($0) } }

  func parseElement(_ token: ValueToken) -> String? { strings.parseElement(token) }

  func decode(_ json: JSONValue) -> TextList? { strings.decode(json).map { TextList($0) } }

  func read(from reader: inout JSONReader, texts: inout TextArena) throws(JSONSyntaxError) -> TextList? {
    guard try reader.peek() == .array else { return nil }
    let packed = try texts.build { (packed: inout [UInt8]) throws(JSONSyntaxError) -> Bool in
      guard try reader.enterArray() else { return true }
      repeat {
        guard try reader.peek() == .string else { return false }
        try reader.withStringToken { bytes, _ in TextList.append(bytes, to: &packed) }
      } while try reader.advanceInArray()
      return true
    }
    return packed.map(TextList.init(packed:))
  }

  func encode(_ value: TextList) -> JSONValue { strings.encode(value.elements) }

  func write(_ value: TextList, to writer: inout JSONWriter) {
    writer.beginArray()
    value.forEachElement { bytes in
      writer.string(utf8: bytes)
      return true
    }
    writer.endArray()
  }

  func display(_ value: TextList) -> String { strings.display(value.elements) }

  /// As `StringListCodec` compares (for `sort`): element by element by their bytes.
  func compare(_ a: TextList, _ b: TextList) -> Int? { strings.compare(a.elements, b.elements) }

  var isOrdered: Bool { false }
  func sameElement(_ a: String, _ b: String) -> Bool { JSONValue.sameBytes(a, b) }
  func contains(_ value: TextList, _ element: String) -> Bool { value.contains(element) }
  func elements(of value: TextList) -> [String] { value.elements }
  func value(from elements: [String]) -> TextList { TextList(elements) }
  func displayElement(_ element: String) -> String { ValueToken.displayElement(element) }
}
