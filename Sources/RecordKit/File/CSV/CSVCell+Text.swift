/// A cell's text: its bytes with the dialect's quoting or escapes undone.
extension CSVCell {
  /// The text of this cell of `bytes`, which must be the bytes it was read from (and so
  /// valid UTF-8: the reader checked them).
  ///
  /// A quoted cell loses its quotes and has each `""` read as `"`; a `.tsv` cell has `\t`,
  /// `\n`, `\r` and `\\` read as a tab, LF, CR and backslash (another backslash stays).
  /// Makes one `String`; O(bytes of the cell).
  package func text(in bytes: UnsafeBufferPointer<UInt8>, escaping: CSVDialect.Escaping) -> String {
    let content = UnsafeBufferPointer(rebasing: bytes[contentRange])
    switch escaping {
    case .quotes:
      guard isQuoted, let quote = CSVScan.firstIndex(of: UInt8(ascii: "\""), in: content, from: 0) else {
        return Self.string(content)
      }
      return Self.rewritten(content, from: quote) { content, index, out in
        out = content[index]
        // The reader accepted this cell, so every quote inside it is the first of a pair.
        return content[index] == UInt8(ascii: "\"") ? 2 : 1
      }
    case .backslashes:
      guard let backslash = CSVScan.firstIndex(of: UInt8(ascii: "\\"), in: content, from: 0) else {
        return Self.string(content)
      }
      return Self.rewritten(content, from: backslash) { content, index, out in
        guard content[index] == UInt8(ascii: "\\"), index + 1 < content.count else {
          out = content[index]
          return 1
        }
        switch content[index + 1] {
        case UInt8(ascii: "t"): out = 0x09
        case UInt8(ascii: "n"): out = 0x0A
        case UInt8(ascii: "r"): out = 0x0D
        case UInt8(ascii: "\\"): out = UInt8(ascii: "\\")
        default:
          out = UInt8(ascii: "\\")
          return 1
        }
        return 2
      }
    }
  }

  /// `content` as a string, which the reader checked is UTF-8.
  static func string(_ content: UnsafeBufferPointer<UInt8>) -> String {
    guard !content.isEmpty else { return "" }
    return String(copying: UTF8Span(unchecked: Span(_unsafeElements: content), isKnownASCII: false))
  }

  /// `content` with the bytes from `first` on rewritten by `step`, which gives the byte to
  /// write for the bytes at an index and how many it consumed. Only ASCII bytes are
  /// replaced or dropped, so the text stays UTF-8.
  private static func rewritten(
    _ content: UnsafeBufferPointer<UInt8>, from first: Int,
    _ step: (UnsafeBufferPointer<UInt8>, Int, inout UInt8) -> Int
  ) -> String {
    String(unsafeUninitializedCapacity: content.count) { out in
      var written = 0
      var index = 0
      while index < first {
        out[written] = content[index]
        written += 1
        index += 1
      }
      var byte: UInt8 = 0
      while index < content.count {
        index += step(content, index, &byte)
        out[written] = byte
        written += 1
      }
      return written
    }
  }
}
