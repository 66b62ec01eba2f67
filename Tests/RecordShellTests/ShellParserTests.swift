import RecordKit
import Testing

@testable import RecordShell

/// Lines into `ShellCommand`s, through the command table: good input and bad,
/// with the exact messages.
@Suite struct ShellParserTests {
  static var context: ParseContext {
    var record = TaskRecord(id: "k3x9p2aa")
    record.custom = CustomFields([.init(key: "color", value: .string("red"))])
    return ParseContext(kind: TaskRecord.self, selected: record)
  }

  static let good: [(String, [ShellCommand])] = [
    ("new", [.new([])]),
    (
      "new title \"Buy milk\" priority 2",
      [.new([FieldAssignment("title", .quoted("Buy milk")), FieldAssignment("priority", .word("2"))])]
    ),
    ("delete", [.delete(ref: nil)]),
    ("delete @2", [.delete(ref: "@2")]),
    ("use k3x", [.use(ref: "k3x")]),
    ("set title 'raw \\n'", [.set([FieldAssignment("title", .quoted("raw \\n"))])]),
    (
      "set done true priority 0",
      [.set([FieldAssignment("done", .word("true")), FieldAssignment("priority", .word("0"))])]
    ),
    ("set color blue", [.set([FieldAssignment("color", .word("blue"))])]),
    ("set +size 3", [.set([FieldAssignment("size", .word("3"), createsCustomField: true)])]),
    ("set tags [a, \"b c\"]", [.set([FieldAssignment("tags", .list([.word("a"), .quoted("b c")]))])]),
    ("unset due", [.unset(field: "due")]),
    ("add tags urgent", [.listEdit(field: "tags", element: .word("urgent"), adding: true)]),
    ("remove tags \"at home\"", [.listEdit(field: "tags", element: .quoted("at home"), adding: false)]),
    ("show", [.show(ref: nil)]),
    ("show @1", [.show(ref: "@1")]),
    ("list", [.list(RecordQuery())]),
    (
      "ls done=false tags=work",
      [
        .list(
          RecordQuery(filters: [
            ListFilter(field: "done", value: .word("false")), ListFilter(field: "tags", value: .word("work")),
          ]))
      ]
    ),
    (
      "list title= \"a b\"",
      [.list(RecordQuery(filters: [ListFilter(field: "title", value: .quoted("a b"))]))]
    ),
    ("list shade=dark", [.list(RecordQuery(filters: [ListFilter(field: "shade", value: .word("dark"))]))]),
    (
      "list title=\"Buy milk\"",
      [.list(RecordQuery(filters: [ListFilter(field: "title", value: .quoted("Buy milk"))]))]
    ),
    ("begin", [.begin(name: nil)]),
    ("begin \"weekly review\"", [.begin(name: "weekly review")]),
    ("end", [.end]),
    ("rollback", [.rollback]),
    ("undo", [.undo(count: 1)]),
    ("undo 3", [.undo(count: 3)]),
    ("redo 2", [.redo(count: 2)]),
    ("history", [.history(all: false)]),
    ("history all", [.history(all: true)]),
    ("history clear", [.clearHistory]),
    ("goto 0", [.goto(0)]),
    ("earlier 10m", [.earlier(.seconds(600))]),
    ("later 2saves", [.later(.saves(2))]),
    ("earlier 3d", [.earlier(.seconds(259_200))]),
    ("save", [.save(file: nil, force: false)]),
    ("save! other.json", [.save(file: "other.json", force: true)]),
    ("open x.json", [.open(file: "x.json", force: false)]),
    ("open! x.json", [.open(file: "x.json", force: true)]),
    ("source plan.rsh", [.source(file: "plan.rsh")]),
    ("fields", [.fields]),
    ("help", [.help(command: nil)]),
    ("help set", [.help(command: "set")]),
    ("quit", [.quit(force: false)]),
    ("exit", [.quit(force: false)]),
    ("quit!", [.quit(force: true)]),
    ("use @1; set done true", [.use(ref: "@1"), .set([FieldAssignment("done", .word("true"))])]),
    ("  # only a comment", []),
    ("", []),
  ]

  @Test(arguments: good)
  func aValidLineParsesToItsCommands(line: String, expected: [ShellCommand]) throws {
    #expect(try ShellParser.parse(line, context: Self.context) == expected)
  }

  static let bad: [(String, String)] = [
    ("lsit", "unknown command 'lsit'; did you mean 'list'?"),
    ("frobnicate", "unknown command 'frobnicate' (type 'help' for the list)"),
    ("set titel x", "unknown field 'titel'; did you mean 'title'?"),
    ("set colr x", "unknown field 'colr'; did you mean 'color'?"),
    ("set", "'set' needs more: usage: set FIELD VALUE [FIELD VALUE]... [where FILTER...]"),
    ("set title", "'set title' needs a value"),
    ("set id x", "field 'id' is read-only"),
    ("use", "'use' needs more: usage: use REF"),
    ("use a b", "'use' does not take 'b'; usage: use REF"),
    ("show [a]", "'show' expects a name, found [a]"),
    ("undo 0", "'undo' expects a positive count, found '0'"),
    ("redo many", "'redo' expects a positive count, found 'many'"),
    ("history now", "'history' does not take 'now'; usage: history [all|clear|info]"),
    ("list done", "expected a filter FIELD OP VALUE (OP one of = != < <= > >= ~), found 'done'"),
    ("list titel=x", "unknown field 'titel'; did you mean 'title'?"),
    ("delete!", "'delete!' does not exist; '!' goes with save, export, open and quit"),
    ("add tags", "'add' needs more: usage: add FIELD VALUE [where FILTER...]"),
    ("open", "'open' needs more: usage: open[!] FILE"),
    ("\"set\" title x", "unknown command '\"set\"' (type 'help' for the list)"),
  ]

  @Test(arguments: bad)
  func aBadLineIsRefusedWithAClearMessage(line: String, message: String) {
    #expect(throws: ParseError.self) { try ShellParser.parse(line, context: Self.context) }
    do {
      _ = try ShellParser.parse(line, context: Self.context)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func aTokenizerErrorCarriesItsColumn() {
    do {
      _ = try ShellParser.parse("set title café \"open", context: Self.context)
      Issue.record("accepted an unterminated string")
    } catch {
      #expect(error.description.contains("column 16"), "\(error.description)")
    }
  }

  @Test func everyCommandInTheTableHasUsageSummaryAndExamples() {
    for spec in CommandTable.commands {
      #expect(spec.usage.hasPrefix(spec.name), "\(spec.name)")
      #expect(!spec.summary.isEmpty, "\(spec.name)")
      #expect(!spec.examples.isEmpty, "\(spec.name)")
      for example in spec.examples {
        let parsed = try? ShellParser.parse(example, context: Self.context)
        #expect(parsed?.count == 1, "example '\(example)' of \(spec.name) must parse")
      }
    }
  }
}
