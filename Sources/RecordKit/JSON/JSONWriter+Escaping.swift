/// String escaping for the writer: as little as JSON requires.
///
/// Only `"`, `\` and the control characters U+0000–U+001F are escaped (`\b \f \n \r \t`
/// in short form, the rest as `\u00XX` in lowercase hex, as Python writes them);
/// everything else, `/`, DEL, U+2028 and all non-ASCII text included, is written as raw
/// UTF-8, so that files stay readable and diffable in any editor.
extension JSONWriter {
  mutating func appendString(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      var runStart = 0
      var ignored = false
      while true {
        let stop = JSONStringScan.firstSpecial(in: utf8, from: runStart, sawNonASCII: &ignored)
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<stop]))
        guard stop < utf8.count else { break }
        appendEscape(for: utf8[stop])
        runStart = stop + 1
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func appendEscape(for byte: UInt8) {
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
      bytes.append(contentsOf: [
        UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
        Self.hexDigit(byte >> 4), Self.hexDigit(byte & 0xF),
      ])
      return
    }
    bytes.append(UInt8(ascii: "\\"))
    bytes.append(short)
  }

  private static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
  }
}
