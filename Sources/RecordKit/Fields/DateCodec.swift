/// A date field: ISO 8601 dates and date-times, spelled as the user or the file spelled them.
struct DateCodec: FieldCodec {
  var type: FieldType { .date }

  func parse(_ token: ValueToken) -> ISODate? {
    token.text.flatMap(ISODate.init)
  }

  func decode(_ json: JSONValue) -> ISODate? {
    if case .string(let text) = json { ISODate(text) } else { nil }
  }

  func read(from reader: inout JSONReader, texts: inout TextArena) throws(JSONSyntaxError) -> ISODate? {
    guard try reader.peek() == .string else { return nil }
    return ISODate(try reader.readStringToken())
  }

  func encode(_ value: ISODate) -> JSONValue { .string(value.spelling) }
  func write(_ value: ISODate, to writer: inout JSONWriter) { value.withUTF8 { writer.string(utf8: $0) } }
  func display(_ value: ISODate) -> String { value.spelling }
  func compare(_ a: ISODate, _ b: ISODate) -> Int? { ISODate.compare(a, b) }
}
