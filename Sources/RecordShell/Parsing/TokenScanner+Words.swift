/// Words: bare text and quoted strings glued together, as in a POSIX shell.
extension TokenScanner {
  /// Reads a word: bare text and quoted strings glued together (`title="a b"` is one
  /// word), quoted if any part was quoted.
  mutating func readWord() throws(TokenizerError) {
    let start = position
    try checkCanStartValue(at: start)
    let inList = !lists.isEmpty
    var (text, isQuoted) = try readWordPart(inList: inList)
    var parts: [WordPart] = []
    while index < bytes.count, Self.continuesWord(bytes[index], inList: inList) {
      if parts.isEmpty { parts.append(WordPart(text, isQuoted: isQuoted)) }
      let (part, isPartQuoted) = try readWordPart(inList: inList)
      parts.append(WordPart(part, isQuoted: isPartQuoted))
      text += part
      isQuoted = isQuoted || isPartQuoted
    }
    if index < bytes.count, bytes[index] == ASCII.openBracket { throw error(.listInsideWord, at: position) }
    add(isQuoted ? .quoted(text) : .word(text), at: start, parts: parts)
  }

  /// Reads a quoted string or a run of bare text at the current byte, which is a quote
  /// or a word byte; says whether it was quoted.
  mutating func readWordPart(inList: Bool) throws(TokenizerError) -> (String, isQuoted: Bool) {
    switch bytes[index] {
    case ASCII.doubleQuote: (try readDoubleQuoted(), true)
    case ASCII.singleQuote: (try readSingleQuoted(), true)
    default: (readBareText(inList: inList), false)
    }
  }

  /// Whether `byte` glued to the end of a word part continues the word.
  private static func continuesWord(_ byte: UInt8, inList: Bool) -> Bool {
    byte == ASCII.doubleQuote || byte == ASCII.singleQuote || isWordByte(byte, inList: inList)
  }

  /// Reads a run of unquoted word bytes; non-ASCII bytes are always part of words.
  private mutating func readBareText(inList: Bool) -> String {
    let begin = index
    var cursor = index
    var continuations = 0
    while cursor < bytes.count {
      let byte = bytes[cursor]
      if byte >= 0x80 {
        if byte & 0xC0 == 0x80 { continuations &+= 1 }
      } else if !Self.isWordByte(byte, inList: inList) {
        break
      }
      cursor &+= 1
    }
    index = cursor
    continuationBytes += continuations
    return text(begin..<cursor, isASCII: continuations == 0)
  }

  /// Whether an ASCII byte (or any byte of 0x80 and above) can be part of a bare word.
  /// A comma is part of a word outside lists, so `a,b` there is one word.
  @inline(__always)
  static func isWordByte(_ byte: UInt8, inList: Bool) -> Bool {
    switch byte {
    case 0x00...0x20, ASCII.doubleQuote, ASCII.singleQuote, ASCII.semicolon, ASCII.openBracket,
      ASCII.closeBracket, 0x7F:
      false
    case ASCII.comma:
      !inList
    default:
      true
    }
  }
}
