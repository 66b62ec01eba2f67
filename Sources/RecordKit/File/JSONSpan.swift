/// Where a JSON value and its parts lie in bytes: what a save needs to keep every byte it
/// does not change (the white space, the key order, the escapes and number spellings of the
/// members and elements it keeps).
///
/// Made only from bytes that already read as JSON (a record of a file that loaded), so the
/// scan checks nothing: it finds where strings, numbers and containers end. Made for the
/// records a save must look into, not for the whole file. O(bytes of the value).
struct JSONSpan: Equatable {
  /// The value's first byte and one past its last.
  var start: Int
  var end: Int
  var content: Content

  enum Content: Equatable {
    case scalar
    /// After `[`, before `]`: where the elements are.
    case array(inner: Range<Int>, elements: [JSONSpan])
    /// After `{`, before `}`.
    case object(inner: Range<Int>, members: [Member])
  }

  struct Member: Equatable {
    /// The key as text (escapes read), and where its quoted spelling starts.
    var key: String
    var keyStart: Int
    var value: JSONSpan
    /// From the key's opening quote to the value's end.
    var range: Range<Int> { keyStart..<value.end }
  }

  var range: Range<Int> { start..<end }

  /// The value at `start` (white space before it skipped) in `bytes`, which must hold valid
  /// JSON there.
  static func scan(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> JSONSpan {
    var scanner = Scanner(bytes: bytes, index: start)
    return scanner.value()
  }

  static func scan(_ bytes: [UInt8], at start: Int = 0) -> JSONSpan {
    bytes.withUnsafeBufferPointer { scan($0, at: start) }
  }

  /// The top-level members of the object at `start` (white space before it skipped), each
  /// its key token (quotes included) and its value, into `members` (emptied first),
  /// without a span for each value: what a save that compares members needs, no more.
  /// False when the value there is no object.
  static func members(
    ofObjectAt start: Int, in bytes: UnsafeBufferPointer<UInt8>,
    into members: inout [(key: Range<Int>, value: Range<Int>)]
  ) -> Bool {
    members.removeAll(keepingCapacity: true)
    var scanner = Scanner(bytes: bytes, index: start)
    scanner.skipWhitespace()
    guard scanner.index < bytes.count, bytes[scanner.index] == UInt8(ascii: "{") else { return false }
    _ = scanner.parts(closedBy: UInt8(ascii: "}")) { scanner in
      let key = scanner.key()
      scanner.skipWhitespace()
      let valueStart = scanner.index
      scanner.skipValue()
      members.append((key, valueStart..<scanner.index))
    }
    return true
  }

  /// The elements' or members' ranges, in order.
  var partRanges: [Range<Int>] {
    switch content {
    case .scalar: []
    case .array(_, let elements): elements.map(\.range)
    case .object(_, let members): members.map(\.range)
    }
  }

  var inner: Range<Int>? {
    switch content {
    case .scalar: nil
    case .array(let inner, _), .object(let inner, _): inner
    }
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int

    mutating func skipWhitespace() {
      while index < bytes.count, JSONSpan.isWhitespace(bytes[index]) { index += 1 }
    }

    mutating func value() -> JSONSpan {
      skipWhitespace()
      let start = index
      guard index < bytes.count else { return JSONSpan(start: start, end: start, content: .scalar) }
      switch bytes[index] {
      case UInt8(ascii: "{"):
        var members: [Member] = []
        let inner = parts(closedBy: UInt8(ascii: "}")) { scanner in
          let key = scanner.key()
          members.append(
            Member(
              key: JSONSpan.text(of: scanner.bytes, key), keyStart: key.lowerBound, value: scanner.value()))
        }
        return JSONSpan(start: start, end: index, content: .object(inner: inner, members: members))
      case UInt8(ascii: "["):
        var elements: [JSONSpan] = []
        let inner = parts(closedBy: UInt8(ascii: "]")) { scanner in elements.append(scanner.value()) }
        return JSONSpan(start: start, end: index, content: .array(inner: inner, elements: elements))
      case UInt8(ascii: "\""):
        skipString()
        return JSONSpan(start: start, end: index, content: .scalar)
      default:
        skipScalar()
        return JSONSpan(start: start, end: index, content: .scalar)
      }
    }

    /// From a member's key to after the colon that follows it; the key token's range.
    mutating func key() -> Range<Int> {
      let start = index
      skipString()
      let key = start..<index
      skipWhitespace()
      index += 1  // the colon
      return key
    }

    /// From the first byte of a value to after it, building nothing.
    mutating func skipValue() {
      switch bytes[index] {
      case UInt8(ascii: "\""): skipString()
      case UInt8(ascii: "["), UInt8(ascii: "{"): index = CanonicalJSON.valueEnd(bytes, from: index)
      default: skipScalar()
      }
    }

    /// A number or literal: to the white space or separator after it.
    mutating func skipScalar() {
      while index < bytes.count {
        let byte = bytes[index]
        if JSONSpan.isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]")
          || byte == UInt8(ascii: "}")
        {
          return
        }
        index += 1
      }
    }

    /// From after the opening bracket at the cursor to after `closer`: `part` reads each
    /// part (the commas between them skipped); returns the inside's range.
    mutating func parts(closedBy closer: UInt8, _ part: (inout Scanner) -> Void) -> Range<Int> {
      index += 1
      let innerStart = index
      skipWhitespace()
      while index < bytes.count, bytes[index] != closer {
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          skipWhitespace()
          continue
        }
        part(&self)
        skipWhitespace()
      }
      let inner = innerStart..<index
      index += 1
      return inner
    }

    /// From an opening quote to after its closing one, eight bytes at a time where there is
    /// nothing to stop at (`CanonicalJSON.stringEnd`: a string of a file that loaded has no
    /// raw control byte either).
    mutating func skipString() {
      index = CanonicalJSON.stringEnd(bytes, from: index)
    }
  }

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// A quoted key's text: its bytes when it has no escape, else as the JSON reader reads it.
  static func text(of bytes: UnsafeBufferPointer<UInt8>, _ quoted: Range<Int>) -> String {
    let inside = UnsafeBufferPointer(
      rebasing: bytes[(quoted.lowerBound + 1)..<max(quoted.upperBound - 1, quoted.lowerBound + 1)])
    if !inside.contains(UInt8(ascii: "\\")) { return String(decoding: inside, as: UTF8.self) }
    if case .string(let text)? = try? JSONValue.parse(bytes: Array(bytes[quoted])) { return text }
    return String(decoding: inside, as: UTF8.self)
  }
}
