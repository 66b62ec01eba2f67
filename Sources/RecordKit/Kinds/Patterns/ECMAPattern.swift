/// An ECMA-262 regular expression (as JSON Schema's `pattern` means it, in Unicode mode)
/// rewritten in PCRE2's syntax, for `CompiledPattern` to compile with `UTF`,
/// `DOLLAR_ENDONLY` and `ALLOW_EMPTY_CLASS` and without `UCP`.
///
/// PCRE2 has no ECMAScript mode. With those options most of a pattern means the same in
/// both (`\d`, `\w` and `\b` are ASCII, `$` is the very end, `[]` never matches and `[^]`
/// always does); what differs is rewritten here, as plain code points and classes:
/// - `\s`/`\S`: ECMA's white space and line terminators (PCRE2's are ASCII only);
/// - `.`: anything but ECMA's four line terminators (PCRE2's: only `\n`);
/// - `\v` is the vertical tab (PCRE2: a class), `\0` NUL, `\cX` a control character,
///   `\xHH`, `\uHHHH` (surrogate pairs joined) and `\u{H…}` code points; `[\b]` backspace;
/// - `\p{…}`: General_Category's long names (`Letter`) become the short ones PCRE2 knows
///   (`L`), `gc=`/`sc=`/`scx=` forms become PCRE2's;
/// - a backreference `\N` becomes `\g{N}` (never an octal escape), and an unset group's
///   backreference matches empty (`MATCH_UNSET_BACKREF`, as ECMA has it);
/// - `[` inside a class is a literal (never a POSIX `[:alpha:]`), and a `{`, `}` or `]`
///   that starts nothing is a literal, as browsers read it.
///
/// PCRE2's own syntax that ECMA-262 lacks is refused rather than given PCRE2's meaning:
/// escapes such as `\h`, `\A`, `\z`, `\Q`, `\K`, group forms such as `(?i)`, `(?>…)`,
/// `(?|…)`, `(?R)`, and possessive quantifiers (`a++`). Escaped punctuation is itself.
///
/// Hand-written rather than a library: no C library translates ECMA-262, and the rules
/// are the short list above. Linear in the pattern's length.
struct ECMAPattern {
  /// The PCRE2 pattern.
  let pcre2: String

  /// Why a pattern is not ECMA-262 that recsh can match; `offset` counts Unicode scalars.
  struct SyntaxError: Error, Equatable, CustomStringConvertible {
    var problem: String
    var offset: Int
    var description: String { "\(problem) at offset \(offset)" }
  }

  /// Rewrites `source`; throws when it uses syntax ECMA-262 does not have.
  init(_ source: String) throws(SyntaxError) {
    var scanner = Scanner(Array(source.unicodeScalars))
    pcre2 = try scanner.translate()
  }

  /// ECMA-262's white space and line terminators, as PCRE2 class items.
  static let whiteSpaceItems =
    #"\x{09}-\x{0D}\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}"#
  /// Every code point but those, as class items (for `\S` inside a class, where PCRE2 has no
  /// way to subtract); surrogates, which no string holds, are left out.
  static let nonWhiteSpaceItems =
    #"\x{00}-\x{08}\x{0E}-\x{1F}\x{21}-\x{9F}\x{A1}-\x{167F}\x{1681}-\x{1FFF}\x{200B}-\x{2027}"#
    + #"\x{202A}-\x{202E}\x{2030}-\x{205E}\x{2060}-\x{2FFF}\x{3001}-\x{D7FF}\x{E000}-\x{FEFE}"#
    + #"\x{FF00}-\x{10FFFF}"#
  /// ECMA-262's `.`: anything but a line terminator.
  static let dot = #"[^\x{0A}\x{0D}\x{2028}\x{2029}]"#

  /// General_Category's long names (and the POSIX-like aliases Unicode gives them), by
  /// their loose form (lowercase, no `_`, `-` or spaces), with PCRE2's short names.
  static let generalCategories: [String: String] = {
    let pairs: [(String, String)] = [
      ("Letter", "L"), ("Cased_Letter", "L&"), ("LC", "L&"), ("Uppercase_Letter", "Lu"),
      ("Lowercase_Letter", "Ll"), ("Titlecase_Letter", "Lt"), ("Modifier_Letter", "Lm"),
      ("Other_Letter", "Lo"), ("Mark", "M"), ("Combining_Mark", "M"), ("Nonspacing_Mark", "Mn"),
      ("Spacing_Mark", "Mc"), ("Enclosing_Mark", "Me"), ("Number", "N"), ("Decimal_Number", "Nd"),
      ("digit", "Nd"), ("Letter_Number", "Nl"), ("Other_Number", "No"), ("Punctuation", "P"),
      ("punct", "P"), ("Connector_Punctuation", "Pc"), ("Dash_Punctuation", "Pd"),
      ("Open_Punctuation", "Ps"), ("Close_Punctuation", "Pe"), ("Initial_Punctuation", "Pi"),
      ("Final_Punctuation", "Pf"), ("Other_Punctuation", "Po"), ("Symbol", "S"), ("Math_Symbol", "Sm"),
      ("Currency_Symbol", "Sc"), ("Modifier_Symbol", "Sk"), ("Other_Symbol", "So"), ("Separator", "Z"),
      ("Space_Separator", "Zs"), ("Line_Separator", "Zl"), ("Paragraph_Separator", "Zp"), ("Other", "C"),
      ("Control", "Cc"), ("cntrl", "Cc"), ("Format", "Cf"), ("Surrogate", "Cs"), ("Private_Use", "Co"),
      ("Unassigned", "Cn"),
    ]
    return Dictionary(uniqueKeysWithValues: pairs.map { (loose($0.0), $0.1) })
  }()

  /// A property name as Unicode's loose matching compares it.
  static func loose(_ name: String) -> String {
    String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " })
  }

  /// `\p{…}`'s inside in PCRE2's words.
  static func property(_ text: String) -> String {
    let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { return generalCategories[loose(text)] ?? text }
    switch loose(parts[0]) {
    case "generalcategory", "gc": return generalCategories[loose(parts[1])] ?? parts[1]
    case "script", "sc": return "sc:" + parts[1]
    case "scriptextensions", "scx": return "scx:" + parts[1]
    default: return text
    }
  }
}

extension ECMAPattern {
  /// One pass over the pattern's scalars, writing PCRE2's text.
  fileprivate struct Scanner {
    let scalars: [Unicode.Scalar]
    var index = 0
    var output = ""
    /// Whether the last thing written was a quantifier (a `+` after it would be possessive).
    var afterQuantifier = false
    /// Whether the last thing written can be repeated: an atom, not the start, `(`, `|`,
    /// `^`, `$`, `\b` or `\B`. (ECMA-262 says "nothing to repeat" there; PCRE2 would read
    /// `(*` as one of its verbs, `(*UCP)` among them.)
    var canRepeat = false

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    func failure(_ problem: String, at offset: Int? = nil) -> SyntaxError {
      SyntaxError(problem: problem, offset: offset ?? index)
    }

    mutating func translate() throws(SyntaxError) -> String {
      while let scalar = current {
        let quantifier = afterQuantifier
        let repeatable = canRepeat
        afterQuantifier = false
        canRepeat = true
        switch scalar {
        case "\\":
          index += 1
          let piece = try escape(inClass: false)
          output += piece
          canRepeat = piece != "\\b" && piece != "\\B"
        case "[":
          index += 1
          try characterClass()
        case ".":
          index += 1
          output += ECMAPattern.dot
        case "(":
          index += 1
          try groupOpening()
          canRepeat = false
        case "|", "^", "$":
          output.unicodeScalars.append(scalar)
          index += 1
          canRepeat = false
        case "*", "+", "?":
          if quantifier && scalar != "?" { throw failure("a quantifier cannot follow a quantifier") }
          if !quantifier && !repeatable { throw failure("nothing to repeat before '\(scalar)'") }
          canRepeat = false
          if quantifier {
            // The lazy mark of the quantifier just written.
            output.unicodeScalars.append(scalar)
            index += 1
            if current == "+" || current == "*" || current == "?" {
              throw failure("a quantifier cannot follow a quantifier")
            }
            continue
          }
          output.unicodeScalars.append(scalar)
          index += 1
          afterQuantifier = true
        case "{":
          let start = index
          if let bound = braceQuantifier() {
            if quantifier { throw failure("a quantifier cannot follow a quantifier", at: start) }
            if !repeatable { throw failure("nothing to repeat before '{'", at: start) }
            output += bound
            afterQuantifier = true
            canRepeat = false
          } else {
            output += "\\{"
            index += 1
          }
        case "}", "]":
          output += "\\" + String(scalar)
          index += 1
        default:
          output.unicodeScalars.append(scalar)
          index += 1
        }
      }
      return output
    }

    /// `{n}`, `{n,}` or `{n,m}` at the cursor, consumed; `nil` (nothing consumed) otherwise.
    mutating func braceQuantifier() -> String? {
      var end = index + 1
      var text = "{"
      var digits = 0
      var comma = false
      while end < scalars.count {
        let scalar = scalars[end]
        if scalar == "}" {
          guard digits > 0, text.dropFirst().first != "," else { return nil }
          index = end + 1
          return text + "}"
        }
        if scalar == "," && !comma {
          comma = true
        } else if !("0"..."9").contains(scalar) {
          return nil
        } else {
          digits += 1
        }
        text.unicodeScalars.append(scalar)
        end += 1
      }
      return nil
    }

    /// After `(`: a plain group, or one of ECMA's `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`.
    mutating func groupOpening() throws(SyntaxError) {
      output += "("
      guard current == "?" else { return }
      let start = index - 1
      index += 1
      switch current {
      case ":", "=", "!":
        output += "?" + String(current ?? ":")
        index += 1
      case "<":
        index += 1
        if current == "=" || current == "!" {
          output += "?<" + String(current ?? "=")
          index += 1
        } else {
          let name = try groupName()
          output += "?<" + name
        }
      default:
        throw failure("'(?\(current.map(String.init) ?? "")' is not ECMA-262 group syntax", at: start)
      }
    }

    /// A group name up to and including `>`, consumed and returned.
    mutating func groupName() throws(SyntaxError) -> String {
      let start = index
      var name = ""
      while let scalar = current, scalar != ">" {
        guard scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        else { throw failure("a group name cannot hold '\(scalar)'") }
        name.unicodeScalars.append(scalar)
        index += 1
      }
      guard current == ">", index > start else {
        throw failure("a group name must be closed by '>'", at: start)
      }
      index += 1
      return name + ">"
    }

    /// From after `[` to after its `]`.
    mutating func characterClass() throws(SyntaxError) {
      let start = index - 1
      output += "["
      if current == "^" {
        output += "^"
        index += 1
      }
      while let scalar = current {
        switch scalar {
        case "]":
          output += "]"
          index += 1
          return
        case "\\":
          index += 1
          let piece = try escape(inClass: true)
          output += piece
        case "[":
          output += "\\["
          index += 1
        default:
          output.unicodeScalars.append(scalar)
          index += 1
        }
      }
      throw failure("a character class is not closed by ']'", at: start)
    }

    /// The escape after a `\` (consumed), in PCRE2's words.
    mutating func escape(inClass: Bool) throws(SyntaxError) -> String {
      let start = index - 1
      guard let scalar = current else { throw failure("a pattern cannot end with '\\'", at: start) }
      index += 1
      switch scalar {
      case "d", "D", "w", "W", "t", "n", "r", "f":
        return "\\" + String(scalar)
      case "b", "B":
        if !inClass { return "\\" + String(scalar) }
        if scalar == "b" { return Self.codePoint(0x08) }
        throw failure("'\\B' cannot stand in a character class", at: start)
      case "s": return inClass ? ECMAPattern.whiteSpaceItems : "[" + ECMAPattern.whiteSpaceItems + "]"
      case "S": return inClass ? ECMAPattern.nonWhiteSpaceItems : "[^" + ECMAPattern.whiteSpaceItems + "]"
      case "v": return Self.codePoint(0x0B)
      case "0":
        if let next = current, ("0"..."9").contains(next) {
          throw failure("'\\0' cannot be followed by a digit", at: start)
        }
        return Self.codePoint(0)
      case "c":
        guard let letter = current, letter.isASCII, letter.properties.isAlphabetic else {
          throw failure("'\\c' must be followed by a letter", at: start)
        }
        index += 1
        return Self.codePoint(letter.value % 32)
      case "x":
        guard let value = hexDigits(count: 2) else { throw failure("'\\x' needs two hex digits", at: start) }
        return Self.codePoint(value)
      case "u":
        return Self.codePoint(try unicodeEscape(start: start))
      case "p", "P":
        guard current == "{", let close = scalars[index...].firstIndex(of: "}") else {
          throw failure("'\\\(scalar)' needs a property in braces", at: start)
        }
        let name = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
        index = close + 1
        return "\\\(scalar){\(ECMAPattern.property(name))}"
      case "k" where !inClass:
        guard current == "<" else { throw failure("'\\k' needs a group name in '<…>'", at: start) }
        index += 1
        return "\\k<" + (try groupName())
      case "1"..."9" where !inClass:
        var number = String(scalar)
        while let digit = current, ("0"..."9").contains(digit) {
          number.unicodeScalars.append(digit)
          index += 1
        }
        return "\\g{\(number)}"
      case "-" where inClass:
        return "\\-"
      default:
        // ECMA's syntax characters, and (as browsers allow) other ASCII punctuation, stand
        // for themselves; PCRE2 reads an escaped non-alphanumeric character the same way.
        if scalar.isASCII && !scalar.properties.isAlphabetic && !("0"..."9").contains(scalar)
          && scalar.value >= 0x21 && scalar.value < 0x7F
        {
          return "\\" + String(scalar)
        }
        throw failure("'\\\(scalar)' is not an ECMA-262 escape", at: start)
      }
    }

    /// After `\u`: `HHHH` (a surrogate pair written as two escapes is one code point) or `{H…}`.
    mutating func unicodeEscape(start: Int) throws(SyntaxError) -> UInt32 {
      if current == "{" {
        index += 1
        var value: UInt32 = 0
        var digits = 0
        while let scalar = current, scalar != "}" {
          guard let digit = Self.hexValue(scalar), value <= 0x10FFFF else {
            throw failure("'\\u{…}' needs hex digits", at: start)
          }
          value = value * 16 + digit
          digits += 1
          index += 1
        }
        guard current == "}", digits > 0, value <= 0x10FFFF else {
          throw failure("'\\u{…}' needs a code point up to 10FFFF", at: start)
        }
        index += 1
        return try notSurrogate(value, start: start)
      }
      guard let high = hexDigits(count: 4) else { throw failure("'\\u' needs four hex digits", at: start) }
      if (0xD800...0xDBFF).contains(high), current == "\\", index + 1 < scalars.count,
        scalars[index + 1] == "u"
      {
        let saved = index
        index += 2
        if let low = hexDigits(count: 4), (0xDC00...0xDFFF).contains(low) {
          return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        }
        index = saved
      }
      return try notSurrogate(high, start: start)
    }

    func notSurrogate(_ value: UInt32, start: Int) throws(SyntaxError) -> UInt32 {
      guard !(0xD800...0xDFFF).contains(value) else {
        throw failure(
          "a lone surrogate (\\u\(String(value, radix: 16, uppercase: true))) matches no text", at: start)
      }
      return value
    }

    /// Exactly `count` hex digits at the cursor, consumed; `nil` (nothing consumed) otherwise.
    mutating func hexDigits(count: Int) -> UInt32? {
      guard index + count <= scalars.count else { return nil }
      var value: UInt32 = 0
      for scalar in scalars[index..<(index + count)] {
        guard let digit = Self.hexValue(scalar) else { return nil }
        value = value * 16 + digit
      }
      index += count
      return value
    }

    static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
      switch scalar {
      case "0"..."9": scalar.value - 0x30
      case "a"..."f": scalar.value - 0x61 + 10
      case "A"..."F": scalar.value - 0x41 + 10
      default: nil
      }
    }

    static func codePoint(_ value: UInt32) -> String {
      "\\x{" + String(value, radix: 16, uppercase: true) + "}"
    }
  }
}
