/// Canonical text in and out of the writer: the compact form `CanonicalJSON` describes,
/// written as one value, read back into any layout, and the writer reused as a builder.
extension JSONWriter {
  /// Empties the writer, keeping its memory: a builder reused for every record of a file
  /// allocates once.
  mutating func reset() {
    byteCount = 0
    depth = 0
    hasElements = false
    afterKey = false
  }

  /// The bytes written so far, lent to `body` (valid only during the call).
  func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    try body(UnsafeBufferPointer(start: storage, count: byteCount))
  }

  /// Writes a member's key from its canonical string token (`"name"`, quotes and escapes
  /// as `CanonicalJSON` has them): the bytes are the key's encoding already.
  mutating func canonicalKey(_ token: UnsafeBufferPointer<UInt8>) {
    assert(depth > 0 && !afterKey, "JSONWriter.canonicalKey(_:) outside an object or twice in a row")
    startElement()
    append(token)
    reserve(2)
    put(UInt8(ascii: ":"))
    if !compact { put(UInt8(ascii: " ")) }
    afterKey = true
  }

  /// Writes a scalar's canonical token (a string, a number, `true`, `false` or `null`)
  /// as it is.
  mutating func canonicalScalar(_ token: UnsafeBufferPointer<UInt8>) {
    startValue()
    append(token)
  }

  /// Writes the value whose canonical text is `text[range]` in this writer's layout: a
  /// scalar copied, an array or object walked element by element (no tree is built).
  /// Costs one pass over the text.
  mutating func canonical(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
    switch text[range.lowerBound] {
    case UInt8(ascii: "["):
      beginArray()
      CanonicalJSON.forEachElement(text, range) { element in
        canonical(text, element)
        return true
      }
      endArray()
    case UInt8(ascii: "{"):
      beginObject()
      CanonicalJSON.forEachMember(text, range) { key, value in
        canonicalKey(UnsafeBufferPointer(rebasing: text[key]))
        canonical(text, value)
        return true
      }
      endObject()
    default:
      canonicalScalar(UnsafeBufferPointer(rebasing: text[range]))
    }
  }
}
