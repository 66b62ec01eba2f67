import RecordKit

/// Splits shell input into commands of tokens, over UTF-8 bytes.
///
/// Rules, each one tested in `TokenizerTests`:
/// - **Words** are runs of anything but whitespace (space, tab, CR), `"`, `'`, `;`, `[`
///   and `]`; non-ASCII text is part of words. A comma ends a word only inside a list,
///   so `a,b` elsewhere is one word. A backslash in a word is just a backslash.
/// - **`"Double-quoted"` strings** resolve `\" \' \\ \n \t \r \0` and `\u{1F600}` (one to
///   six hex digits naming a scalar value); any other escape is an error, so that a typo
///   never silently becomes text.
/// - **`'Single-quoted'` strings** are raw: no escapes, and no `'` inside (use double
///   quotes for that).
/// - **Quotes glue to adjacent text**, as in a POSIX shell: `title="Buy milk"` is the
///   one token `title=Buy milk`, quoted because part of it was. This keeps
///   `list FIELD=VALUE` usable with values that hold spaces.
/// - **Lists** are `[a, "b c", d]`: commas between elements, whitespace and line breaks
///   optional around them, `[]` empty, no trailing comma. Lists nest (for custom fields
///   that hold JSON arrays) up to 32 levels (`TokenScanner.maxListDepth`). A list cannot be
///   glued to a word (`a[b]`) or have text glued after it (`[a]b`).
/// - **`;` and line feeds** separate commands, except inside quotes and lists (a `;` in
///   a list is an error); blank commands are dropped.
/// - **`#` starts a comment** to the end of the line where a word could start, so `a#b`
///   is a word and `"#"` a string.
/// - **Control characters** other than tab, CR and LF are errors outside quotes, so an
///   invisible byte never ends up in a word; inside quotes they are kept.
///
/// `tokenize` refuses the whole input at the first error; `tokenizeLine` keeps the commands
/// before it, so that a line runs as far as it can be read (the script runner's way).
public enum Tokenizer {
  /// Splits `line` into commands. `line` may hold line feeds, from the continuation
  /// lines of an open quote or list, or from `-c` text.
  public static func tokenize(_ line: String) throws(TokenizerError) -> [TokenizedCommand] {
    var line = line
    return try line.withUTF8 { bytes in
      Result { () throws(TokenizerError) in try scan(bytes) }
    }.get()
  }

  /// Splits `line` into the commands before its first error, and that error.
  static func tokenizeLine(_ line: String) -> TokenizedLine {
    var line = line
    return line.withUTF8 { bytes in
      var scanner = TokenScanner(bytes: bytes)
      return scanner.scanUntilError()
    }
  }

  /// Splits UTF-8 bytes (a line of a script file, say) into commands; bytes that are not
  /// UTF-8 are an error naming their offset, reported before anything else.
  public static func tokenize(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(TokenizerError)
    -> [TokenizedCommand]
  {
    try validateUTF8(bytes)
    return try scan(bytes)
  }

  /// Refuses bytes that are not UTF-8, naming where (the script runner checks every line
  /// it reads, so that no typed or piped byte is silently replaced by U+FFFD).
  static func validateUTF8(_ bytes: UnsafeBufferPointer<UInt8>) throws(TokenizerError) {
    // Most lines are ASCII: nothing more to check. The check of the rest starts at the
    // first byte that is not: the bytes before it are ASCII, so a character starts there.
    // (The reader's `UTF8Validation.firstInvalidOffset` gives the same offsets, but took
    // twice the instructions on a script's short lines.)
    let start = UTF8Validation.asciiPrefixCount(bytes)
    if start == bytes.count { return }
    do {
      _ = try UTF8Span(validating: Span(_unsafeElements: UnsafeBufferPointer(rebasing: bytes[start...])))
    } catch {
      throw invalidUTF8(in: bytes, at: start + error.byteOffsets.lowerBound)
    }
  }

  /// Whether `line` ends inside an open quote or list, so that the interactive shell
  /// should read another line and join it on with "\n" rather than run it.
  ///
  /// Any other error gives `false`: more input cannot fix it, so it is reported now.
  public static func needsContinuation(_ line: String) -> Bool {
    tokenizeLine(line).needsContinuation
  }

  private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws(TokenizerError) -> [TokenizedCommand] {
    var scanner = TokenScanner(bytes: bytes)
    return try scanner.scan()
  }

  /// The error for the first invalid byte, at `offset`, with the line and column of the
  /// valid text before it.
  private static func invalidUTF8(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> TokenizerError {
    var line = 1
    var column = 1
    for byte in bytes[..<offset] {
      if byte == TokenScanner.ASCII.lineFeed {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return TokenizerError(.invalidUTF8(offset: offset), line: line, column: column)
  }
}
