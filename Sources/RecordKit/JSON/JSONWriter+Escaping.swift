/// String escaping for the writer: as little as JSON requires.
///
/// Only `"`, `\` and the control characters U+0000–U+001F are escaped (`\b \f \n \r \t`
/// in short form, the rest as `\u00XX` in lowercase hex, as Python writes them);
/// everything else, `/`, DEL, U+2028 and all non-ASCII text included, is written as raw
/// UTF-8, so that files stay readable and diffable in any editor.
extension JSONWriter {
  /// Writes `string` in quotes, escaped.
  ///
  /// Room for the worst case (every byte a `\u00XX`) is made once; then the text is
  /// copied eight bytes at a time, each word stored whole before it is checked for a
  /// byte that needs escaping (`JSONStringScan.specialBytes`), so a string without
  /// escapes costs a load and a store per eight bytes.
  mutating func appendString(_ string: String) {
    var string = string
    string.withUTF8 { appendString(utf8: $0) }
  }

  /// `appendString(_:)` of the string whose UTF-8 bytes are `utf8`.
  mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) {
    let count = utf8.count
    // Six bytes per input byte at worst, two quotes, and a word's overrun.
    reserve(count &* 6 &+ 2 &+ 8)
    var out = end
    out.pointee = UInt8(ascii: "\"")
    out += 1
    var index = 0
    if let source = utf8.baseAddress {
      while index &+ 8 <= count {
        let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
        UnsafeMutableRawPointer(out).storeBytes(of: word, as: UInt64.self)
        let special = JSONStringScan.specialBytes(UInt64(littleEndian: word))
        if special == 0 {
          out += 8
          index &+= 8
          continue
        }
        let clean = special.trailingZeroBitCount &>> 3
        out += clean
        index &+= clean
        out = Self.escape(source[index], at: out)
        index &+= 1
      }
      while index < count {
        let byte = source[index]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
          out = Self.escape(byte, at: out)
        } else {
          out.pointee = byte
          out += 1
        }
        index &+= 1
      }
    }
    out.pointee = UInt8(ascii: "\"")
    out += 1
    advance(by: out - end)
  }

  /// Stores the escape for `byte` at `out`; returns where it ends.
  private static func escape(_ byte: UInt8, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<
    UInt8
  > {
    let short: UInt8
    switch byte {
    case UInt8(ascii: "\""): short = UInt8(ascii: "\"")
    case UInt8(ascii: "\\"): short = UInt8(ascii: "\\")
    case 0x08: short = UInt8(ascii: "b")
    case 0x0C: short = UInt8(ascii: "f")
    case 0x0A: short = UInt8(ascii: "n")
    case 0x0D: short = UInt8(ascii: "r")
    case 0x09: short = UInt8(ascii: "t")
    default:
      out[0] = UInt8(ascii: "\\")
      out[1] = UInt8(ascii: "u")
      out[2] = UInt8(ascii: "0")
      out[3] = UInt8(ascii: "0")
      out[4] = hexDigit(byte >> 4)
      out[5] = hexDigit(byte & 0xF)
      return out + 6
    }
    out[0] = UInt8(ascii: "\\")
    out[1] = short
    return out + 2
  }

  private static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
  }
}
