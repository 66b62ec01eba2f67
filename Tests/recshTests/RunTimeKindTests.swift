import Foundation
import Glibc
import Testing

/// Records of any kind, through the built binary: the kind chosen for a file and why,
/// inferred kinds, schema kinds and their rules, keys, and the `schema` command.
@Suite struct RunTimeKindTests {
  static let books = """
    [
      {
        "isbn": "978-0-13-110362-7",
        "title": "The C Programming Language",
        "year": 1988,
        "authors": [
          "Brian Kernighan",
          "Dennis Ritchie"
        ],
        "read": true,
        "rating": 4.50,
        "added": "2026-12-01",
        "publisher": {
          "name": "Prentice Hall",
          "city": "Englewood Cliffs"
        }
      },
      {
        "isbn": "978-0-262-03384-8",
        "title": "Introduction to Algorithms",
        "year": 2009,
        "authors": [
          "Thomas Cormen"
        ],
        "read": false,
        "rating": 1e0,
        "added": "2026-11-30",
        "publisher": {
          "name": "MIT Press",
          "city": "Cambridge"
        }
      }
    ]

    """

  // MARK: Inferred kinds

  @Test func aBooksFileWithoutIdsOpensAsAnInferredKindEditedByPosition() throws {
    let folder = try TempFolder()
    try folder.write("books.json", Self.books)
    let result = try folder.recsh(
      [
        "books.json", "-k", "-c", "fields", "-c", "list", "-c", "use @2", "-c", "set year 2010.5", "-c",
        "set yeer 2010", "-c", "use 978-0-262", "-c", "set year 2010 publisher.city Boston", "-c",
        "add authors \"Ron Rivest\"", "-c", "save",
      ])
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        kind books, inferred from the records (not task: record 1: no "id"; not contact: record 1: no "id")
        books fields:
          isbn            string, required
          title           string, required
          year            integer, required
          authors         list of string, required
          read            bool, required
          rating          number, required
          added           date, required
          publisher.name  string
          publisher.city  string
        @   isbn               year  read   title
        @1  978-0-13-110362-7  1988  true   The C Programming Language
        @2  978-0-262-03384-8  2009  false  Introduction to Algorithms
        (2 records)

        """)
    #expect(
      result.stderr == """
        <command>:4: error: field 'year': expected an integer, found 2010.5
        <command>:5: error: unknown field 'yeer'; did you mean 'year'?
        <command>:6: error: '978-0-262' names no record: these records have no key (no "id"); refer to them by position, @1 for the first

        """)
    let saved = try folder.read("books.json")
    #expect(saved.contains(#""year": 2010,"#))
    #expect(saved.contains(#""authors": [\#n      "Thomas Cormen",\#n      "Ron Rivest"\#n    ],"#))
    #expect(saved.contains(#""publisher": {\#n      "name": "MIT Press",\#n      "city": "Boston"\#n    }"#))
    // Spellings kept: a number's and a date's.
    #expect(saved.contains(#""rating": 4.50,"#) && saved.contains(#""rating": 1e0,"#))
    #expect(saved.contains(#""added": "2026-12-01","#))
  }

  @Test func anUneditedFileOfAnyKindIsSavedBackByteIdentical() throws {
    let folder = try TempFolder()
    // Records whose keys come in different orders keep their orders.
    let text = """
      [
        {
          "b": 1,
          "a": [
            1,
            2.50,
            "x"
          ],
          "c": {
            "deep": {
              "er": null
            }
          }
        },
        {
          "a": "text",
          "b": 2
        }
      ]

      """
    try folder.write("mixed.json", text)
    let result = try folder.recsh(["mixed.json", "-c", "save"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try folder.read("mixed.json") == text)
    let fields = try folder.recsh(["mixed.json", "-c", "fields"])
    #expect(fields.stdout.contains("  a          any JSON value, required\n"))
    #expect(fields.stdout.contains("  b          integer, required\n"))
    #expect(fields.stdout.contains("  c.deep.er  any JSON value\n"))
  }

  @Test func integerIdsAreMatchedExactlyAndNewTakesTheNextOne() throws {
    let folder = try TempFolder()
    try folder.write(
      "parts.json",
      "[{\"id\": 1, \"name\": \"bolt\"}, {\"id\": 12, \"name\": \"nut\"}, {\"id\": 2, \"name\": \"gear\"}]")
    let result = try folder.recsh([
      "parts.json", "-k", "-c", "use 1", "-c", "set qty 5", "-c", "set name washer", "-c", "new name spring",
      "-c",
      "use 3", "-c", "save",
    ])
    #expect(result.status == 1)
    #expect(
      result.stderr == """
        <command>:2: error: unknown field 'qty' (see 'fields'; 'set +qty VALUE' creates a custom field)
        <command>:5: error: no record with id or id prefix '3'

        """)
    // Saved in the file's own layout: one line, no final line break.
    #expect(
      try folder.read("parts.json")
        == #"[{"id": 1, "name": "washer"}, {"id": 12, "name": "nut"}, {"id": 2, "name": "gear"}, {"id": 13, "name": "spring"}]"#
    )
  }

  @Test func twoRecordsWithOneKeyRefuseTheFileNamingBoth() throws {
    let folder = try TempFolder()
    let text = "[\n  {\"id\": 7, \"n\": 1},\n  {\"id\": 8},\n  {\"id\": 7}\n]\n"
    try folder.write("p.json", text)
    let result = try folder.recsh(["p.json", "-c", "list"])
    #expect(result.status == 3)
    #expect(result.stderr == "p.json:4:3: error: records 1 and 3 have the same id \"7\"\n")
    #expect(try folder.read("p.json") == text)
  }

  @Test func aFileMixingObjectsAndOtherValuesIsRefused() throws {
    let folder = try TempFolder()
    try folder.write("m.json", "[{\"a\": 1}, 2]")
    let result = try folder.recsh(["m.json", "-c", "list"])
    #expect(result.status == 3)
    #expect(result.stderr == "m.json:1:12: error: record 2: expected an object, found a number\n")
  }

  @Test func theShippedExamplesOpenAsTheirKindsWithoutAFlag() throws {
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples")
    let folder = try TempFolder()
    for name in ["tasks.json", "contacts.json", "books.json", "books.schema.json"] {
      try folder.write(name, try String(contentsOf: examples.appendingPathComponent(name), encoding: .utf8))
    }
    let contacts = try folder.recsh([
      "contacts.json", "-c", "fields", "-c", "use @1", "-c", "set address.city Paris",
    ])
    #expect(contacts.status == 0, "\(contacts.stderr)")
    #expect(
      contacts.stdout.hasPrefix("kind contact: every record fits it, and they hold 6 of its 6 fields\n"))
    let tasks = try folder.recsh(["tasks.json", "-c", "fields"])
    #expect(tasks.stdout.hasPrefix("kind task: every record fits it, and they hold 6 of its 6 fields\n"))
    let books = try folder.recsh(["books.json", "-c", "fields", "-c", "save"])
    #expect(books.status == 0, "\(books.stderr)")
    // `help FIELD`: the field's type, rules, description and values.
    let help = try folder.recsh(["books.json", "-c", "help genre", "-c", "help year"])
    #expect(
      help.stdout == """
        field genre: enum, one of "computing", "fiction", "history", "science", "poetry"
          the shelf it goes on
          values: computing, fiction, history, science, poetry
        field year: integer, >= 1450, <= 2100
          year of this edition

        """)
    // `new` takes the key's value, checked by the key's own rules, and refuses a taken one.
    let keys = try folder.recsh([
      "books.json", "-k", "-c", "new isbn 123 title x authors [a]", "-c",
      "new isbn 978-0-13-110362-7 title x authors [a]", "-c", "new title x authors [a]",
    ])
    #expect(
      keys.stderr == """
        <command>:1: error: field 'isbn': must match pattern "^97[89]-", found "123"
        <command>:2: error: a record with id '978-0-13-110362-7' already exists
        <command>:3: error: field 'isbn' is required: give it, as in 'new isbn VALUE'

        """)
    #expect(
      books.stdout.hasPrefix("kind books, from the schema books.schema.json (the schema beside the file)\n"))
    #expect(
      try folder.read("books.json")
        == (try String(contentsOf: examples.appendingPathComponent("books.json"), encoding: .utf8)))
  }

  /// Records whose keys are all different (100,000 distinct keys): inference types its
  /// first 1,000 keys, says so, keeps the rest as custom fields, and the file saves back
  /// unchanged. (Memory stays bounded by the limit: the keys past it are not tracked.)
  @Test func aFileOfManyDistinctKeysOpensWithAWarningAndSavesBackUnchanged() throws {
    let folder = try TempFolder()
    let records = (0..<100_000).map { "  {\n    \"n\": \($0),\n    \"k\($0)\": true\n  }" }
    let text = "[\n" + records.joined(separator: ",\n") + "\n]\n"
    try folder.write("wide.json", text)
    let result = try folder.recsh(["wide.json", "-c", "use @99999", "-c", "show", "-c", "save"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr
        == "wide.json: warning: the records hold more than 1000 different keys; the ones past that are custom fields\n"
    )
    #expect(result.stdout == "n       99998\nk99998  true  (custom)\n")
    #expect(try folder.read("wide.json") == text)
  }

  /// Records without a key, a session killed after a delete, a new record, a save and
  /// two more edits: `--recover` replays the edits onto the saved file, whose records the
  /// journal's header numbers as the session did, and they undo.
  @Test func aKilledSessionOnRecordsWithoutKeysRecoversAcrossASave() throws {
    let folder = try TempFolder()
    try folder.write(
      "books.json",
      "[\n  {\n    \"title\": \"a\"\n  },\n  {\n    \"title\": \"b\"\n  },\n  {\n    \"title\": \"c\"\n  }\n]\n"
    )
    let child = try InteractivePipe(arguments: ["-k", "books.json"], directory: folder.url)
    child.send("delete @1\nnew title d\nsave\nuse @3\nset title D\nuse @1\nset title B\nhistory\n")
    _ = try child.readUntil("<- now", seconds: 20)
    kill(child.process.processIdentifier, SIGKILL)
    child.process.waitUntilExit()
    let recovered = try folder.recsh(["--recover", "books.json", "-c", "list", "-c", "undo 2", "-c", "list"])
    #expect(recovered.status == 0, "\(recovered.stderr)")
    #expect(
      recovered.stdout == """
        @   title
        @1  B
        @2  c
        @3  D
        (3 records)
        Undid: Set title
        Undid: Set title
        @   title
        @1  b
        @2  c
        @3  d
        (3 records)

        """)
  }

  // MARK: The schema command, and schemas beside the file

  @Test func theSchemaSavedBesideTheFileIsTheSameKindAndLeavesTheFileUnchanged() throws {
    let folder = try TempFolder()
    try folder.write("books.json", Self.books)
    let inferred = try folder.recsh(["books.json", "-c", "schema"])
    #expect(inferred.status == 0)
    #expect(
      inferred.stdout.hasPrefix("{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n"))
    #expect(
      inferred.stdout.contains("\"added\": {\n      \"type\": \"string\",\n      \"format\": \"date\"\n    }")
    )
    let inferredFields = try folder.recsh(["books.json", "-c", "fields"]).stdout
    try folder.write("books.schema.json", inferred.stdout)
    let reopened = try folder.recsh(["books.json", "-c", "fields", "-c", "schema", "-c", "save"])
    #expect(reopened.status == 0, "\(reopened.stderr)")
    #expect(
      reopened.stdout.hasPrefix(
        "kind books, from the schema books.schema.json (the schema beside the file)\n"))
    // The same fields with the same types and rules, and the same schema printed.
    let fieldLines = inferredFields.split(separator: "\n", maxSplits: 1)[1]
    #expect(reopened.stdout.contains(fieldLines))
    #expect(reopened.stdout.hasSuffix(inferred.stdout))
    #expect(try folder.read("books.json") == Self.books)
  }

  /// A file of no records is an empty file: it opens as tasks, as a zero-byte one does.
  @Test func aFileOfNoRecordsOpensAsTasks() throws {
    let folder = try TempFolder()
    try folder.write("new.json", "[]\n")
    let result = try folder.recsh(["new.json", "-c", "fields", "-c", "new title first", "-c", "list"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("kind task (the file has no records)\ntask fields:\n"))
    #expect(result.stdout.hasSuffix("first\n(1 record)\n"))
  }

  @Test func theShellsRedirectionMakesAnEmptySchemaFileWhichIsNoSchema() throws {
    let folder = try TempFolder()
    try folder.write("books.json", Self.books)
    try folder.write("books.schema.json", "")
    let result = try folder.recsh(["books.json", "-c", "fields"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("kind books, inferred from the records"))
  }

  @Test func aSchemaGivenWithTheFlagIsUsedAndChecked() throws {
    let folder = try TempFolder()
    try folder.write("books.json", Self.books)
    try folder.write(
      "book-kind.json",
      #"{"title": "book", "x-recsh-key": "isbn", "properties": {"isbn": {"type": "string"}, "year": {"type": "integer", "maximum": 2100}}}"#
    )
    let result = try folder.recsh([
      "--schema", "book-kind.json", "books.json", "-k", "-c", "fields", "-c", "use 978-0-13", "-c",
      "set year 21000",
      "-c", "set isbn 1",
    ])
    #expect(result.status == 1)
    #expect(result.stdout.hasPrefix("kind book, from the schema book-kind.json (--schema)\nbook fields:\n"))
    #expect(
      result.stderr == """
        <command>:3: error: field 'year': must be at most 2100, found 21000
        <command>:4: error: field 'isbn' is read-only

        """)
  }

  // MARK: Every supported keyword, accepted and enforced

  /// One keyword: a field `v` with `schema`, a value `new` takes, one it refuses and why.
  struct Rule: CustomStringConvertible {
    var keyword: String
    var schema: String
    var good: String
    var bad: String
    var message: String
    var description: String { keyword }
  }

  static let rules: [Rule] = [
    Rule(
      keyword: "type", schema: #"{"type": "integer"}"#, good: "3", bad: "x",
      message: "field 'v': expected an integer, found x"),
    Rule(
      keyword: "type with null", schema: #"{"type": ["string", "null"]}"#, good: "null", bad: "[a]",
      message: "field 'v': expected a string or null, found [a]"),
    Rule(
      keyword: "enum", schema: #"{"enum": ["a", "b"]}"#, good: "b", bad: "c",
      message: "field 'v': must be one of \"a\", \"b\", found \"c\""),
    Rule(
      keyword: "const", schema: #"{"const": "only"}"#, good: "only", bad: "other",
      message: "field 'v': must be \"only\", found \"other\""),
    Rule(
      keyword: "minimum", schema: #"{"type": "number", "minimum": 1.5}"#, good: "1.5", bad: "1.49",
      message: "field 'v': must be at least 1.5, found 1.49"),
    Rule(
      keyword: "maximum", schema: #"{"type": "integer", "maximum": 2100}"#, good: "2100", bad: "21000",
      message: "field 'v': must be at most 2100, found 21000"),
    Rule(
      keyword: "exclusiveMinimum", schema: #"{"type": "number", "exclusiveMinimum": 0}"#, good: "0.1",
      bad: "0", message: "field 'v': must be greater than 0, found 0"),
    Rule(
      keyword: "exclusiveMaximum", schema: #"{"type": "number", "exclusiveMaximum": 10}"#, good: "9.9",
      bad: "10", message: "field 'v': must be less than 10, found 10"),
    Rule(
      keyword: "minLength", schema: #"{"type": "string", "minLength": 2}"#, good: "ab", bad: "a",
      message: "field 'v': must be at least 2 characters long, found \"a\" (1)"),
    Rule(
      keyword: "maxLength", schema: #"{"type": "string", "maxLength": 2}"#, good: "ab", bad: "abc",
      message: "field 'v': must be at most 2 characters long, found \"abc\" (3)"),
    Rule(
      keyword: "pattern", schema: #"{"type": "string", "pattern": "^97[89]-"}"#, good: "978-1", bad: "123",
      message: "field 'v': must match pattern \"^97[89]-\", found \"123\""),
    Rule(
      keyword: "format date", schema: #"{"type": "string", "format": "date"}"#, good: "2026-02-28",
      bad: "2026-02-30", message: "field 'v': must be a date (YYYY-MM-DD), found \"2026-02-30\""),
    Rule(
      keyword: "format date-time", schema: #"{"type": "string", "format": "date-time"}"#,
      good: "2026-12-01T09:30:00Z", bad: "2026-12-01",
      message:
        "field 'v': must be a date-time (YYYY-MM-DDTHH:MM:SS with Z or an offset like +01:00), found \"2026-12-01\""
    ),
    Rule(
      keyword: "format email", schema: #"{"type": "string", "format": "email"}"#, good: "ann@example.org",
      bad: "ann", message: "field 'v': must be an email address, found \"ann\""),
    Rule(
      keyword: "items", schema: #"{"type": "array", "items": {"type": "integer"}}"#, good: "[1, 2]",
      bad: "[1, x]", message: "field 'v': expected a list of integer values like [1, 2], found [1, x]"),
    Rule(
      keyword: "uniqueItems", schema: #"{"type": "array", "uniqueItems": true}"#, good: "[a, b]",
      bad: "[a, a]", message: "field 'v': must have unique items, but items 0 and 1 are equal"),
    Rule(
      keyword: "$ref and $defs", schema: ##"{"$ref": "#/$defs/small"}"##, good: "1", bad: "7",
      message: "field 'v': must be at most 5, found 7"),
  ]

  @Test(arguments: rules) func eachSupportedKeywordIsEnforcedByNew(_ rule: Rule) throws {
    let folder = try TempFolder()
    try folder.write(
      "s.json",
      #"{"properties": {"v": \#(rule.schema)}, "$defs": {"small": {"type": "integer", "maximum": 5}}}"#)
    try folder.write("r.json", "[]")
    let good = try folder.recsh(["--schema", "s.json", "r.json", "-c", "new v \(rule.good)", "-c", "save"])
    #expect(good.status == 0, "\(rule.keyword): \(good.stderr)")
    let bad = try folder.recsh(["--schema", "s.json", "r.json", "-c", "new v \(rule.bad)"])
    #expect(bad.status == 1)
    #expect(bad.stderr == "<command>:1: error: \(rule.message)\n", "\(rule.keyword)")
  }

  /// `$schema`, `$id` and `$comment` are accepted and change nothing.
  @Test func theAnnotatingCoreKeywordsAreAccepted() throws {
    let folder = try TempFolder()
    try folder.write(
      "s.json",
      #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.org/books", "$comment": "a note", "properties": {"v": {"type": "integer", "$comment": "whole"}}}"#
    )
    try folder.write("r.json", "[{\"v\": 1}]\n")
    let result = try folder.recsh([
      "--schema", "s.json", "r.json", "-k", "-c", "use @1", "-c", "set v x", "-c", "set v 2", "-c", "save",
    ])
    #expect(result.status == 1)
    #expect(result.stderr == "<command>:2: error: field 'v': expected an integer, found x\n")
    #expect(try folder.read("r.json") == "[{\"v\": 2}]\n")
  }

  @Test func requiredDefaultReadOnlyAdditionalPropertiesTitleAndDescription() throws {
    let folder = try TempFolder()
    try folder.write(
      "s.json",
      """
      {"additionalProperties": false, "required": ["name"],
       "properties": {
         "name": {"type": "string", "title": "Name", "description": "what it is called"},
         "made": {"type": "string", "readOnly": true, "default": "2026-12-01"},
         "count": {"type": "integer", "default": 1}
       }}
      """)
    try folder.write("r.json", "[]")
    let result = try folder.recsh([
      "--schema", "s.json", "r.json", "-k", "-c", "new count 2", "-c", "new name a", "-c", "set made x", "-c",
      "set +colour red", "-c", "unset name", "-c", "fields", "-c", "save",
    ])
    #expect(result.status == 1)
    #expect(
      result.stderr == """
        <command>:1: error: field 'name' is required: give it, as in 'new name VALUE'
        <command>:3: error: field 'made' is read-only
        <command>:4: error: cannot create field 'colour': the kind's schema allows no other fields (additionalProperties is false)
        <command>:5: error: field 'name' is not optional; set it to a new value instead

        """)
    #expect(
      result.stdout.hasSuffix(
        """
        r fields:
          name   string, required  what it is called
          made   string, read-only, default "2026-12-01"
          count  integer, default 1

        """))
    #expect(try folder.read("r.json").contains(#""name": "a",\#n    "made": "2026-12-01",\#n    "count": 1"#))
  }

  // MARK: Schemas recsh refuses

  static let unsupported: [(keyword: String, value: String)] = [
    ("$anchor", #""a""#), ("$dynamicRef", ##""#a""##), ("$dynamicAnchor", #""a""#), ("$vocabulary", "{}"),
    ("allOf", "[{}]"), ("anyOf", "[{}]"), ("oneOf", "[{}]"), ("not", "{}"), ("if", "{}"), ("then", "{}"),
    ("else", "{}"), ("dependentSchemas", "{}"), ("prefixItems", "[{}]"), ("contains", "{}"),
    ("patternProperties", "{}"), ("propertyNames", "{}"), ("unevaluatedItems", "{}"),
    ("unevaluatedProperties", "{}"), ("multipleOf", "2"), ("maxItems", "2"), ("minItems", "1"),
    ("maxContains", "2"), ("minContains", "1"), ("maxProperties", "2"), ("minProperties", "1"),
    ("dependentRequired", "{}"), ("contentEncoding", #""base64""#), ("deprecated", "true"),
    ("examples", "[]"), ("writeOnly", "true"),
  ]

  @Test(arguments: unsupported.map(\.keyword)) func eachUnsupportedKeywordIsRefusedWithItsPointer(
    _ keyword: String
  ) throws {
    let value = try #require(Self.unsupported.first { $0.keyword == keyword }).value
    let folder = try TempFolder()
    try folder.write("s.json", #"{"properties": {"v": {"\#(keyword)": \#(value)}}}"#)
    try folder.write("r.json", "[{\"v\": 1}]\n")
    let result = try folder.recsh(["--schema", "s.json", "r.json", "-c", "list"])
    #expect(result.status == 3)
    #expect(
      result.stderr == "s.json: error: /properties/v/\(keyword): keyword '\(keyword)' is not supported\n")
    #expect(result.stdout.isEmpty)
    #expect(try folder.read("r.json") == "[{\"v\": 1}]\n")
  }

  @Test(arguments: [
    ("{", "s.json:1:2: error: unexpected end of input in object\n"),
    ("[]", "s.json: error: /: a schema must be an object, found an array\n"),
    (
      #"{"type": "text"}"#,
      "s.json: error: /type: unknown type \"text\" (known: null, boolean, object, array, number, string, integer)\n"
    ),
    (
      #"{"properties": {"v": {"pattern": "(a"}}}"#,
      "s.json: error: /properties/v/pattern: pattern \"(a\" is not a valid regular expression: "
    ),
    (
      #"{"properties": {"v": {"minimum": 5, "maximum": 3}}}"#,
      "s.json: error: /properties/v/minimum: no value can meet both minimum 5 and maximum 3\n"
    ),
    (
      #"{"properties": {"v": {"type": "integer", "enum": [1, "a"]}}}"#,
      "s.json: error: /properties/v/enum/1: enum value \"a\" is not an integer, as the schema's type says\n"
    ),
    (
      ##"{"properties": {"v": {"$ref": "#/$defs/none"}}}"##,
      "s.json: error: /properties/v/$ref: $ref \"#/$defs/none\" points nowhere in the schema\n"
    ),
    (
      ##"{"properties": {"v": {"$ref": "other.json#/x"}}}"##,
      "s.json: error: /properties/v/$ref: $ref that is not a local JSON pointer is not supported: \"other.json#/x\"; write \"#/$defs/NAME\"\n"
    ),
  ]) func aBrokenSchemaIsRefusedNamingTheFileAndPointer(_ schema: String, _ message: String) throws {
    let folder = try TempFolder()
    try folder.write("s.json", schema)
    try folder.write("r.json", "[]\n")
    let result = try folder.recsh(["--schema", "s.json", "r.json", "-c", "list"])
    #expect(result.status == 3)
    #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    #expect(try folder.read("r.json") == "[]\n")
  }

  /// `open FILE` keeps the session's kind, and its rules: a file that breaks them is
  /// refused as at start, and the session goes on with its own file.
  @Test func openingAnotherFileChecksItAgainstTheSessionsSchema() throws {
    let folder = try TempFolder()
    try folder.write("books.schema.json", #"{"properties": {"year": {"type": "integer", "maximum": 2100}}}"#)
    try folder.write("books.json", "[{\"year\": 2000}]\n")
    try folder.write("more.json", "[\n  {\"year\": 1999},\n  {\"year\": 3000}\n]\n")
    let result = try folder.recsh(["books.json", "-k", "-c", "open more.json", "-c", "list"])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "<command>:1: error: more.json:3:12: record 2: field 'year': must be at most 2100, found 3000\n")
    #expect(result.stdout.hasSuffix("@1  2000\n(1 record)\n"))
  }

  /// Several violations in one record, and in records after it, each at its own place.
  @Test func violationsInOneRecordAreEachPlaced() throws {
    let folder = try TempFolder()
    try folder.write(
      "s.schema.json", #"{"properties": {"year": {"maximum": 2100}, "title": {"type": "string"}}}"#)
    try folder.write(
      "s.json", "[\n  {\"title\": 1, \"year\": 3000},\n  {\"year\": 1},\n  {\"year\": 4000}\n]\n")
    let result = try folder.recsh(["s.json", "-c", "list"])
    #expect(result.status == 3)
    #expect(
      result.stderr == """
        s.json:2:13: error: record 1: field 'title': must be a string, found 1
        s.json:2:24: error: record 1: field 'year': must be at most 2100, found 3000
        s.json:4:12: error: record 3: field 'year': must be at most 2100, found 4000

        """)
  }

  @Test func aFileBreakingItsSchemaListsTwentyViolationsWithPlacesThenTheCount() throws {
    let folder = try TempFolder()
    try folder.write(
      "books.schema.json",
      #"{"x-recsh-key": "id", "properties": {"id": {"type": "integer"}, "year": {"maximum": 2100}}}"#)
    let records = (1...25).map { "  {\"id\": \($0), \"year\": \(3000 + $0)}" }.joined(separator: ",\n")
    let text = "[\n" + records + "\n]\n"
    try folder.write("books.json", text)
    let result = try folder.recsh(["books.json", "-c", "list"])
    #expect(result.status == 3)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 21)
    #expect(
      lines.first
        == "books.json:2:21: error: record 1 (id \"1\"): field 'year': must be at most 2100, found 3001")
    #expect(
      lines[19]
        == "books.json:21:22: error: record 20 (id \"20\"): field 'year': must be at most 2100, found 3020")
    #expect(lines.last == "books.json: error: 5 more violations of the schema")
    #expect(result.stdout.isEmpty)
    #expect(try folder.read("books.json") == text)
  }
}
