/// A string field whose values are kept as their UTF-8 bytes (`BlockText`): every string
/// field of the shipped kinds. A read puts them in the read's shared blocks
/// (`TextArena`), so a record's strings cost their bytes, not an allocation each; a value
/// is made a `String` only when it is shown. Parses, prints and compares as `StringCodec`
/// does (a bare `null` is refused; strings compare by their bytes).
struct TextCodec: FieldCodec {
  var type: FieldType { .string }

  @inline(__always)
  func warm(_ value: UnsafePointer<BlockText?>) {
    guard let span = value.pointee?.byteSpan else { return }
    CacheHint.read(address: span.address, byteCount: span.count)
  }

  func parse(_ token: ValueToken) -> BlockText? {
    StringCodec().parse(token).map { BlockText($0) }
  }

  /// `parse(_:)` of the word's token, made straight from its bytes: any quoted text, any
  /// bare word but `null`.
  func parse(bytes: UnsafeBufferPointer<UInt8>, quoted: Bool) -> BlockText? {
    if !quoted, bytes.count == 4, bytes[0] == 0x6E, bytes[1] == 0x75, bytes[2] == 0x6C, bytes[3] == 0x6C {
      return nil
    }
    return BlockText(copying: bytes)
  }

  func decode(_ json: JSONValue) -> BlockText? {
    var texts = TextArena.single
    return decode(json, texts: &texts)
  }

  func decode(_ json: JSONValue, texts: inout TextArena) -> BlockText? {
    guard case .string(var text) = json else { return nil }
    return text.withUTF8 { BlockText(copying: $0, in: &texts) }
  }

  func read(from reader: inout JSONReader, texts: inout TextArena) throws(JSONSyntaxError) -> BlockText? {
    guard try reader.peek() == .string else { return nil }
    return try reader.withStringToken { bytes, _ in BlockText(copying: bytes, in: &texts) }
  }

  func encode(_ value: BlockText) -> JSONValue { .string(value.string) }

  func appendForCommand(_ value: BlockText, to out: inout [UInt8]) {
    value.withBytes { JSONValue.appendQuoted(utf8: $0, to: &out) }
  }

  func withStepBytes(of value: BlockText, _ body: (_ isText: Bool, _ bytes: UnsafeRawBufferPointer) -> Void) {
    value.withBytes { body(true, UnsafeRawBufferPointer($0)) }
  }

  func write(_ value: BlockText, to writer: inout JSONWriter) {
    value.withBytes { writer.string(utf8: $0) }
  }

  func display(_ value: BlockText) -> String { value.string }

  @inline(__always)
  func compare(_ a: BlockText, _ b: BlockText) -> Int? { BlockText.compare(a, b) }
}
