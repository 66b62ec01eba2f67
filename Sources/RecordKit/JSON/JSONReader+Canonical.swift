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
        var keys = CanonicalKeys(base: rawKeyStack.count)
        repeat {
          try readCanonicalKey(into: &writer, keys: &keys)
          try readCanonical(into: &writer)
        } while try advanceInObject()
        rawKeyStack.removeSubrange(keys.base...)
        keys.strings?.removeAll(from: &keyStack)
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

/// The keys of one object `readCanonical` reads, for refusing duplicates as `JSONKeySet`
/// does, without a `String` per key: a key without escapes is its source bytes, kept as a
/// range on the reader's `rawKeyStack` and compared byte for byte (after a check of its
/// length and first byte, which most keys fail). An object with an escaped key, or with more
/// keys than a scan suits, goes over to a `JSONKeySet` of strings for the rest.
struct CanonicalKeys {
  /// This object's first range on `rawKeyStack`.
  let base: Int
  /// One bit per class of raw key (byte count and first byte) seen so far.
  var classes: UInt64 = 0
  /// The string set, once the object needs it (it then holds every key so far).
  var strings: JSONKeySet?

  init(base: Int) {
    self.base = base
  }

  static let scanLimit = 16
}

extension JSONReader {
  /// Reads a member's key and its `:` as `readKey` does (the same errors at the same
  /// places), writing the key to `writer`: copied when it has no escape.
  mutating func readCanonicalKey(into writer: inout JSONWriter, keys: inout CanonicalKeys)
    throws(JSONSyntaxError)
  {
    guard bytes[index] == UInt8(ascii: "\"") else {
      throw unexpected(.key, at: index, inside: .object)
    }
    let keyStart = index
    var sawNonASCII = false
    let stop = JSONStringScan.firstSpecial(in: bytes, from: keyStart + 1, sawNonASCII: &sawNonASCII)
    guard keys.strings == nil, stop < bytes.count, bytes[stop] == UInt8(ascii: "\""),
      rawKeyStack.count - keys.base < CanonicalKeys.scanLimit
    else {
      if keys.strings == nil {
        var strings = JSONKeySet(base: keyStack.count)
        for range in rawKeyStack[keys.base...] {
          _ = strings.insert(
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self), into: &keyStack)
        }
        keys.strings = strings
      }
      var strings = keys.strings ?? JSONKeySet(base: keyStack.count)
      keys.strings = nil
      defer { keys.strings = strings }
      writer.key(try readKey(checkingAgainst: &strings))
      return
    }
    let key = (keyStart + 1)..<stop
    if sawNonASCII, UTF8Validation.firstInvalidOffset(in: bytes, key) != nil { throw invalidUTF8(in: key) }
    let keyClass: UInt64 =
      1 &<< UInt64(truncatingIfNeeded: key.count &* 7 &+ Int(key.isEmpty ? 0 : bytes[key.lowerBound]))
    if keys.classes & keyClass != 0 {
      let text = UnsafeBufferPointer(rebasing: bytes[key])
      for range in rawKeyStack[keys.base...]
      where CanonicalJSON.sameBytes(UnsafeBufferPointer(rebasing: bytes[range]), text) {
        throw syntaxError(.duplicateKey(String(decoding: text, as: UTF8.self)), at: keyStart)
      }
    }
    keys.classes |= keyClass
    rawKeyStack.append(key)
    index = stop + 1
    try readColon()
    tokenStart = keyStart
    writer.canonicalKey(UnsafeBufferPointer(rebasing: bytes[keyStart...stop]))
  }
}
