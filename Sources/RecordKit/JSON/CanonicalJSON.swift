/// JSON text in its canonical form: exactly what `JSONWriter(compact: true)` writes for a
/// value — no white space, numbers as spelled, strings escaped only where JSON requires
/// (`"`, `\` and U+0000–U+001F, in the writer's spelling), members in their order.
///
/// Two values are equal (`JSONValue`'s `==`: by the bytes they would be written as) exactly
/// when their canonical texts are the same bytes, so a value kept as this text is compared
/// with `memcmp`, copied with `memcpy` and written to a file without being decoded; it is
/// decoded (`value(_:_:)`) only when something reads it. That is how a record keeps the
/// members its kind does not type (`CustomFields`), and all of a run-time kind's.
///
/// Text given to these functions must be canonical — made by the writer, or by
/// `JSONReader.readCanonical(into:)`, which checks the source as strictly as the tree
/// reader and writes this form — so nothing here validates: each scan assumes the
/// grammar and costs one pass over the bytes it steps over. (Made here rather than taken
/// from a library: it is the writer's own form, read back; a few dozen lines.)
package enum CanonicalJSON {
  /// Where the value that starts at `start` ends. For a string, list or object this holds
  /// of any valid JSON text too, white space and all (`JSONSpan` steps over a file's
  /// values so); a number or literal ends at a separator, not at white space.
  static func valueEnd(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    switch text[start] {
    case UInt8(ascii: "\""):
      return stringEnd(text, from: start)
    case UInt8(ascii: "["), UInt8(ascii: "{"):
      var depth = 0
      var cursor = start
      while true {
        switch text[cursor] {
        case UInt8(ascii: "\""):
          cursor = stringEnd(text, from: cursor)
          continue
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          depth += 1
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
          depth -= 1
          if depth == 0 { return cursor + 1 }
        default:
          break
        }
        cursor += 1
      }
    default:
      // A number or a literal: it runs to the next separator or the end.
      var cursor = start + 1
      while cursor < text.count {
        let byte = text[cursor]
        if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
          || byte == UInt8(ascii: ":")
        {
          break
        }
        cursor += 1
      }
      return cursor
    }
  }

  /// Where the string token whose `"` is at `start` ends (after its closing quote); of any
  /// valid JSON string too, which has no raw control byte either.
  static func stringEnd(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var cursor = start + 1
    var ignored = false
    while true {
      cursor = JSONStringScan.firstSpecial(in: text, from: cursor, sawNonASCII: &ignored)
      // Canonical text has no raw control bytes: the stop is a quote or a backslash.
      if text[cursor] == UInt8(ascii: "\"") { return cursor + 1 }
      cursor += 2
    }
  }

  /// Calls `body` with each member of the object `text[range]`, in order: its key's
  /// string token (quotes included) and its value; stops when `body` returns false.
  /// Inlined, as `MemberMarks.forEach` and `forEachElement` are, so that `body` is
  /// inlined with the walk: the schema check walks every record's members and lists so.
  @inline(__always)
  static func forEachMember(
    _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (Range<Int>, Range<Int>) -> Bool
  ) {
    var cursor = range.lowerBound + 1
    let end = range.upperBound - 1
    while cursor < end {
      let keyEnd = stringEnd(text, from: cursor)
      let valueEnd = valueEnd(text, from: keyEnd + 1)
      guard body(cursor..<keyEnd, (keyEnd + 1)..<valueEnd) else { return }
      cursor = valueEnd + 1
    }
  }

  /// Calls `body` with each element of the array `text[range]`, in order; stops when
  /// `body` returns false.
  @inline(__always)
  static func forEachElement(
    _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (Range<Int>) -> Bool
  ) {
    var cursor = range.lowerBound + 1
    let end = range.upperBound - 1
    while cursor < end {
      let elementEnd = valueEnd(text, from: cursor)
      guard body(cursor..<elementEnd) else { return }
      cursor = elementEnd + 1
    }
  }

  /// Where the first byte below `0x20` at or after `start` is; `nil` when there is none.
  /// Canonical text has no such byte (strings escape them): what finds the codes a
  /// record's keyed text puts in (`KeyedText`). Eight bytes at a time: a word holds such a
  /// byte exactly when `(word - 0x20…20) & ~word & 0x80…80` is not zero.
  @inline(__always)
  static func firstControlByte(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let base = text.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    var cursor = start
    while cursor &+ 8 <= text.count {
      let word = raw.loadUnaligned(fromByteOffset: cursor, as: UInt64.self)
      if (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 != 0 { break }
      cursor &+= 8
    }
    while cursor < text.count {
      if text[cursor] < 0x20 { return cursor }
      cursor &+= 1
    }
    return nil
  }

  /// Whether the string token `text[token]` stands for `string`. Without an escape the
  /// token is the string's bytes in quotes; with one it is decoded and compared.
  static func token(_ text: UnsafeBufferPointer<UInt8>, _ token: Range<Int>, is string: String) -> Bool {
    let inner = UnsafeBufferPointer(rebasing: text[(token.lowerBound + 1)..<(token.upperBound - 1)])
    guard inner.firstIndex(of: UInt8(ascii: "\\")) == nil else {
      return JSONValue.sameBytes(self.string(text, token), string)
    }
    var string = string
    return string.withUTF8 { bytes in sameBytes(bytes, inner) }
  }

  /// Whether two runs of bytes are the same, compared eight bytes at a time (the generic
  /// `elementsEqual` steps an iterator per byte). The last part is one more load of each
  /// side, overlapping the bytes before it: the last eight bytes, or for a run shorter than
  /// eight its first and last four (or two, or its one byte). Most runs compared are keys
  /// of under eight bytes, which a byte loop took seven steps for.
  @inline(__always)
  package static func sameBytes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    guard left.count == right.count else { return false }
    guard let x = left.baseAddress, let y = right.baseAddress else { return true }
    let (a, b, count) = (UnsafeRawPointer(x), UnsafeRawPointer(y), left.count)
    if count >= 8 {
      var offset = 0
      while offset &+ 8 < count {
        guard
          a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        else { return false }
        offset &+= 8
      }
      return a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }
    if count >= 4 {
      return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
        && a.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
          == b.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
    }
    if count >= 2 {
      return a.loadUnaligned(as: UInt16.self) == b.loadUnaligned(as: UInt16.self)
        && a.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
          == b.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
    }
    return count == 0 || x[0] == y[0]
  }

  /// The order of two runs of bytes: negative, zero or positive as `left` is below, equal
  /// to or above `right` (code point order, for UTF-8), compared eight bytes at a time as
  /// big-endian words, whose order is the bytes'.
  static func compareBytes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
    let common = min(left.count, right.count)
    if common > 0, let x = left.baseAddress, let y = right.baseAddress {
      var offset = 0
      while offset &+ 8 <= common {
        let a = UInt64(bigEndian: UnsafeRawPointer(x + offset).loadUnaligned(as: UInt64.self))
        let b = UInt64(bigEndian: UnsafeRawPointer(y + offset).loadUnaligned(as: UInt64.self))
        if a != b { return a < b ? -1 : 1 }
        offset &+= 8
      }
      while offset < common {
        if x[offset] != y[offset] { return x[offset] < y[offset] ? -1 : 1 }
        offset &+= 1
      }
    }
    return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
  }

  /// The string the token `text[token]` stands for.
  static func string(_ text: UnsafeBufferPointer<UInt8>, _ token: Range<Int>) -> String {
    let inner = UnsafeBufferPointer(rebasing: text[(token.lowerBound + 1)..<(token.upperBound - 1)])
    guard inner.firstIndex(of: UInt8(ascii: "\\")) != nil else {
      return UTF8Validation.knownValidString(inner)
    }
    return escapedString(UnsafeBufferPointer(rebasing: text[token]))
  }

  /// The value whose canonical text is `text[range]`, decoded: a walk of the text that
  /// trusts it (no white space to skip, no grammar to check), a string without escapes
  /// made straight from its bytes, only a string with escapes read by `JSONReader`.
  static func value(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> JSONValue {
    var values: [JSONValue] = []
    var members: [JSONObject.Member] = []
    return value(text, range, &values, &members)
  }

  /// `value(_:_:)`, with the elements and members of the containers being built kept on
  /// two stacks, so that each container is made once at its exact size (as the reader's
  /// tree builder does) instead of growing an array of its own.
  private static func value(
    _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ values: inout [JSONValue],
    _ members: inout [JSONObject.Member]
  ) -> JSONValue {
    switch text[range.lowerBound] {
    case UInt8(ascii: "n"): return .null
    case UInt8(ascii: "t"): return .bool(true)
    case UInt8(ascii: "f"): return .bool(false)
    case UInt8(ascii: "\""): return .string(string(text, range))
    case UInt8(ascii: "["):
      let base = values.count
      forEachElement(text, range) { element in
        let decoded = value(text, element, &values, &members)
        values.append(decoded)
        return true
      }
      return .array(values.moveSuffix(from: base, leaving: .null))
    case UInt8(ascii: "{"):
      let base = members.count
      forEachMember(text, range) { key, member in
        let decoded = value(text, member, &values, &members)
        members.append(JSONObject.Member(key: string(text, key), value: decoded))
        return true
      }
      return .object(JSONObject(members.moveSuffix(from: base, leaving: .placeholder)))
    default:
      return .number(UTF8Validation.asciiString(UnsafeBufferPointer(rebasing: text[range])))
    }
  }

  /// A string token with an escape, decoded by the reader.
  private static func escapedString(_ token: UnsafeBufferPointer<UInt8>) -> String {
    var reader = JSONReader(unsafeBytes: token)
    do {
      return try reader.readString()
    } catch {
      preconditionFailure("canonical JSON text that does not read: \(error)")
    }
  }

  /// The canonical text of `value`.
  package static func text(of value: JSONValue) -> [UInt8] {
    var writer = JSONWriter(compact: true)
    writer.value(value)
    return writer.bytes
  }

  /// Calls `body` with the canonical text of `value` in the writer's own buffer: what
  /// `text(of:)` gives, without an array made of it (an allocation and a copy, about 250
  /// instructions for a short value, on every edit of a run-time kind's field).
  static func withText<Result>(of value: JSONValue, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result)
    rethrows -> Result
  {
    var writer = JSONWriter(compact: true)
    writer.value(value)
    return try writer.withBytes(body)
  }

  /// The canonical string token of `string` (quotes included).
  static func token(of string: String) -> [UInt8] {
    var writer = JSONWriter(compact: true)
    writer.appendString(string)
    return writer.bytes
  }

  /// The canonical text of the one JSON document `bytes` (white space around it allowed),
  /// read by `JSONReader.readCanonical`, or the error the tree reader would give: what the
  /// JSON fuzz target holds against the tree.
  package static func read(document bytes: [UInt8]) throws(JSONSyntaxError) -> [UInt8] {
    try JSONReader.withReader(over: bytes) { (reader) throws(JSONSyntaxError) -> [UInt8] in
      var writer = JSONWriter(compact: true)
      _ = try reader.peek()
      try reader.readCanonical(into: &writer)
      try reader.finish()
      return writer.bytes
    }
  }

  /// `value(_:_:)` of a whole canonical text, and the text written in recsh's file layout
  /// (`JSONWriter.canonical`), for the fuzz target.
  package static func decodeAndLayOut(_ text: [UInt8]) -> (value: JSONValue, laidOut: [UInt8]) {
    text.withUnsafeBufferPointer { buffer in
      var writer = JSONWriter()
      writer.canonical(buffer, 0..<buffer.count)
      writer.finish()
      return (value(buffer, 0..<buffer.count), writer.bytes)
    }
  }
}
