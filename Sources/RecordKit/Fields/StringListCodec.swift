/// A list of strings as `[String]`: how `TextListCodec`, the shipped kinds' list fields'
/// codec, parses, decodes, prints and orders lists.
struct StringListCodec: ListFieldCodec {
  var type: FieldType { .stringList }

  func parse(_ token: ValueToken) -> [String]? {
    guard case .list(let items) = token else { return nil }
    var result: [String] = []
    result.reserveCapacity(items.count)
    for item in items {
      guard let element = parseElement(item) else { return nil }
      result.append(element)
    }
    return result
  }

  func parseElement(_ token: ValueToken) -> String? {
    StringCodec().parse(token)
  }

  func decode(_ json: JSONValue) -> [String]? {
    guard case .array(let items) = json else { return nil }
    var result: [String] = []
    result.reserveCapacity(items.count)
    for item in items {
      guard case .string(let text) = item else { return nil }
      result.append(text)
    }
    return result
  }

  func encode(_ value: [String]) -> JSONValue { .array(value.map(JSONValue.string)) }

  func write(_ value: [String], to writer: inout JSONWriter) {
    writer.beginArray()
    for element in value { writer.string(element) }
    writer.endArray()
  }

  func display(_ value: [String]) -> String {
    "[" + value.map(ValueToken.displayElement).joined(separator: ", ") + "]"
  }

  /// Element by element (for `sort`); `tags<x` means nothing.
  func compare(_ a: [String], _ b: [String]) -> Int? {
    for (left, right) in zip(a, b) {
      let order = JSONOrder.compareText(left, right)
      if order != 0 { return order }
    }
    return a.count - b.count
  }
  var isOrdered: Bool { false }
  func sameElement(_ a: String, _ b: String) -> Bool { JSONValue.sameBytes(a, b) }

  func elements(of value: [String]) -> [String] { value }
  func value(from elements: [String]) -> [String] { elements }
  func displayElement(_ element: String) -> String { ValueToken.displayElement(element) }
}

extension ValueToken {
  /// A list element as the user would type it: bare when it is a plain word.
  static func displayElement(_ text: String) -> String {
    let plain =
      !text.isEmpty
      && text.utf8.allSatisfy { byte in
        byte > 0x20 && byte != UInt8(ascii: ",") && byte != UInt8(ascii: "[")
          && byte != UInt8(ascii: "]") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
          && byte != UInt8(ascii: ";") && byte != UInt8(ascii: "#")
      }
    return plain ? text : JSONValue.string(text).compactText
  }
}
