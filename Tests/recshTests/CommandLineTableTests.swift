import RecordShell
import Testing

@testable import recsh

/// The command lines read as `CommandLineTable` declares them. Every option of every command
/// line is listed in `examples`: a new option without one fails
/// `everyOptionOfEveryCommandLineHasAnExample`.
@Suite struct CommandLineTableTests {
  /// An argument list that gives the option, what the parser must keep for it, and (for the
  /// shell) the options the shell then runs with.
  struct Example: Sendable {
    var arguments: [String]
    var values: [[UInt8]]
    var shell: (@Sendable (inout Options) -> Void)?
  }

  static let flag: [[UInt8]] = [[]]

  /// Per command line (`nil`: the shell), per option.
  static let examples: [String?: [OptionKey: [Example]]] = [
    nil: [
      .command: [
        Example(arguments: ["-c", "list"], values: [Array("list".utf8)]) {
          $0.commands = [Array("list".utf8)]
        },
        Example(arguments: ["--command", "a", "-c", "b"], values: [[97], [98]]) {
          $0.commands = [[97], [98]]
        },
        Example(arguments: ["--command=x=1"], values: [Array("x=1".utf8)]) {
          $0.commands = [Array("x=1".utf8)]
        },
      ],
      .script: [
        Example(arguments: ["-s", "w.rsh"], values: [Array("w.rsh".utf8)]) { $0.script = "w.rsh" },
        Example(arguments: ["--script=w.rsh"], values: [Array("w.rsh".utf8)]) { $0.script = "w.rsh" },
      ],
      .keepGoing: [
        Example(arguments: ["-k"], values: flag) { $0.keepGoing = true },
        Example(arguments: ["--keep-going"], values: flag) { $0.keepGoing = true },
      ],
      .echo: [
        Example(arguments: ["-e"], values: flag) { $0.echo = true },
        Example(arguments: ["--echo"], values: flag) { $0.echo = true },
      ],
      .quiet: [
        Example(arguments: ["-q"], values: flag) { $0.quiet = true },
        Example(arguments: ["--quiet"], values: flag) { $0.quiet = true },
      ],
      .kind: [
        Example(arguments: ["--kind", "contact"], values: [Array("contact".utf8)]) { $0.kind = "contact" },
        Example(arguments: ["--kind=task"], values: [Array("task".utf8)]) { $0.kind = "task" },
      ],
      .schema: [
        Example(arguments: ["--schema", "b.schema.json"], values: [Array("b.schema.json".utf8)]) {
          $0.schema = "b.schema.json"
        }
      ],
      .undoLimit: [
        Example(arguments: ["--undo-limit", "0"], values: [[48]]) { $0.undoLimit = 0 },
        Example(arguments: ["--undo-limit=5", "--undo-limit", "7"], values: [[55]]) { $0.undoLimit = 7 },
      ],
      .recover: [Example(arguments: ["--recover"], values: flag) { $0.recover = true }],
      .discardJournal: [Example(arguments: ["--discard-journal"], values: flag) { $0.discardJournal = true }],
      .noUndoFile: [Example(arguments: ["--no-undo-file"], values: flag) { $0.keepsHistory = false }],
      .format: [
        Example(arguments: ["--format", "jsonl"], values: [Array("jsonl".utf8)]) { $0.format = .jsonl },
        Example(arguments: ["--format=csv"], values: [Array("csv".utf8)]) { $0.format = .csv },
      ],
      .timing: [Example(arguments: ["--timing"], values: flag) { $0.timing = true }],
      .layout: [
        Example(arguments: ["--layout", "csv"], values: [Array("csv".utf8)]) { $0.layout = .csv },
        Example(arguments: ["--layout=jsonl"], values: [Array("jsonl".utf8)]) { $0.layout = .lines },
      ],
      .stateDir: [
        Example(arguments: ["--state-dir", "/s"], values: [Array("/s".utf8)]) { $0.stateDir = "/s" }
      ],
      .help: [
        Example(arguments: ["-h"], values: flag) { $0.help = true },
        Example(arguments: ["--help"], values: flag) { $0.help = true },
      ],
      .version: [Example(arguments: ["--version"], values: flag) { $0.version = true }],
    ],
    "diff": [
      .format: [Example(arguments: ["--format", "json", "a", "b"], values: [Array("json".utf8)])],
      .kind: [Example(arguments: ["a", "b", "--kind=contact"], values: [Array("contact".utf8)])],
      .schema: [Example(arguments: ["--schema", "s.json", "a", "b"], values: [Array("s.json".utf8)])],
      .help: [Example(arguments: ["--help"], values: flag), Example(arguments: ["-h"], values: flag)],
    ],
    "merge": [
      .path: [Example(arguments: ["--path", "t.json", "b", "o", "t"], values: [Array("t.json".utf8)])],
      .kind: [Example(arguments: ["--kind", "task", "b", "o", "t"], values: [Array("task".utf8)])],
      .schema: [Example(arguments: ["b", "o", "t", "--schema=s.json"], values: [Array("s.json".utf8)])],
      .output: [Example(arguments: ["b", "o", "t", "-o", "out.json"], values: [Array("out.json".utf8)])],
      .stateDir: [Example(arguments: ["--state-dir", "/s", "b", "o", "t"], values: [Array("/s".utf8)])],
      .help: [Example(arguments: ["--help"], values: flag)],
    ],
  ]

  @Test func everyOptionOfEveryCommandLineHasAnExample() {
    for spec in CommandLineTable.all {
      let listed = Self.examples[spec.name] ?? [:]
      for option in spec.options {
        #expect(listed[option.key] != nil, "\(spec.synopsis): \(option.displayName) has no example here")
      }
      // And no example names an option the command line does not have.
      for key in listed.keys {
        #expect(spec.option(key) != nil, "\(spec.synopsis) has no option \(key)")
      }
    }
  }

  @Test func everyExampleReadsAsItsOptionSays() throws {
    for spec in CommandLineTable.all {
      for (key, examples) in Self.examples[spec.name] ?? [:] {
        for example in examples {
          let parsed = try ParsedCommandLine.parse(example.arguments.map { Array($0.utf8) }, as: spec)
          #expect(parsed.values[key] == example.values, "\(spec.synopsis): \(example.arguments)")
          #expect(parsed.values.count == 1, "\(example.arguments) gave \(parsed.values.keys)")
          if spec.name == nil {
            var expected = Options()
            example.shell?(&expected)
            #expect(example.shell != nil)
            #expect(Options(parsed) == expected, "\(example.arguments)")
          }
        }
      }
    }
  }

  /// Every spelling of every option (both names, and `--name=value` for a long one that
  /// takes a value) is read, on every command line.
  @Test func everySpellingOfEveryOptionIsRead() throws {
    for spec in CommandLineTable.all {
      let operands = spec.name == "diff" ? ["a", "b"] : spec.name == "merge" ? ["b", "o", "t"] : []
      for option in spec.options {
        let value = option.value.map { value -> String in
          if case .choice(_, _, let names, _) = value { return names[0] }
          if case .count = value { return "3" }
          return "v"
        }
        var forms = option.spellings.map { [$0] + (value.map { [$0] } ?? []) }
        if let long = option.long, let value { forms.append(["--\(long)=\(value)"]) }
        for form in forms {
          let parsed = try ParsedCommandLine.parse((form + operands).map { Array($0.utf8) }, as: spec)
          #expect(parsed.values[option.key] == [Array((value ?? "").utf8)], "\(form)")
          #expect(parsed.operands == operands, "\(form)")
        }
      }
    }
  }

  @Test func operandsAndOptionsComeInAnyOrderAndDashDashEndsTheOptions() throws {
    let shell = CommandLineTable.shell
    let first = try Options.parse(["tasks.json", "-c", "list"])
    let second = try Options.parse(["-c", "list", "tasks.json"])
    #expect(first == second)
    #expect(first.file == "tasks.json")
    #expect(try ParsedCommandLine.parse([Array("--".utf8), Array("-c".utf8)], as: shell).operands == ["-c"])
    #expect(try ParsedCommandLine.parse([Array("-".utf8)], as: shell).operands == ["-"])
    let clustered = try Options.parse(["-keq"])
    #expect(clustered.keepGoing && clustered.echo && clustered.quiet)
  }

  /// A `-c` text is kept as its bytes, even when they are not UTF-8.
  @Test func commandTextsKeepTheirBytes() throws {
    let parsed = try ParsedCommandLine.parse([Array("-c".utf8), [0x6C, 0xFF]], as: CommandLineTable.shell)
    #expect(parsed.all(.command) == [[0x6C, 0xFF]])
    let inline = try ParsedCommandLine.parse([Array("--command=".utf8) + [0xFE]], as: CommandLineTable.shell)
    #expect(inline.all(.command) == [[0xFE]])
  }

  static let errors: [(String?, [String], CommandLineError, String)] = [
    (nil, ["--bogus"], .unknownOption(token: "--bogus"), "unknown option \"--bogus\""),
    (nil, ["-x"], .unknownOption(token: "-x"), "unknown option \"-x\""),
    (nil, ["-kx"], .unknownFlag("x", cluster: "-kx"), "unknown option -x in \"-kx\""),
    (nil, ["-kc"], .unknownFlag("c", cluster: "-kc"), "unknown option -c in \"-kc\""),
    (nil, ["-c"], .missingValue(option: "-c"), "-c needs a value"),
    (nil, ["a.json", "--state-dir"], .missingValue(option: "--state-dir"), "--state-dir needs a value"),
    (
      nil, ["--echo=yes"], .unexpectedValue(option: "--echo", token: "--echo=yes"),
      "--echo takes no value, but was given \"--echo=yes\""
    ),
    (nil, ["-s", "a", "-s", "b"], .givenTwice(option: "-s"), "-s is given twice"),
    (
      nil, ["--kind", "book"],
      .unknownChoice(option: "--kind", noun: "kind", value: "book", listed: "task and contact"),
      "unknown kind \"book\"; the kinds are task and contact"
    ),
    (
      nil, ["--format", "xml"],
      .unknownChoice(option: "--format", noun: "format", value: "xml", listed: "table|json|jsonl|csv|tsv"),
      "unknown format \"xml\"; the formats are table|json|jsonl|csv|tsv"
    ),
    (
      nil, ["--undo-limit", "-1"],
      .notACount(option: "--undo-limit", meaning: "a number of steps (0: no limit)", value: "-1"),
      "--undo-limit needs a number of steps (0: no limit), not \"-1\""
    ),
    (
      nil, ["--undo-limit=ten"],
      .notACount(option: "--undo-limit", meaning: "a number of steps (0: no limit)", value: "ten"),
      "--undo-limit needs a number of steps (0: no limit), not \"ten\""
    ),
    (
      nil, ["--recover", "--discard-journal"], .exclusive("--recover", "--discard-journal"),
      "--recover and --discard-journal cannot be used together"
    ),
    (
      nil, ["--schema", "s", "--kind", "task"], .exclusive("--kind", "--schema"),
      "--kind and --schema cannot be used together"
    ),
    (nil, ["-s", "x", "-c", "list"], .exclusive("-c", "-s"), "-c and -s cannot be used together"),
    (nil, ["a", "b"], .secondFile(first: "a", second: "b"), "one data file at most; got \"a\" and \"b\""),
    (
      "diff", ["a"], .operands(subcommand: "diff", expected: "two files (or git's seven arguments)"),
      "'diff' takes two files (or git's seven arguments)"
    ),
    ("diff", ["a", "b", "--kind"], .missingValue(option: "--kind"), "--kind needs a value"),
    ("diff", ["a", "b", "-o", "c"], .unknownOption(token: "-o"), "unknown option \"-o\""),
    (
      "diff", ["--kind", "task", "--schema", "s", "a", "b"], .exclusive("--kind", "--schema"),
      "--kind and --schema cannot be used together"
    ),
    (
      "merge", ["a", "b"], .operands(subcommand: "merge", expected: "three files: BASE OURS THEIRS"),
      "'merge' takes three files: BASE OURS THEIRS"
    ),
    ("merge", ["a", "b", "c", "-o"], .missingValue(option: "-o"), "-o needs a value"),
    (
      "merge", ["--format", "json", "a", "b", "c"], .unknownOption(token: "--format"),
      "unknown option \"--format\""
    ),
  ]

  @Test(arguments: errors)
  func badUsageIsATypedErrorWithItsMessage(
    _ name: String?, _ arguments: [String], _ expected: CommandLineError, _ message: String
  ) {
    let spec = name.flatMap(CommandLineTable.subcommand(named:)) ?? CommandLineTable.shell
    #expect(throws: expected) { try ParsedCommandLine.parse(arguments.map { Array($0.utf8) }, as: spec) }
    #expect(expected.description == message)
  }

  /// Through the binary: exit 2, the message, and the shell's pointer to its help or a
  /// subcommand's usage line.
  @Test func badUsageExitsTwoWithTheMessage() throws {
    let shell = try RecshBinary.run(["--kind", "book"])
    #expect(shell.status == 2)
    #expect(
      shell.stderr == "recsh: unknown kind \"book\"; the kinds are task and contact\nTry 'recsh --help'.\n")
    #expect(shell.stdout.isEmpty)
    let diff = try RecshBinary.run(["diff", "--format", "xml", "a", "b"])
    #expect(diff.status == 2)
    #expect(
      diff.stderr == "recsh: unknown format \"xml\"; the formats are table|json|jsonl|csv|tsv\n"
        + CommandLineTable.diff.usageLine + "\n")
    let merge = try RecshBinary.run(["merge", "a", "b"])
    #expect(merge.status == 2)
    #expect(
      merge.stderr == "recsh: 'merge' takes three files: BASE OURS THEIRS\n"
        + CommandLineTable.merge.usageLine + "\n")
  }

  /// Each command line's `--help` names every option with its value and says its help.
  @Test func helpListsEveryOption() throws {
    for spec in CommandLineTable.all {
      let arguments = (spec.name.map { [$0] } ?? []) + ["--help"]
      let result = try RecshBinary.run(arguments)
      #expect(result.status == 0, "\(arguments)")
      #expect(result.stderr.isEmpty)
      let help = result.stdout
      #expect(help.hasPrefix("usage: " + (spec.name.map { "recsh \($0)" } ?? "recsh [options] [FILE]")))
      let flowing = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      for option in spec.options {
        #expect(help.contains(CommandLineHelp.label(of: option)), "\(arguments): \(option.displayName)")
        let words = option.help.split(separator: " ").joined(separator: " ")
        #expect(flowing.contains(words), "\(arguments): the help of \(option.displayName)")
      }
    }
  }

  /// `--help` is wrapped to the width as `help` is: no line longer than it, except a line of
  /// the examples or a word that cannot be broken.
  @Test(arguments: [40, 60, 80, 120])
  func helpIsWrappedToTheWidth(_ width: Int) {
    for spec in CommandLineTable.all {
      let text = CommandLineHelp.text(of: spec, width: width)
      let fixed = spec.epilogue.flatMap { block -> [String] in
        if case .lines(let lines) = block { return lines }
        return []
      }
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) where line.count > width {
        let unbreakable = !line.drop(while: { $0 == " " }).contains(" ")
        #expect(fixed.contains(String(line)) || unbreakable, "\(width): \(line)")
      }
    }
    #expect(
      CommandLineHelp.text(of: CommandLineTable.shell, width: 60)
        != CommandLineHelp.text(of: CommandLineTable.shell, width: 80))
  }
}
