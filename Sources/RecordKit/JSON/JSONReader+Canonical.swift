/// Reading a value into its canonical text (`CanonicalJSON`) instead of a tree.
extension JSONReader {
  /// Reads the value at the current byte (the caller has peeked it) and writes its
  /// canonical text to `writer`, a compact one: a string without escapes and a number are
  /// copied as they are, a string with escapes is decoded and written as the writer
  /// escapes, arrays and objects are walked. Checks the source exactly as `parseValue`
  /// does — the same token steps, so the same errors at the same places — and builds no
  /// `JSONValue`: what a record's members cost to load is a copy of their bytes.
  mutating func readCanonical(into writer: inout JSONWriter) throws(JSONSyntaxError) {
    switch bytes[index] {
    case UInt8(ascii: "\""):
      let start = index
      var sawNonASCII = false
      let stop = JSONStringScan.firstSpecial(in: bytes, from: start + 1, sawNonASCII: &sawNonASCII)
      guard stop < bytes.count, bytes[stop] == UInt8(ascii: "\"") else {
        // An escape, a control byte or the end: the string reader says which.
        writer.string(try readStringToken())
        return
      }
      if sawNonASCII, UTF8Validation.firstInvalidOffset(in: bytes, (start + 1)..<stop) != nil {
        throw invalidUTF8(in: (start + 1)..<stop)
      }
      index = stop + 1
      writer.canonicalScalar(UnsafeBufferPointer(rebasing: bytes[start..<index]))
    case UInt8(ascii: "["):
      writer.beginArray()
      if try enterArray() {
        repeat {
          try readCanonical(into: &writer)
        } while try advanceInArray()
      }
      writer.endArray()
    case UInt8(ascii: "{"):
      writer.beginObject()
      if try enterObject() {
        var keys = JSONKeySet(base: keyStack.count)
        repeat {
          writer.key(try readKey(checkingAgainst: &keys))
          try readCanonical(into: &writer)
        } while try advanceInObject()
        keys.removeAll(from: &keyStack)
      }
      writer.endObject()
    case UInt8(ascii: "t"):
      try readLiteral("true")
      writer.bool(true)
    case UInt8(ascii: "f"):
      try readLiteral("false")
      writer.bool(false)
    case UInt8(ascii: "n"):
      try readLiteral("null")
      writer.null()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      let start = index
      _ = try scanNumberToken()
      writer.canonicalScalar(UnsafeBufferPointer(rebasing: bytes[start..<index]))
    default:
      throw unexpected(.value, at: index, inside: .document)
    }
  }
}
