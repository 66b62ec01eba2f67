/// The command under the cursor, split into words the way the tokenizer
/// splits input, but only as far as the cursor and without ever failing:
/// the text being typed is usually not a valid command yet.
struct PartialCommand {
  /// A word as typed: where it starts (in Unicode scalars of the line), its
  /// text as typed, and what it means once quotes and escapes are resolved.
  struct Word: Equatable {
    var start: Int
    var raw: String = ""
    var value: String = ""
    /// The quote the word is inside at the cursor (`"` or `'`), if any.
    var openQuote: Unicode.Scalar?
    /// The first quote the word uses, which completions of it keep.
    var quoteStyle: Unicode.Scalar?
    var isList = false
  }

  /// The words of the current command before the one under the cursor.
  private(set) var words: [Word] = []
  /// The word the cursor is in or at the end of; empty when the cursor follows a space.
  private(set) var current: Word
  /// False inside a comment or a list, where nothing is completed.
  private(set) var isCompletable = true

  init(_ line: String, cursor: Int) {
    var lexer = Lexer()
    var offset = 0
    for scalar in line.unicodeScalars {
      guard offset < cursor else { break }
      lexer.consume(scalar, at: offset)
      offset += 1
    }
    current = lexer.word ?? Word(start: offset)
    words = lexer.words
    isCompletable = !lexer.inComment && lexer.listDepth == 0 && !current.isList
  }

  /// The value of `text` read as one word (quotes and escapes resolved), or
  /// `nil` when it is not a single word.
  static func value(of text: String) -> String? {
    let partial = PartialCommand(text, cursor: Int.max)
    guard partial.words.isEmpty, partial.isCompletable else { return text.isEmpty ? "" : nil }
    return partial.current.value
  }

  private struct Lexer {
    var words: [Word] = []
    var word: Word?
    var inComment = false
    var listDepth = 0
    var escape: Escape?

    enum Escape {
      case started
      case unicode(String)
    }

    mutating func consume(_ scalar: Unicode.Scalar, at offset: Int) {
      if inComment {
        if scalar == "\n" { inComment = false }
        return
      }
      if var current = word, let quote = current.openQuote {
        current.raw.unicodeScalars.append(scalar)
        if quote == "\"" {
          consumeDoubleQuoted(scalar, into: &current)
        } else if scalar == "'" {
          current.openQuote = nil
        } else {
          current.value.unicodeScalars.append(scalar)
        }
        word = current
        return
      }
      if listDepth > 0 {
        word?.raw.unicodeScalars.append(scalar)
        switch scalar {
        case "[": listDepth += 1
        case "]": listDepth -= 1
        case "\"", "'": word?.openQuote = scalar
        default: break
        }
        return
      }
      switch scalar {
      case " ", "\t", "\r", "\n":
        endWord()
      case ";":
        endWord()
        words = []
      case "#" where word == nil:
        inComment = true
      case "[" where word == nil:
        word = Word(start: offset, raw: "[", isList: true)
        listDepth = 1
      case "\"", "'":
        var current = word ?? Word(start: offset)
        current.raw.unicodeScalars.append(scalar)
        current.openQuote = scalar
        if current.quoteStyle == nil { current.quoteStyle = scalar }
        word = current
      default:
        var current = word ?? Word(start: offset)
        current.raw.unicodeScalars.append(scalar)
        current.value.unicodeScalars.append(scalar)
        word = current
      }
    }

    /// Inside double quotes: escapes as the tokenizer resolves them.
    private mutating func consumeDoubleQuoted(_ scalar: Unicode.Scalar, into current: inout Word) {
      switch escape {
      case nil:
        switch scalar {
        case "\\": escape = .started
        case "\"": current.openQuote = nil
        default: current.value.unicodeScalars.append(scalar)
        }
      case .started:
        escape = nil
        switch scalar {
        case "n": current.value += "\n"
        case "t": current.value += "\t"
        case "r": current.value += "\r"
        case "0": current.value += "\0"
        case "u": escape = .unicode("")
        default: current.value.unicodeScalars.append(scalar)
        }
      case .unicode(let digits):
        if scalar == "{" && digits.isEmpty {
          escape = .unicode("{")
        } else if scalar == "}" {
          escape = nil
          if let code = UInt32(digits.dropFirst(), radix: 16), let resolved = Unicode.Scalar(code) {
            current.value.unicodeScalars.append(resolved)
          }
        } else {
          escape = .unicode(digits + String(scalar))
        }
      }
    }

    private mutating func endWord() {
      if let word { words.append(word) }
      word = nil
    }
  }
}
