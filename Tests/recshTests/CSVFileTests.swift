import Foundation
import Testing

/// CSV and TSV files through the binary: the bytes a save leaves, the errors, conversions,
/// the layout option and git's merge driver.
@Suite struct CSVFileTests {
  /// A `;`-delimited file with a byte order mark, CRLF line ends, quoted cells, an empty
  /// line and a cell with a line break.
  static let semicolons: [UInt8] =
    [0xEF, 0xBB, 0xBF]
    + Array(
      ("id;title;done;priority;zip\r\n" + "t1;\"Buy milk; eggs\";false;3;02134\r\n"
        + "t2;Call \"Bob\";true;1;12345\r\n" + "\r\n" + "t3;\"multi\r\nline\";false;;00001\r\n").utf8)

  static func write(_ bytes: [UInt8], _ name: String, in folder: TempFolder) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: folder.path(name)))
  }

  static func bytes(_ name: String, in folder: TempFolder) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: folder.path(name))))
  }

  @Test func aSetCellChangesOnlyItsBytesAndDiffShowsOneChange() throws {
    let folder = try TempFolder()
    try Self.write(Self.semicolons, "t.csv", in: folder)
    let result = try folder.recsh(["t.csv", "-c", "use t2; set priority 5; diff; save"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == "~ t2  priority: 1 → 5\n(1 record: 0 added, 0 deleted, 1 changed)\n",
      "\(result.stdout)")
    let expected = String(decoding: Self.semicolons, as: UTF8.self).replacingOccurrences(
      of: "t2;Call \"Bob\";true;1;", with: "t2;Call \"Bob\";true;5;")
    #expect(try Self.bytes("t.csv", in: folder) == Array(expected.utf8))
  }

  @Test func aQuotedCellWithALineBreakIsEditedAndStaysQuoted() throws {
    let folder = try TempFolder()
    try Self.write(Self.semicolons, "t.csv", in: folder)
    let result = try folder.recsh(["t.csv", "-c", "use t3; set title 'two\nlines, now'; save"])
    #expect(result.status == 0, "\(result.stderr)")
    let expected = String(decoding: Self.semicolons, as: UTF8.self).replacingOccurrences(
      of: "\"multi\r\nline\"", with: "\"two\nlines, now\"")
    #expect(try Self.bytes("t.csv", in: folder) == Array(expected.utf8))
    // A cell set to text that needs no quotes loses them only where it had none.
    let plain = try folder.recsh(["t.csv", "-c", "use t3; set title plain; use t2; set title Bob; save"])
    #expect(plain.status == 0, "\(plain.stderr)")
    let again = String(decoding: try Self.bytes("t.csv", in: folder), as: UTF8.self)
    #expect(again.contains("t3;\"plain\";false;;00001\r\n"), "\(again)")
    #expect(again.contains("t2;Bob;true;1;12345\r\n"), "\(again)")
  }

  @Test func undoingEveryEditGivesBackTheBytesAndANewFieldIsAColumnUntilUndone() throws {
    let folder = try TempFolder()
    try Self.write(Self.semicolons, "t.csv", in: folder)
    let added = try folder.recsh(["t.csv", "-c", "use t1; set +color 'red; blue'; save"])
    #expect(added.status == 0, "\(added.stderr)")
    let withColumn = String(decoding: try Self.bytes("t.csv", in: folder), as: UTF8.self)
    #expect(
      withColumn
        == "\u{FEFF}id;title;done;priority;zip;color\r\nt1;\"Buy milk; eggs\";false;3;02134;\"red; blue\"\r\n"
        + "t2;Call \"Bob\";true;1;12345;\r\n\r\nt3;\"multi\r\nline\";false;;00001;\r\n", "\(withColumn)")
    let undone = try folder.recsh(["t.csv", "-c", "undo; use t2; set done false; set title x; undo 2; save"])
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(try Self.bytes("t.csv", in: folder) == Self.semicolons)
  }

  /// The history lasts for a table as for JSON: a change made outside recsh becomes a step,
  /// and undoing every step in a later session gives back the bytes first opened.
  /// A one-column TSV has no tab to tell it from a CSV by: its log's copy is read as the file's
  /// layout says.
  @Test(arguments: [
    ("t.csv", "id,title\na,\"x, y\"\nb,two\n", "use b; set title deux; save", "c,three\n"),
    ("t.tsv", "id\ttitle\na\tx\\ty\nb\ttwo\n", "use b; set title deux; save", "c\tthree\n"),
    ("one.tsv", "title\nx\\ty \"q\"\ntwo\n", "use @2; set title deux; save", "three\n"),
  ])
  func theHistoryOfATableLastsAcrossSessionsAndOutsideChanges(
    _ name: String, _ original: String, _ edit: String, _ appended: String
  ) throws {
    let folder = try TempFolder()
    _ = try folder.write(name, original)
    let first = try folder.recsh([name, "-c", edit])
    #expect(first.status == 0, "\(first.stderr)")
    // Another program appends a row.
    _ = try folder.write(name, try folder.read(name) + appended)
    let second = try folder.recsh([name, "-c", "history; undo 2; save"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout.contains("Changed outside recsh"), "\(second.stdout)")
    #expect(try folder.read(name) == original)
  }

  @Test func cellsAreTypedByTheirFieldOrTheirColumn() throws {
    let folder = try TempFolder()
    _ = try folder.write(
      "books.csv", "isbn,title,year,price,zip\n1,A,1999,9.50,02134\n2,\"B, c\",2001,12,10001\n")
    let result = try folder.recsh(["books.csv", "--format", "jsonl", "-c", "list; count year>2000"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout
        == #"{"isbn":1,"title":"A","year":1999,"price":9.50,"zip":"02134"}"# + "\n"
        + #"{"isbn":2,"title":"B, c","year":2001,"price":12,"zip":"10001"}"# + "\n" + "{\"count\": 1}\n",
      "\(result.stdout)")
  }

  /// A schema beside a CSV file (`books.schema.json` for `books.csv`) is its kind: its
  /// rules refuse the file, each violation at its cell.
  @Test func aSchemaBesideATableAppliesAtItsCells() throws {
    let folder = try TempFolder()
    _ = try folder.write("bk.csv", "isbn,title,year\n1,A,1999\n2,B,1000\n3,C,900\n")
    _ = try folder.write(
      "bk.schema.json",
      #"{"type":"object","properties":{"isbn":{"type":"integer"},"title":{"type":"string"},"year":{"type":"integer","minimum":1450}}}"#
    )
    let result = try folder.recsh(["bk.csv", "-c", "list"])
    #expect(result.status == 3)
    #expect(
      result.stderr
        == "bk.csv:3:5: error: record 2: field 'year': must be at least 1450, found 1000\n"
        + "bk.csv:4:5: error: record 3: field 'year': must be at least 1450, found 900\n", "\(result.stderr)")
  }

  @Test func anUnquotedEmptyCellIsAbsentAndAQuotedOneTheEmptyString() throws {
    let folder = try TempFolder()
    _ = try folder.write("n.csv", "id,note\na,\nb,\"\"\n")
    let result = try folder.recsh(["n.csv", "-c", "count note=null; count note=''; use a; set note ''; save"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "1\n1\n", "\(result.stdout)")
    #expect(try folder.read("n.csv") == "id,note\na,\"\"\nb,\"\"\n")
  }

  @Test(arguments: [
    ("id,a,b\n1,x,y\n2,x\n", "t.csv:3:1: error: row has 2 cells, the header has 3"),
    (
      "id,a\n1,\"open\n",
      "t.csv:2:3: error: quoted cell never closes: no closing '\"' before the end of the file"
    ),
    ("id,a\n1,\"x\"y\n", "t.csv:2:6: error: expected ',' or a line break after a closing quote, found 'y'"),
    ("id,,b\n", "t.csv:1:4: error: the header name of column 2 is empty"),
    ("id,a,a\n", "t.csv:1:6: error: the header name \"a\" of column 3 repeats column 2's"),
  ])
  func aBrokenTableIsRefusedWithItsPlace(_ text: String, _ message: String) throws {
    let folder = try TempFolder()
    _ = try folder.write("t.csv", text)
    let result = try folder.recsh(["t.csv", "-c", "list"])
    #expect(result.status == 3)
    #expect(result.stderr == message + "\n", "\(result.stderr)")
    #expect(try folder.read("t.csv") == text)
  }

  /// A cell its field refuses names the record, the field and what it found, at its row.
  @Test(arguments: [
    (
      "id,title,priority\nt1,a,x\n",
      "t.csv:2:1: error: record 1 (id \"t1\"): field 'priority': expected an integer 0–5, found \"x\""
    ),
    (
      "id,title,priority\nt1,a,1\nt2,b,9\n",
      "t.csv:3:1: error: record 2 (id \"t2\"): field 'priority': expected an integer 0–5, found 9"
    ),
    ("title,priority\na,1\n", "t.csv:2:1: error: record 1: no \"id\""),
    (
      "id,title,done\nt1,a,yes\n",
      "t.csv:2:1: error: record 1 (id \"t1\"): field 'done': expected true or false, found \"yes\""
    ),
  ])
  func aCellItsFieldRefusesIsAnError(_ text: String, _ message: String) throws {
    let folder = try TempFolder()
    _ = try folder.write("t.csv", text)
    let result = try folder.recsh(["t.csv", "--kind", "task", "-c", "list"])
    #expect(result.status == 3)
    #expect(result.stderr == message + "\n", "\(result.stderr)")
  }

  @Test func invalidUTF8IsRefusedWithItsPlace() throws {
    let folder = try TempFolder()
    try Self.write(Array("id,a\n1,ok\n2,b".utf8) + [0xFF] + [0x0A], "t.csv", in: folder)
    let result = try folder.recsh(["t.csv", "-c", "list"])
    #expect(result.status == 3)
    #expect(result.stderr == "t.csv:3:4: error: invalid UTF-8 at byte offset 13\n", "\(result.stderr)")
  }

  @Test func aListOrObjectIsRefusedNamingTheRecordAndField() throws {
    let folder = try TempFolder()
    try Self.write(Self.semicolons, "t.csv", in: folder)
    let set = try folder.recsh(["t.csv", "-c", "use t1; set tags [a, b]"])
    #expect(set.status == 1)
    #expect(
      set.stderr
        == "<command>:1: error: record 't1' field 'tags': a list does not fit a cell of t.csv, which holds "
        + "text (CSV and TSV cells hold strings, numbers and true/false)\n", "\(set.stderr)")
    let add = try folder.recsh(["t.csv", "-c", "use t2; add tags x"])
    #expect(add.status == 1)
    #expect(
      add.stderr.contains("record 't2' field 'tags': a list does not fit a cell of t.csv"), "\(add.stderr)")
    #expect(try Self.bytes("t.csv", in: folder) == Self.semicolons)
    // A conversion of records holding a list is refused before anything is written.
    _ = try folder.write("j.json", #"[{"id":"a","title":"x","tags":["u"]}]"#)
    let convert = try folder.recsh(["j.json", "-c", "save j.csv"])
    #expect(convert.status == 1)
    #expect(
      convert.stderr.contains("record 'a' field 'tags': a list does not fit a cell of j.csv"),
      "\(convert.stderr)")
    #expect(!folder.exists("j.csv"))
  }

  @Test func conversionsGoBothWays() throws {
    let folder = try TempFolder()
    _ = try folder.write(
      "j.json", #"[{"id":"a","title":"x, y","priority":2},{"id":"b","title":"z","done":true}]"#)
    let toCSV = try folder.recsh(["j.json", "-c", "save t.csv; save t.tsv"])
    #expect(toCSV.status == 0, "\(toCSV.stderr)")
    #expect(try folder.read("t.csv") == "id,title,done,priority\na,\"x, y\",,2\nb,z,true,\n")
    #expect(try folder.read("t.tsv") == "id\ttitle\tdone\tpriority\na\tx, y\t\t2\nb\tz\ttrue\t\n")
    let back = try folder.recsh(["t.tsv", "-c", "save k.json"])
    #expect(back.status == 0, "\(back.stderr)")
    let json = try folder.recsh(["k.json", "--format", "jsonl", "-c", "list"])
    #expect(
      json.stdout
        == #"{"id":"a","title":"x, y","priority":2}"# + "\n" + #"{"id":"b","title":"z","done":true}"# + "\n",
      "\(json.stdout)")
  }

  @Test func theLayoutOptionReadsAFileWhateverItsName() throws {
    let folder = try TempFolder()
    _ = try folder.write("d.txt", "id,title\nq,hello\n")
    let unnamed = try folder.recsh(["d.txt", "-c", "list"])
    #expect(unnamed.status == 3)
    #expect(
      unnamed.stderr
        == "d.txt:1:1: error: recsh reads JSON, JSON Lines, CSV and TSV; this file was read as JSON (by its "
        + "name) and looks like CSV: name it .csv or give --layout csv\n", "\(unnamed.stderr)")
    let named = try folder.recsh(["d.txt", "--layout", "csv", "-c", "use q; set title bye; save"])
    #expect(named.status == 0, "\(named.stderr)")
    #expect(try folder.read("d.txt") == "id,title\nq,bye\n")
    let bad = try folder.recsh(["d.txt", "--layout", "xml"])
    #expect(bad.status == 2)
    #expect(bad.stderr.hasPrefix("recsh: unknown layout \"xml\"; the layouts are json|jsonl|csv|tsv\n"))
  }

  /// Two branches edit different cells of one row: `git merge` with the README's lines
  /// (`*.csv merge=recsh diff=recsh`) takes both, and every other byte stays.
  @Test func gitMergesDifferentCellsOfOneRow() throws {
    let folder = try TempFolder()
    try Self.write(Self.semicolons, "t.csv", in: folder)
    let result = try RecshBinary.runShell(
      MergeCommandTests.gitSetup.replacingOccurrences(
        of: "*.jsonl merge=recsh diff=recsh",
        with: "*.jsonl merge=recsh diff=recsh\\n*.csv merge=recsh diff=recsh")
          + """
          "$RECSH" t.csv -c 'use t1; set title "Buy bread; jam"; save' > /dev/null
          git commit -q -am ours
          git checkout -q theirs
          "$RECSH" t.csv -c 'use t1; set priority 0; save' > /dev/null
          git commit -q -am theirs
          git checkout -q -
          git merge -q --no-edit theirs > /dev/null
          git status --porcelain
          git diff HEAD~1 --stat | tail -1
          """, environment: ["HOME": folder.url.path, "GIT_CONFIG_NOSYSTEM": "1"], directory: folder.url)
    #expect(result.status == 0, "\(result.stderr)")
    let expected = String(decoding: Self.semicolons, as: UTF8.self).replacingOccurrences(
      of: "t1;\"Buy milk; eggs\";false;3;", with: "t1;\"Buy bread; jam\";false;0;")
    #expect(String(decoding: try Self.bytes("t.csv", in: folder), as: UTF8.self) == expected)
  }

  /// csv-spectrum through the shell: every file opens (its kind inferred), lists as its
  /// JSON twin when values are compared as text (an unquoted empty cell, absent here, is
  /// the twin's ""), and saved as another file is the same bytes. `location_coordinates`'
  /// twin is wrong upstream: Python's `csv.DictReader` reading stands in for it.
  @Test(arguments: [
    "comma_in_quotes", "empty", "empty_crlf", "escaped_quotes", "json", "location_coordinates", "newlines",
    "newlines_crlf", "quotes_and_newlines", "simple", "simple_crlf", "utf8",
  ])
  func csvSpectrumReadsAsItsTwinAndSavesByteForByte(_ name: String) throws {
    let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "shared/conformance/csv-spectrum")
    let csv = try Data(contentsOf: suite.appendingPathComponent("csvs/\(name).csv"))
    var twin = try JSONSerialization.jsonObject(
      with: Data(contentsOf: suite.appendingPathComponent("json/\(name).json")))
    if name == "location_coordinates" {
      twin = [
        [
          "Contact Phone Number": "2095257564",
          "Location Coordinates": "37\u{FFFD}36'37.8\"N 121\u{FFFD}2'17.9\"W",
          "Cities": "Modesto", "Counties": "Stanislaus",
        ]
      ]
    }
    let expected = try #require(twin as? [[String: String]])
    let folder = try TempFolder()
    try csv.write(to: URL(fileURLWithPath: folder.path("in.csv")))
    let listed = try folder.recsh(["in.csv", "--format", "jsonl", "-c", "list; save out.csv"])
    #expect(listed.status == 0, "\(listed.stderr)")
    let rows = try listed.stdout.split(separator: "\n").map { line in
      try #require(
        JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]) as? [String: Any])
    }
    let asText = rows.map { row in
      row.mapValues { value -> String in
        if let text = value as? String { return text }
        if let number = value as? NSNumber { return number.stringValue }
        return "\(value)"
      }
    }
    let header = Set(expected.first?.keys.map { $0 } ?? [])
    let filled = asText.map { row in Dictionary(uniqueKeysWithValues: header.map { ($0, row[$0] ?? "") }) }
    #expect(filled == expected, "\(name): \(listed.stdout)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("out.csv"))) == csv, "\(name)")
  }
}
