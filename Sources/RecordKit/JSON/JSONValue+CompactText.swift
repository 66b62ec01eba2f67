extension JSONValue {
  /// The value as one line of JSON (`{"a": [1, 2]}`), for `show`, error messages
  /// and the journal. Files use the pretty writer.
  public var compactText: String {
    String(decoding: compactUTF8, as: UTF8.self)
  }

  /// `compactText` as UTF-8 bytes, built without going through `String`: the
  /// journal encodes every edit with it.
  public var compactUTF8: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(64)
    appendCompact(to: &out)
    return out
  }

  func appendCompact(to out: inout [UInt8]) {
    switch self {
    case .null: out.append(literal: "null")
    case .bool(let value): out.append(literal: value ? "true" : "false")
    case .number(var spelling):
      // Its UTF-8 buffer in one copy, as `append(literal:)` copies the fixed pieces.
      spelling.withUTF8 { out.append(contentsOf: $0) }
    case .string(let text): Self.appendQuoted(text, to: &out)
    case .array(let items):
      out.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { out.append(literal: ", ") }
        item.appendCompact(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let object):
      out.append(UInt8(ascii: "{"))
      for (index, member) in object.members.enumerated() {
        if index > 0 { out.append(literal: ", ") }
        Self.appendQuoted(member.key, to: &out)
        out.append(literal: ": ")
        member.value.appendCompact(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// The decimal digits of `value`, as `String(value)` spells them, without making a `String`.
  public static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    withDigits(of: UInt64(value.magnitude)) { out.append(contentsOf: $0) }
  }

  /// Calls `body` with the decimal digits of `magnitude`, laid out on the stack: what
  /// `appendDecimal` appends, for a writer that lays out more around them
  /// (`EditRecordHead`).
  @inline(__always)
  static func withDigits<Result>(of magnitude: UInt64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 20 digits of UInt64.max
    return withUnsafeMutableBytes(of: &digits) { raw in
      var index = raw.count
      var rest = magnitude
      repeat {
        index -= 1
        raw[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      } while rest > 0
      return body(UnsafeRawBufferPointer(rebasing: raw[index...]))
    }
  }

  /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t`,
  /// `\r` or `\u00XX`; everything else as its UTF-8 bytes.
  static func appendQuoted(_ text: String, to out: inout [UInt8]) {
    var text = text
    text.withUTF8 { appendQuoted(utf8: $0, to: &out) }
  }

  /// `appendQuoted(_:to:)` of the string whose UTF-8 bytes are `utf8`.
  static func appendQuoted(utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most strings need no escape: then their bytes go in with one copy.
    var sawNonASCII = false
    if JSONStringScan.firstSpecial(in: utf8, from: 0, sawNonASCII: &sawNonASCII) == utf8.count {
      out.append(contentsOf: utf8)
      out.append(UInt8(ascii: "\""))
      return
    }
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(literal: "\\\"")
      case UInt8(ascii: "\\"): out.append(literal: "\\\\")
      case UInt8(ascii: "\n"): out.append(literal: "\\n")
      case UInt8(ascii: "\t"): out.append(literal: "\\t")
      case UInt8(ascii: "\r"): out.append(literal: "\\r")
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out.append(literal: "\\u00")
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}

extension JSONValue {
  /// The value as it would be typed: a string bare when it is one plain word, else quoted;
  /// anything else its compact JSON.
  package var typedWord: String {
    guard case .string(let text) = self else { return compactText }
    let plain =
      !text.isEmpty && text != "null" && text != "true" && text != "false"
      && text.unicodeScalars.allSatisfy {
        $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
      }
    return plain ? text : compactText
  }
}
