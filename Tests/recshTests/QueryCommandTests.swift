import Foundation
import Testing

/// `list` with filters, `sort`, `limit` and `fields`; `count`; the bulk edits with undo,
/// redo, groups and the log; the output formats parsed back; `timing`. Through the built
/// binary, on a file whose expected answers are worked out by hand below.
@Suite struct QueryCommandTests {
  /// Five tasks. priority: a1 3, b2 1, c3 3, d4 5, e5 3. done: b2, e5. due: a1 2026-12-05,
  /// b2 null, c3 absent, d4 2026-12-01, e5 2027-01-10. tags: a1 [home], b2 [work, home],
  /// c3 [], d4 absent, e5 [work]. estimate (custom): c3 2.50, e5 1e2.
  static let file = """
    [
      {"id": "a1", "title": "Buy milk, bread", "done": false, "priority": 3, "tags": ["home"], "due": "2026-12-05"},
      {"id": "b2", "title": "Café \\"Zoë\\"", "done": true, "priority": 1, "tags": ["work", "home"], "due": null},
      {"id": "c3", "title": "line one\\nline two", "done": false, "priority": 3, "tags": [], "estimate": 2.50},
      {"id": "d4", "title": "Call Ann", "done": false, "priority": 5, "due": "2026-12-01"},
      {"id": "e5", "title": "tab\\there", "done": true, "priority": 3, "tags": ["work"], "due": "2027-01-10", "estimate": 1e2}
    ]
    """

  /// JSON text with sorted keys, to compare two values whatever their layout.
  static func canonical(_ value: Any) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
  }

  static func canonical(text: String) throws -> String {
    try canonical(try JSONSerialization.jsonObject(with: Data(text.utf8)))
  }

  static func folder() throws -> TempFolder {
    let folder = try TempFolder()
    try folder.write("t.json", file)
    return folder
  }

  /// The ids `list` prints in JSON Lines.
  static func ids(_ folder: TempFolder, _ command: String) throws -> [String] {
    let result = try folder.recsh(["--format", "jsonl", "-c", command, "t.json"])
    #expect(result.status == 0, "\(command): \(result.stderr)")
    return try result.stdout.split(separator: "\n").map { line in
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
      return try #require(object["id"] as? String)
    }
  }

  @Test(arguments: [
    ("list done=false", ["a1", "c3", "d4"]),
    ("list done!=false", ["b2", "e5"]),
    ("list priority=3", ["a1", "c3", "e5"]),
    ("list priority!=3", ["b2", "d4"]),
    ("list priority>3", ["d4"]),
    ("list priority>=3", ["a1", "c3", "d4", "e5"]),
    ("list priority<3", ["b2"]),
    ("list priority<=3 done=true", ["b2", "e5"]),
    ("list tags=home", ["a1", "b2"]),
    // Absent and an empty list hold no "home": `!=` matches them.
    ("list tags!=home", ["c3", "d4", "e5"]),
    ("list tags=null", ["d4"]),
    ("list due<2026-12-05", ["d4"]),
    ("list due<=2026-12-05", ["a1", "d4"]),
    ("list due>2026-12-01", ["a1", "e5"]),
    ("list due=null", ["b2", "c3"]),
    ("list due!=null", ["a1", "d4", "e5"]),
    // `!=` with a value matches null and absent ones.
    ("list due!=2026-12-05", ["b2", "c3", "d4", "e5"]),
    ("list title~MILK", ["a1"]),
    ("list title~zoë", ["b2"]),
    ("list title~\"LINE TWO\"", ["c3"]),
    ("list estimate>2", ["c3", "e5"]),
    ("list estimate<3", ["c3"]),
    ("list estimate=2.5", ["c3"]),
    ("list estimate=100", ["e5"]),
    ("list estimate=null", ["a1", "b2", "d4"]),
    ("list id~2", ["b2"]),
    ("list where done=true", ["b2", "e5"]),
    ("list \"title\"~call", ["d4"]),
    // Ties keep file order; null and absent last either way.
    ("list sort priority", ["b2", "a1", "c3", "e5", "d4"]),
    ("list sort -priority", ["d4", "a1", "c3", "e5", "b2"]),
    ("list sort due", ["d4", "a1", "e5", "b2", "c3"]),
    ("list sort -due", ["e5", "a1", "d4", "b2", "c3"]),
    ("list sort done sort -priority", ["d4", "a1", "c3", "e5", "b2"]),
    ("list sort done,-priority", ["d4", "a1", "c3", "e5", "b2"]),
    // By code point: "Buy" < "Café" < "Call" ("f" < "l") < "line" < "tab".
    ("list sort title", ["a1", "b2", "d4", "c3", "e5"]),
    ("list limit 2", ["a1", "b2"]),
    ("list limit 0", []),
    ("list priority=3 sort -due limit 2", ["e5", "a1"]),
  ])
  func filtersSortAndLimitPickTheRecords(_ command: String, _ expected: [String]) throws {
    #expect(try Self.ids(try Self.folder(), command) == expected, "\(command)")
  }

  @Test func countPrintsTheNumberAloneOrAsJSON() throws {
    let folder = try Self.folder()
    #expect(
      try folder.recsh(["-c", "count; count done=false; count tags=work priority=3", "t.json"]).stdout
        == "5\n3\n1\n")
    #expect(
      try folder.recsh(["--format", "json", "-c", "count due=null", "t.json"]).stdout == "{\"count\": 2}\n")
    #expect(
      try folder.recsh(["--format", "csv", "-c", "count priority>4", "t.json"]).stdout == "count\r\n1\n")
  }

  @Test func fieldsChoosesTheColumns() throws {
    let folder = try Self.folder()
    let table = try folder.recsh(["-c", "list done=true fields title,priority", "t.json"])
    #expect(
      table.stdout
        == "@   title       priority\n@2  Café \"Zoë\"  1\n@5  tab\\there   3\n(2 of 5 records)\n")
    let jsonl = try folder.recsh([
      "--format", "jsonl", "-c", "list fields priority,id,estimate limit 3", "t.json",
    ])
    // Absent values are left out; the order is the one asked for.
    #expect(
      jsonl.stdout == "{\"priority\":3,\"id\":\"a1\"}\n{\"priority\":1,\"id\":\"b2\"}\n"
        + "{\"priority\":3,\"id\":\"c3\",\"estimate\":2.50}\n")
    let limited = try folder.recsh(["-c", "list priority=3 limit 1 fields id", "t.json"])
    #expect(limited.stdout == "@   id\n@1  a1\n(1 of 3 matching, 5 records)\n")
  }

  /// JSON and JSON Lines print the records as the file holds them: key order and number
  /// spellings kept, every value equal to the file's.
  @Test func jsonFormatsGiveTheRecordsAsTheFileHoldsThem() throws {
    let folder = try Self.folder()
    let fileRecords = try #require(
      try JSONSerialization.jsonObject(with: Data(Self.file.utf8)) as? [[String: Any]])
    let json = try folder.recsh(["--format", "json", "-c", "list", "t.json"])
    let printed = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(try Self.canonical(printed) == Self.canonical(fileRecords))
    #expect(json.stdout.contains("\"estimate\": 2.50") && json.stdout.contains("\"estimate\": 1e2"))
    let lines = try folder.recsh(["--format", "jsonl", "-c", "list", "t.json"]).stdout.split(separator: "\n")
    #expect(lines.count == 5)
    for (line, record) in zip(lines, fileRecords) {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(try Self.canonical(object) == Self.canonical(record))
    }
    #expect(
      lines[4] == #"{"id":"e5","title":"tab\there","done":true,"priority":3,"tags":["work"],"#
        + #""due":"2027-01-10","estimate":1e2}"#)
    let shown = try folder.recsh(["--format", "jsonl", "-c", "show c3", "t.json"])
    #expect(
      shown.stdout
        == #"{"id":"c3","title":"line one\nline two","done":false,"priority":3,"tags":[],"estimate":2.50}"#
        + "\n")
  }

  /// CSV read back by an RFC 4180 reader written here: commas, quotes, line breaks and
  /// non-ASCII survive; lists are their compact JSON; null and absent are empty.
  @Test func csvReadsBackCell_forCell() throws {
    let folder = try Self.folder()
    let result = try folder.recsh(["--format", "csv", "-c", "list", "t.json"])
    let rows = try #require(Self.readCSV(result.stdout))
    #expect(rows[0] == ["id", "title", "detail", "done", "priority", "tags", "due", "estimate"])
    #expect(rows[1] == ["a1", "Buy milk, bread", "", "false", "3", "[\"home\"]", "2026-12-05", ""])
    #expect(rows[2] == ["b2", "Café \"Zoë\"", "", "true", "1", "[\"work\",\"home\"]", "", ""])
    #expect(rows[3] == ["c3", "line one\nline two", "", "false", "3", "[]", "", "2.50"])
    #expect(rows[5] == ["e5", "tab\there", "", "true", "3", "[\"work\"]", "2027-01-10", "1e2"])
    #expect(rows.count == 6)
    let tsv = try folder.recsh(["--format", "tsv", "-c", "list fields id,title", "t.json"])
    #expect(
      tsv.stdout
        == "id\ttitle\na1\tBuy milk, bread\nb2\tCafé \"Zoë\"\nc3\tline one\\nline two\nd4\tCall Ann\ne5\ttab\\there\n"
    )
  }

  /// RFC 4180: fields separated by commas, records by CRLF; a quoted field may hold
  /// commas, CRLF or LF, and `""` for a quote. `nil` when the text breaks the grammar.
  static func readCSV(_ text: String) -> [[String]]? {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var characters = Array(text.unicodeScalars)[...]
    // The executable ends its output with a newline.
    if characters.last == "\n" { characters = characters.dropLast() }
    var index = characters.startIndex
    while index < characters.endIndex {
      let scalar = characters[index]
      if scalar == "\"" && field.isEmpty {
        index += 1
        var closed = false
        while index < characters.endIndex {
          if characters[index] == "\"" {
            if index + 1 < characters.endIndex, characters[index + 1] == "\"" {
              field.unicodeScalars.append("\"")
              index += 2
              continue
            }
            closed = true
            index += 1
            break
          }
          field.unicodeScalars.append(characters[index])
          index += 1
        }
        guard closed else { return nil }
        guard index == characters.endIndex || characters[index] == "," || characters[index] == "\r" else {
          return nil
        }
        continue
      }
      switch scalar {
      case ",":
        row.append(field)
        field = ""
        index += 1
      case "\r":
        guard index + 1 < characters.endIndex, characters[index + 1] == "\n" else { return nil }
        row.append(field)
        rows.append(row)
        (row, field) = ([], "")
        index += 2
      case "\"", "\n": return nil
      default:
        field.unicodeScalars.append(scalar)
        index += 1
      }
    }
    row.append(field)
    rows.append(row)
    return rows
  }

  @Test func theCSVReaderRefusesWhatIsNotCSV() {
    #expect(Self.readCSV("a,\"b") == nil)
    #expect(Self.readCSV("a\nb") == nil)
    #expect(Self.readCSV("a,\"b\"\"c\"\r\nd") == [["a", "b\"c"], ["d"]])
  }

  /// Each bulk verb: what it changes (worked out by hand), its step's name, undo and redo,
  /// and the file after `save`.
  @Test func eachBulkVerbIsOneStepThatUndoTakesBack() throws {
    let folder = try Self.folder()
    let original = try folder.read("t.json")
    let script = """
      set priority 4 where done=false
      set priority 4 where done=false
      unset due where done=true
      add tags x where priority>=3
      remove tags home where done=false
      delete where tags=work
      history
      list fields id,priority,tags,due
      undo 5
      list fields id,priority,tags,due
      redo 5
      count
      undo 5
      save
      """
    let result = try folder.recsh(["--format", "jsonl", "t.json"], stdin: script + "\n")
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let history = lines.filter { $0.hasPrefix("{\"step\"") }
    #expect(
      history.map { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["name"] as? String ?? ""
      } == [
        "Set priority on 3 records", "Unset due on 2 records", "Add to tags on 4 records",
        "Remove from tags on 1 record", "Delete 2 records",
      ])
    let after = lines.filter { $0.hasPrefix("{\"id\"") }
    #expect(
      Array(after.prefix(3)) == [
        #"{"id":"a1","priority":4,"tags":["x"],"due":"2026-12-05"}"#,
        #"{"id":"c3","priority":4,"tags":["x"]}"#,
        #"{"id":"d4","priority":4,"tags":["x"],"due":"2026-12-01"}"#,
      ])
    #expect(
      Array(after.dropFirst(3).prefix(5)) == [
        #"{"id":"a1","priority":3,"tags":["home"],"due":"2026-12-05"}"#,
        #"{"id":"b2","priority":1,"tags":["work","home"],"due":null}"#,
        #"{"id":"c3","priority":3,"tags":[]}"#,
        #"{"id":"d4","priority":5,"due":"2026-12-01"}"#,
        #"{"id":"e5","priority":3,"tags":["work"],"due":"2027-01-10"}"#,
      ])
    #expect(lines.contains("{\"count\": 3}"))
    // Saved after undoing all: the file as it was (in recsh's layout).
    #expect(try Self.canonical(text: try folder.read("t.json")) == Self.canonical(text: original))
  }

  @Test func aBulkEditThatChangesNothingRecordsNothingAndSaysSo() throws {
    let folder = try Self.folder()
    let result = try folder.recsh(
      ["-c", "set priority 3 where priority=3; delete where priority>5; history", "t.json"])
    #expect(result.stdout == "no undo steps yet\n")
    #expect(
      result.stderr
        == "<command>:1: warning: no record changed (3 matched)\n<command>:1: warning: no record deleted (none matched)\n"
    )
    #expect(result.status == 0)
    #expect(try folder.read("t.json") == Self.file)
  }

  @Test func bulkEditsJoinGroupsAndRollBack() throws {
    let folder = try Self.folder()
    let script = """
      begin review
      set priority 0 where done=true
      add tags later where priority=0
      rollback
      count priority=0
      begin review
      set priority 0 where done=true
      add tags later where priority=0
      end
      history
      count tags=later
      undo
      count tags=later
      """
    let result = try folder.recsh(["t.json"], stdin: script + "\n")
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "0")
    #expect(lines.contains { $0.hasPrefix(" > 1  review ") })
    #expect(lines.suffix(3) == ["2", "Undid: review", "0"])
  }

  /// The log holds a bulk edit as one record, however many records it changed, and a
  /// later session undoes it from there.
  @Test func theLogHoldsABulkEditAsOneRecord() throws {
    let folder = try TempFolder()
    var records: [String] = []
    for index in 0..<500 {
      records.append(
        #"{"id": "r\#(index)", "title": "t\#(index)", "done": \#(index % 3 == 0), "priority": \#(index % 6)}"#
      )
    }
    try folder.write("t.json", "[\n" + records.joined(separator: ",\n") + "\n]\n")
    let original = try folder.read("t.json")
    let first = try folder.recsh(["-c", "set priority 5 where done=false; save", "t.json"])
    #expect(first.status == 0, "\(first.stderr)")
    let log = try Data(contentsOf: URL(fileURLWithPath: folder.logPath("t.json")))
    let text = String(decoding: log, as: UTF8.self)
    #expect(text.components(separatedBy: "{\"do\": ").count - 1 == 1)
    #expect(text.contains("\"op\": \"bulk\", \"count\": 250"))
    let second = try folder.recsh(["-c", "history; undo; save", "t.json"])
    #expect(second.stdout.contains("Set priority on 250 records"))
    #expect(try Self.canonical(text: try folder.read("t.json")) == Self.canonical(text: original))
  }

  @Test(arguments: [
    (
      "list priority>>3",
      "'priority>>3' has two operators; a filter is FIELD OP VALUE with one of = != < <= > >= ~"
    ),
    (
      "list due<tomorrow",
      "in the filter due<tomorrow: field 'due': expected an ISO 8601 date (2026-12-01) or date-time "
        + "(2026-12-01T09:30:00Z) or null, found tomorrow"
    ),
    ("list limit -1", "'limit' expects a count of 0 or more, found '-1'"),
    (
      "list sort nosuchfield",
      "unknown field 'nosuchfield': the kind does not declare it and no record has it (see 'fields')"
    ),
    ("list sort prioirty", "unknown field 'prioirty'; did you mean 'priority'?"),
    ("list fields id,,title", "'fields' expects field names separated by commas, found 'id,,title'"),
    ("list fields ,", "'fields' expects field names separated by commas, found ','"),
    ("set priority 9 where done=false", "field 'priority': expected an integer 0–5, found 9"),
    ("set priority 1 where", "'set … where' needs at least one filter, like done=false"),
    ("delete where", "'delete … where' needs at least one filter, like done=false"),
    (
      "list colour=red",
      "unknown field 'colour': the kind does not declare it and no record has it (see 'fields')"
    ),
    // A custom key some record holds is suggested too.
    ("list estimat>1", "unknown field 'estimat'; did you mean 'estimate'?"),
    ("set estimat 3 where done=true", "unknown field 'estimat'; did you mean 'estimate'?"),
    (
      "count done<true",
      "in the filter done<true: field 'done' (bool) has no order: '<' compares numbers, strings and dates; use '=' or '!='"
    ),
    (
      "list tags>a",
      "in the filter tags>a: field 'tags' (list of strings) has no order: '>' compares numbers, strings and dates; use '=' or '!='"
    ),
    (
      "list priority=high",
      "in the filter priority=high: field 'priority': expected an integer 0–5, found high"
    ),
    ("list due>=null", "in 'due>=null': only =, == and != compare with null"),
    ("list title=", "the filter 'title=' needs a value after its operator"),
    ("list done", "expected a filter FIELD OP VALUE (OP one of = != < <= > >= ~), found 'done'"),
    ("format xml", "unknown format 'xml'; the formats are table|json|jsonl|csv|tsv"),
    ("timing maybe", "'timing' expects on or off, found 'maybe'"),
    (
      "set title x where id=zz9 priority=7",
      "in the filter priority=7: field 'priority': expected an integer 0–5, found 7"
    ),
  ])
  func badQueriesAreRefusedAndChangeNothing(_ command: String, _ message: String) throws {
    let folder = try Self.folder()
    let result = try folder.recsh(["-c", command + "; save!", "t.json"])
    #expect(result.status == 1)
    #expect(result.stderr == "<command>:1: error: \(message)\n", "\(command)")
    #expect(result.stdout.isEmpty)
    #expect(try folder.read("t.json") == Self.file)
  }

  /// `assert` passes quietly, or fails naming the record, the filter and what the field
  /// holds; a script stops there and saves nothing.
  @Test func assertStopsAScriptAtTheFirstMismatch() throws {
    let folder = try Self.folder()
    let result = try folder.recsh(
      ["t.json"],
      stdin:
        "assert a1 priority=3 tags=home\nuse b2\nassert done=true due=null\nset priority 2 where done=false\n"
        + "assert c3 priority=3\nsave\n")
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "<stdin>:5: error: assert failed: record c3 does not match priority=3 (priority is 2)\n"
        + "warning: 1 unsaved change to \"t.json\" not saved\n")
    #expect(try folder.read("t.json") == Self.file)
    // (A fresh file: the session above left its unsaved step in the history log.)
    let other = try Self.folder()
    let unset = try other.recsh(["-c", "assert d4 tags=x", "t.json"])
    #expect(
      unset.stderr == "<command>:1: error: assert failed: record d4 does not match tags=x (tags is not set)\n"
    )
    let missing = try other.recsh(["-c", "assert a1", "t.json"])
    #expect(missing.stderr == "<command>:1: error: 'assert' needs at least one filter, like done=false\n")
    let noRecord = try other.recsh(["-c", "assert done=true", "t.json"])
    #expect(
      noRecord.stderr
        == "<command>:1: error: no record selected; 'use REF' selects one, or 'assert REF' names one\n")
  }

  /// `new` takes the key a record should have (as an exported script gives it); a key
  /// in use or an empty one is refused.
  @Test func newTakesAGivenKey() throws {
    let folder = try Self.folder()
    let result = try folder.recsh(
      [
        "-k", "-c", "new id 7f3a9c21 title Given; new id a1 title Twice; new id \"\" title Empty; save",
        "t.json",
      ])
    #expect(
      result.stderr
        == "<command>:1: error: a record with id 'a1' already exists\n"
        + "<command>:1: error: field 'id': expected a non-empty string, found \"\"\n")
    #expect(try Self.ids(folder, "list id=7f3a9c21 fields id") == ["7f3a9c21"])
    #expect(try Self.ids(folder, "list") == ["a1", "b2", "c3", "d4", "e5", "7f3a9c21"])
  }

  @Test func anUnknownFormatOptionExitsWithUsage() throws {
    let folder = try Self.folder()
    let result = try folder.recsh(["--format", "xml", "-c", "list", "t.json"])
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix("recsh: unknown format \"xml\"; the formats are table|json|jsonl|csv|tsv\n"))
  }

  @Test func timingPrintsEachCommandsWallTime() throws {
    let folder = try Self.folder()
    let result = try folder.recsh([
      "--timing", "-c", "count; set priority 2 where done=true; timing off; count", "t.json",
    ])
    #expect(result.stdout == "5\n5\n")
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    // Two timed commands, then `timing off` (not timed) and an untimed one; the last is
    // the end-of-input warning about unsaved changes.
    #expect(lines.count == 4, "\(result.stderr)")
    for line in lines.prefix(2) {
      #expect(line.wholeMatch(of: /time: [0-9]+\.[0-9]{3} s/) != nil, "\(line)")
    }
    let on = try folder.recsh(["-c", "timing; timing on; timing; format; format csv; format", "t.json"])
    #expect(on.stdout == "off\non\ntable\ncsv\n")
  }

  /// `history` and `fields` in the machine formats: objects with the table's columns.
  @Test func historyAndFieldsPrintAsObjects() throws {
    let folder = try Self.folder()
    let result = try folder.recsh([
      "--format", "json", "-c", "set done true where priority=5; history; fields", "t.json",
    ])
    let documents = result.stdout.components(separatedBy: "]\n[")
    #expect(documents.count == 2)
    let history = try #require(
      try JSONSerialization.jsonObject(with: Data((documents[0] + "]").utf8)) as? [[String: Any]])
    #expect(history.count == 1)
    #expect(history[0]["name"] as? String == "Set done on 1 record")
    #expect(history[0]["now"] as? Bool == true)
    #expect(history[0]["step"] as? Int == 1)
    let fields = try #require(
      try JSONSerialization.jsonObject(with: Data(("[" + documents[1]).utf8)) as? [[String: Any]])
    #expect(fields.map { $0["name"] as? String ?? "" }.prefix(3) == ["id", "title", "detail"])
    #expect(fields.first { $0["name"] as? String == "priority" }?["type"] as? String == "int 0–5")
  }
}
