import RecordKit
import Testing

@testable import RecordShell

/// What the tokenizer accepts, and as what: one table per rule of `Tokenizer`.
@Suite struct TokenizerTests {
  /// One input line and the values of its commands.
  struct Accepted: Sendable, CustomTestStringConvertible {
    let input: String
    let commands: [[ValueToken]]
    var testDescription: String { String(reflecting: input) }

    /// A line that holds one command.
    init(_ input: String, _ values: ValueToken...) {
      self.input = input
      commands = [values]
    }

    init(_ input: String, commands: [[ValueToken]]) {
      self.input = input
      self.commands = commands
    }
  }

  static func values(of input: String) throws -> [[ValueToken]] {
    try Tokenizer.tokenize(input).map { $0.tokens.map(\.value) }
  }

  @Test(arguments: [
    Accepted("use k3x9p2aa", .word("use"), .word("k3x9p2aa")),
    Accepted("set priority 3", .word("set"), .word("priority"), .word("3")),
    Accepted("  show  ", .word("show")),
    Accepted("\tset\tdone\ttrue\t", .word("set"), .word("done"), .word("true")),
    Accepted("list\r", .word("list")),
    Accepted("set title café 日本", .word("set"), .word("title"), .word("café"), .word("日本")),
    Accepted("set title 😀👍🏽", .word("set"), .word("title"), .word("😀👍🏽")),
    Accepted("a,b", .word("a,b")),
    Accepted("list done=true", .word("list"), .word("done=true")),
    Accepted(#"C:\path\n"#, .word(#"C:\path\n"#)),
    Accepted("set due 2026-12-01T10:00:00Z", .word("set"), .word("due"), .word("2026-12-01T10:00:00Z")),
    Accepted("save! x.json", .word("save!"), .word("x.json")),
    Accepted("a#b", .word("a#b")),
    Accepted("@3", .word("@3")),
    Accepted("a\u{A0}b", .word("a\u{A0}b")),
  ])
  func bareWordsAreSplitAtWhitespace(_ line: Accepted) throws {
    #expect(try Self.values(of: line.input) == line.commands)
  }

  @Test(arguments: [
    Accepted(#"set title "Buy milk and bread""#, .word("set"), .word("title"), .quoted("Buy milk and bread")),
    Accepted(#""""#, .quoted("")),
    Accepted(#""null""#, .quoted("null")),
    Accepted(#""say \"hi\"""#, .quoted(#"say "hi""#)),
    Accepted(#""a\\b""#, .quoted(#"a\b"#)),
    Accepted(#""it\'s""#, .quoted("it's")),
    Accepted(#""one\ntwo\tthree\rfour\0""#, .quoted("one\ntwo\tthree\rfour\0")),
    Accepted(#""\u{1F600}""#, .quoted("😀")),
    Accepted(#""caf\u{E9} \u{65}\u{301}""#, .quoted("café e\u{301}")),
    Accepted(#""\u{10FFFF}\u{0}""#, .quoted("\u{10FFFF}\0")),
    Accepted(#""a;b # c [d, e]""#, .quoted("a;b # c [d, e]")),
    Accepted(#""日本 \"語\"""#, .quoted(#"日本 "語""#)),
    Accepted("\"line one\nline two\"", .quoted("line one\nline two")),
    Accepted("\"tab\there\"", .quoted("tab\there")),
    Accepted(#"'C:\new\table'"#, .quoted(#"C:\new\table"#)),
    Accepted(#"'say "hi"'"#, .quoted(#"say "hi""#)),
    Accepted("''", .quoted("")),
    Accepted("'a;b#c'", .quoted("a;b#c")),
    Accepted(#"'\u{1F600}'"#, .quoted(#"\u{1F600}"#)),
  ])
  func quotedStringsAreOneTokenWithTheirEscapesResolved(_ line: Accepted) throws {
    #expect(try Self.values(of: line.input) == line.commands)
  }

  @Test(arguments: [
    Accepted(#"list title="Buy milk""#, .word("list"), .quoted("title=Buy milk")),
    Accepted(#"ab"cd"ef"#, .quoted("abcdef")),
    Accepted(#""it"\'s'"#, .quoted(#"it\s"#)),
    Accepted(#"'it'"'"'s'"#, .quoted("it's")),
    Accepted(##""a"#"##, .quoted("a#")),
    Accepted(#"x"" y"#, .quoted("x"), .word("y")),
  ])
  func quotesGlueToAdjacentTextLikeInAPOSIXShell(_ line: Accepted) throws {
    #expect(try Self.values(of: line.input) == line.commands)
  }

  @Test(arguments: [
    Accepted(
      "set tags [a, \"b c\", d]", .word("set"), .word("tags"),
      .list([.word("a"), .quoted("b c"), .word("d")])),
    Accepted("[a,b,c]", .list([.word("a"), .word("b"), .word("c")])),
    Accepted("[ a , b ]", .list([.word("a"), .word("b")])),
    Accepted("[]", .list([])),
    Accepted("[ \t ]", .list([])),
    Accepted("[[]]", .list([.list([])])),
    Accepted(
      "[1, [2, [3]], 'x,y']", .list([.word("1"), .list([.word("2"), .list([.word("3")])]), .quoted("x,y")])),
    Accepted("[\"]\", '[', \";\"]", .list([.quoted("]"), .quoted("["), .quoted(";")])),
    Accepted("[a,\n b,\n c]", .list([.word("a"), .word("b"), .word("c")])),
    Accepted("[a, # first\n b]", .list([.word("a"), .word("b")])),
    Accepted("[café,日本]", .list([.word("café"), .word("日本")])),
    Accepted("[a#b]", .list([.word("a#b")])),
    Accepted("[x=\"y z\"]", .list([.quoted("x=y z")])),
    Accepted("[a] [b]", .list([.word("a")]), .list([.word("b")])),
  ])
  func listsHoldWordsStringsAndListsSeparatedByCommas(_ line: Accepted) throws {
    #expect(try Self.values(of: line.input) == line.commands)
  }

  @Test(arguments: [
    Accepted("new; set title x", commands: [[.word("new")], [.word("set"), .word("title"), .word("x")]]),
    Accepted("a;b", commands: [[.word("a")], [.word("b")]]),
    Accepted("a ;; ; b;", commands: [[.word("a")], [.word("b")]]),
    Accepted("a\nb", commands: [[.word("a")], [.word("b")]]),
    Accepted("a\r\nb\r\n", commands: [[.word("a")], [.word("b")]]),
    Accepted(
      #"set title "a; b"; list"#,
      commands: [[.word("set"), .word("title"), .quoted("a; b")], [.word("list")]]),
    Accepted(
      "set title 'x;y';undo", commands: [[.word("set"), .word("title"), .quoted("x;y")], [.word("undo")]]),
    Accepted(
      "set tags [a];list", commands: [[.word("set"), .word("tags"), .list([.word("a")])], [.word("list")]]),
  ])
  func semicolonsAndLineFeedsSeparateCommandsOutsideQuotes(_ line: Accepted) throws {
    #expect(try Self.values(of: line.input) == line.commands)
  }

  @Test(arguments: [
    Accepted("# a comment", commands: []),
    Accepted("   # indented comment", commands: []),
    Accepted("show # the selected one", .word("show")),
    Accepted("show #", .word("show")),
    Accepted("new;# then nothing; list", .word("new")),
    Accepted("a # one\nb", commands: [[.word("a")], [.word("b")]]),
    Accepted("set title a#b", .word("set"), .word("title"), .word("a#b")),
    Accepted("set title \"#1\"", .word("set"), .word("title"), .quoted("#1")),
    Accepted("set title '# not a comment'", .word("set"), .word("title"), .quoted("# not a comment")),
    Accepted("# \"unclosed [ and ] and ; are ignored", commands: []),
  ])
  func aHashStartsACommentOnlyWhereAWordCouldStart(_ line: Accepted) throws {
    #expect(try Self.values(of: line.input) == line.commands)
  }

  @Test(arguments: ["", " ", "\t\t", ";", " ; ;; ", "\n", "\r\n", "\n\n;\n"])
  func blankInputGivesNoCommands(_ input: String) throws {
    #expect(try Tokenizer.tokenize(input).isEmpty)
  }

  /// Each token as `LINE:COLUMN:TEXT`, commands separated by ` | `.
  static func positions(of input: String) throws -> String {
    try Tokenizer.tokenize(input).map { command in
      command.tokens.map { "\($0.line):\($0.column):\($0.value)" }.joined(separator: " ")
    }.joined(separator: " | ")
  }

  @Test(arguments: [
    ("set title x", "1:1:set 1:5:title 1:11:x"),
    ("  a\tb", "1:3:a 1:5:b"),
    ("set title café \"x\"", "1:1:set 1:5:title 1:11:café 1:16:\"x\""),
    ("日本 語 x", "1:1:日本 1:4:語 1:6:x"),
    ("😀 \"é\" 'ü' [ä] z", "1:1:😀 1:3:\"é\" 1:7:\"ü\" 1:11:[ä] 1:15:z"),
    ("a;b ; c", "1:1:a | 1:3:b | 1:7:c"),
    ("\"x\ny\" z", "1:1:\"x\ny\" 2:4:z"),
    ("set tags [a,\n é] x\ny", "1:1:set 1:5:tags 1:10:[a, é] 2:5:x | 3:1:y"),
    ("\"\\u{1F600}\" x", "1:1:\"😀\" 1:13:x"),
  ])
  func columnsCountUnicodeScalarsFromTheStartOfTheLine(input: String, expected: String) throws {
    #expect(try Self.positions(of: input) == expected)
  }

  @Test(arguments: [
    ("set title \"Buy milk", true),
    ("set title 'Buy milk", true),
    ("set tags [a, b", true),
    ("set tags [a, \"b", true),
    ("set tags [[a], [b]", true),
    ("set tags [a, # first", true),
    ("set detail \"one\ntwo", true),
    ("new; set title \"x", true),
    ("set title \"a\\", true),
    ("set title \"\\u{1F6", true),
    ("set title \"done\"", false),
    ("set tags [a]", false),
    ("", false),
    ("# \"not open", false),
    ("a#\"b", true),
    ("set tags [a]]", false),
    ("set tags [a; \"b", false),
    ("set title \"\\q", false),
  ])
  func continuationIsNeededOnlyInsideAnOpenQuoteOrList(input: String, needsMore: Bool) {
    #expect(Tokenizer.needsContinuation(input) == needsMore)
  }

  @Test func aContinuedLineJoinedWithALineFeedTokenizes() throws {
    let first = "set detail \"one"
    #expect(Tokenizer.needsContinuation(first))
    #expect(
      try Self.values(of: first + "\n" + "two\"") == [[.word("set"), .word("detail"), .quoted("one\ntwo")]])
  }

  @Test(arguments: [
    "use k3x9p2aa", "set title \"Buy milk\"; list", "set tags [a, 'b c']\n#x\nshow", "café 日本 😀",
  ])
  func bytesTokenizeLikeTheString(_ input: String) throws {
    let fromBytes = try Array(input.utf8).withUnsafeBufferPointer { (bytes) throws(TokenizerError) in
      try Tokenizer.tokenize(utf8: bytes)
    }
    #expect(fromBytes == (try Tokenizer.tokenize(input)))
  }
}
