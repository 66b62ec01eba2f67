import Testing

@testable import RecordKit
@testable import RecordShell

/// Tab completion as a pure function: a line with `|` at the cursor, what one
/// Tab offers, and the line after it.
@Suite struct CompleterTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var input: String
    /// The candidates listed, as they would be typed; `nil`: not checked.
    var candidates: [String]?
    /// The line after one Tab, `|` at the cursor.
    var result: String
    var fixture: Fixture

    init(_ input: String, _ candidates: [String]?, _ result: String? = nil, fixture: Fixture = .tasks) {
      self.input = input
      self.candidates = candidates
      self.result = result ?? input
      self.fixture = fixture
    }

    var testDescription: String { "\(fixture) \(input.debugDescription)" }
  }

  enum Fixture: Sendable {
    /// Tasks; `b2bbbbbb` is selected and has custom fields `color` and `cost`.
    case tasks
    /// Tasks with `a1aaaaaa` selected: no custom fields of its own.
    case tasksFirstSelected
    /// One contact, selected, with a custom `nickname`.
    case contacts
  }

  static let cases: [Case] = [
    // Command names, at the start and after `;`.
    Case("se|", ["set"], "set |"),
    Case("s|", ["save", "schema", "set", "show", "source"]),
    Case("un|", ["undo", "unset"]),
    Case("uns|", ["unset"], "unset |"),
    Case("l|", ["later", "list", "log", "ls"], "l|"),
    Case("history a|", ["all"], "history all |"),
    Case("list; se|", ["set"], "list; set |"),
    Case("show;hi|", ["history"], "show;history |"),
    Case("  fi|", ["fields"], "  fields |"),
    // Never file names where a command or a field goes (notes.txt exists).
    Case("no|", []),
    Case("set no|", []),
    Case("frobnicate |", []),
    Case("quit |", []),
    Case("undo |", []),
    // Fields after set, alternating with values.
    Case("set ti|", ["title"], "set title |"),
    Case("set |", ["color", "cost", "detail", "done", "due", "priority", "tags", "title"]),
    Case("set co|", ["color", "cost"]),
    Case("set col|", ["color"], "set color |"),
    Case("set do|", ["done"], "set done |"),
    Case("set done |", ["false", "true"]),
    Case("set done t|", ["true"], "set done true |"),
    Case("set due |", ["null"], "set due null |"),
    Case("set priority |", ["0", "1", "2", "3", "4", "5"]),
    Case("set title x done f|", ["false"], "set title x done false |"),
    Case("set title \"a b\" pr|", ["priority"], "set title \"a b\" priority |"),
    Case("set title |", []),
    Case("set title \"Buy mi|", []),
    Case("set color |", []),
    Case("set +co|", []),
    Case("new |", ["detail", "done", "due", "priority", "tags", "title"]),
    Case("new done fa|", ["false"], "new done false |"),
    Case("unset |", ["color", "cost", "due"]),
    Case("set |", ["detail", "done", "due", "priority", "tags", "title"], fixture: .tasksFirstSelected),
    // Nested paths and custom fields of contacts.
    Case("set a|", nil, "set address.|", fixture: .contacts),
    Case(
      "set address.|", ["address.city", "address.country", "address.street", "address.zip"],
      fixture: .contacts),
    Case("set address.ci|", ["address.city"], "set address.city |", fixture: .contacts),
    Case("set ni|", ["nickname"], "set nickname |", fixture: .contacts),
    Case("set birthday |", ["null"], "set birthday null |", fixture: .contacts),
    // Record ids where a REF goes.
    Case("use |", ["a1aaaaaa", "a1zzzzzz", "b2bbbbbb", "c3cccccc"]),
    Case("use a1|", ["a1aaaaaa", "a1zzzzzz"]),
    Case("show b|", ["b2bbbbbb"], "show b2bbbbbb |"),
    Case("delete c3|", ["c3cccccc"], "delete c3cccccc |"),
    Case("use @|", []),
    Case("use a1aaaaaa |", []),
    // List fields and their elements; odd ones quoted, control characters escaped.
    Case("add |", ["tags"], "add tags |"),
    Case("add tags |", ["\"\\u{1b}]0;x\\u{7}\"", "\"at home\"", "\"null\"", "home", "work"]),
    Case("add tags w|", ["work"], "add tags work |"),
    Case("add tags at|", ["\"at home\""], "add tags \"at home\" |"),
    Case("add tags \"at|", ["\"at home\""], "add tags \"at home\" |"),
    Case("add tags 'at|", ["'at home'"], "add tags 'at home' |"),
    Case("remove tags |", ["\"at home\"", "work"]),
    // File paths: folders end with `/` and no space; hidden names when asked for.
    Case("open ex|", ["example.json", "exams/"], "open exam|"),
    Case("open exams|", ["exams/"], "open exams/|"),
    Case("open exams/|", ["exams/2024.json"], "open exams/2024.json |"),
    Case("save! ex|", ["example.json", "exams/"], "save! exam|"),
    Case("save my|", ["\"my file.json\""], "save \"my file.json\" |"),
    Case("source .|", [".hidden"], "source .hidden |"),
    Case("source n|", ["notes.txt"], "source notes.txt |"),
    Case("open \"exams/|", ["\"exams/2024.json\""], "open \"exams/2024.json\" |"),
    // Command names after help.
    Case("help hi|", ["history"], "help history |"),
    Case("help re|", ["redo", "remove", "resolve"]),
    // list FIELD= filters.
    Case("list do|", ["done="], "list done=|"),
    Case("list d|", ["detail=", "done=", "due="]),
    Case("list done=|", ["done=false", "done=true"]),
    Case("list tags=w|", ["tags=work"], "list tags=work |"),
    Case("list col|", ["color="], "list color=|", fixture: .tasksFirstSelected),
    Case("list done=false pri|", ["priority="], "list done=false priority=|"),
    // The other operators, the clauses of `list`, and the filters of a bulk edit.
    Case(
      "list priority>=|",
      ["priority>=0", "priority>=1", "priority>=2", "priority>=3", "priority>=4", "priority>=5"]),
    Case("list due!=|", ["due!=null"], "list due!=null |"),
    Case("list due<|", []),
    Case("list done~t|", ["done~true"], "list done~true |"),
    Case("list so|", ["sort"], "list sort |"),
    Case("list sort pri|", ["priority"], "list sort priority |"),
    Case("list sort -pri|", ["-priority"], "list sort -priority |"),
    Case("list li|", ["limit"], "list limit |"),
    Case("list limit |", []),
    Case("list done=true fi|", ["fields"], "list done=true fields |"),
    Case("list fields id,ti|", ["id,title"], "list fields id,title |"),
    Case("list wh|", ["where"], "list where |"),
    Case("list where do|", ["done="], "list where done=|"),
    Case("count so|", []),
    Case("assert so|", []),
    Case("assert pri|", ["priority="], "assert priority=|"),
    Case("count do|", ["done="], "count done=|"),
    Case("set priority 5 wh|", ["where"], "set priority 5 where |"),
    Case("set priority 5 where do|", ["done="], "set priority 5 where done=|"),
    Case("set priority 5 where done=f|", ["done=false"], "set priority 5 where done=false |"),
    Case("unset due wh|", ["where"], "unset due where |"),
    Case("add tags x wh|", ["where"], "add tags x where |"),
    Case("add tags x where tags=w|", ["tags=work"], "add tags x where tags=work |"),
    Case("remove tags x where pri|", ["priority="], "remove tags x where priority=|"),
    Case("delete wh|", ["where"], "delete where |"),
    Case("delete where due=n|", ["due=null"], "delete where due=null |"),
    Case("format |", ["csv", "json", "jsonl", "table", "tsv"]),
    Case("format js|", ["json", "jsonl"], "format json|"),
    Case("timing o|", ["off", "on"], "timing o|"),
    // The cursor in the middle of a line: only what is before it counts.
    Case("set ti| done true", ["title"], "set title | done true"),
    Case("us|; list", ["use"], "use |; list"),
    // UTF-8 before the cursor.
    Case("set title \"café 日本\" pri|", ["priority"], "set title \"café 日本\" priority |"),
    Case("set title 日本; set do|", ["done"], "set title 日本; set done |"),
    Case("set title é| done true", []),
    // Nothing inside a comment or a list.
    Case("list # se|", []),
    Case("set tags [wo|", []),
  ]

  @Test(arguments: cases)
  func oneTabCompletes(_ test: Case) throws {
    let marker = try #require(test.input.unicodeScalars.firstIndex(of: "|"))
    let cursor = test.input.unicodeScalars.distance(from: test.input.unicodeScalars.startIndex, to: marker)
    let line = test.input.replacingOccurrences(of: "|", with: "")
    let result = Completer.complete(line: line, cursor: cursor, context: Self.context(test.fixture))
    if let expected = test.candidates {
      #expect(result.candidates.map(\.text) == expected)
    }
    let (after, newCursor) = result.applied(to: line)
    var marked = after.unicodeScalars
    marked.insert("|", at: marked.index(marked.startIndex, offsetBy: newCursor))
    #expect(String(marked) == test.result)
  }

  @Test func candidatesNeverHoldControlCharacters() {
    let result = Completer.complete(line: "add tags ", cursor: 9, context: Self.context(.tasks))
    #expect(!result.candidates.isEmpty)
    for candidate in result.candidates {
      #expect(!candidate.text.unicodeScalars.contains(where: TextCell.needsEscape))
    }
  }

  @Test func theWordIsMeasuredInUnicodeScalars() {
    let line = "set title 日本 do"
    let result = Completer.complete(line: line, cursor: 15, context: Self.context(.tasks))
    #expect(result.start == 13)
    #expect(result.end == 15)
    #expect(result.typed == "do")
  }

  @Test func aCursorPastTheEndIsTheEnd() {
    let result = Completer.complete(line: "set ti", cursor: 99, context: Self.context(.tasks))
    #expect(result.replacement == "title ")
  }

  @Test func aSessionBuildsTheContextForItsKind() throws {
    var session = try Session<TaskRecord>.open(path: nil).session
    _ = try session.run(line: "new title one; set +color red")
    let context = session.completionContext(listDirectory: { _ in [] })
    #expect(context.customFields == ["color"])
    #expect(context.fields.map(\.name) == ["id", "title", "detail", "done", "priority", "tags", "due"])
    #expect(context.recordIDs() == session.document.records.map(\.id))
    let result = Completer.complete(line: "set col", cursor: 7, context: context)
    #expect(result.replacement == "color ")
  }

  // MARK: - Fixtures

  static func context(_ fixture: Fixture) -> CompletionContext {
    switch fixture {
    case .tasks:
      CompletionContext(document: tasks, selected: tasks.record(withID: "b2bbbbbb"), listDirectory: files)
    case .tasksFirstSelected:
      CompletionContext(document: tasks, selected: tasks.record(withID: "a1aaaaaa"), listDirectory: files)
    case .contacts:
      CompletionContext(document: contacts, selected: contacts.records.first, listDirectory: files)
    }
  }

  static let tasks: Document<TaskRecord> = {
    var first = TaskRecord(id: "a1aaaaaa")
    first.title = "one"
    first.done = false
    first.tags = ["work", "home"]
    var second = TaskRecord(id: "b2bbbbbb")
    second.tags = ["work", "at home"]
    second.custom["color"] = .string("red")
    second.custom["cost"] = .number("3")
    var third = TaskRecord(id: "c3cccccc")
    third.tags = ["null", "\u{1b}]0;x\u{7}"]
    let fourth = TaskRecord(id: "a1zzzzzz")
    return (try? Document(records: [first, second, third, fourth])) ?? Document()
  }()

  static let contacts: Document<ContactRecord> = {
    var contact = ContactRecord(id: "k1kkkkkk")
    contact.name = "Ada"
    contact.address.city = "London"
    contact.custom["nickname"] = .string("ada")
    return (try? Document(records: [contact])) ?? Document()
  }()

  static let files: @Sendable (String) -> [CompletionContext.DirectoryEntry] = { folder in
    switch folder {
    case "":
      [
        .init("example.json"), .init("exams", isDirectory: true), .init("notes.txt"), .init("my file.json"),
        .init(".hidden"),
      ]
    case "exams/": [.init("2024.json")]
    default: []
    }
  }
}
