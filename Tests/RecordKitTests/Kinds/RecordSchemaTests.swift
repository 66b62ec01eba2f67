import Testing

@testable import RecordKit

/// `RecordSchema`: the typed model of a schema for records.
@Suite struct RecordSchemaTests {
  static let books = ##"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "title": "Books", "description": "What I read",
      "type": "object",
      "x-recsh-key": "isbn",
      "additionalProperties": false,
      "required": ["isbn", "title"],
      "properties": {
        "isbn": {"type": "string", "pattern": "^[0-9-]+$", "readOnly": true},
        "title": {"type": "string", "minLength": 1, "description": "As on the cover"},
        "year": {"type": ["integer", "null"], "minimum": 1450, "maximum": 2100},
        "price": {"type": "number", "exclusiveMinimum": 0},
        "read": {"type": "boolean", "default": false},
        "started": {"type": "string", "format": "date"},
        "finished": {"type": "string", "format": "date-time"},
        "author_email": {"type": "string", "format": "email"},
        "status": {"enum": ["to read", "reading", "done"], "title": "Status"},
        "kind": {"const": "book"},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 20}, "uniqueItems": true},
        "publisher": {"$ref": "#/$defs/publisher"},
        "notes": {}
      },
      "$defs": {
        "publisher": {"type": "object", "properties": {"name": {"type": "string"}, "city": {"type": "string"}}}
      }
    }
    """##

  static func model(_ text: String) throws -> RecordSchema {
    try RecordSchema(reading: try JSONValue.parse(bytes: Array(text.utf8)))
  }

  @Test func everyPropertyBecomesAFieldInOrderWithItsType() throws {
    let books = try Self.model(Self.books)
    #expect(
      books.fields.map { "\($0.name): \($0.shape.type.name)" } == [
        "isbn: string", "title: string", "year: integer", "price: number", "read: bool", "started: date",
        "finished: date-time", "author_email: email", "status: any JSON value", "kind: any JSON value",
        "tags: list of string", "publisher: object", "notes: any JSON value",
      ])
    #expect(books.key == "isbn")
    #expect(!books.allowsOtherFields)
    #expect(books.title == "Books")
    #expect(books.description == "What I read")
  }

  @Test func fieldsCarryWhatTheSchemaSaysOfThem() throws {
    let books = try Self.model(Self.books)
    let isbn = try #require(books.field(named: "isbn"))
    #expect(isbn.isRequired && isbn.shape.isReadOnly && isbn.shape.constraints.pattern?.source == "^[0-9-]+$")
    let year = try #require(books.field(named: "year"))
    #expect(!year.isRequired && year.shape.isNullable)
    #expect(
      year.shape.constraints.minimum?.spelling == "1450" && year.shape.constraints.maximum?.spelling == "2100"
    )
    #expect(books.field(named: "title")?.shape.description == "As on the cover")
    #expect(books.field(named: "title")?.shape.constraints.minLength == 1)
    #expect(books.field(named: "read")?.shape.defaultValue == .bool(false))
    #expect(books.field(named: "status")?.shape.title == "Status")
    #expect(books.field(named: "status")?.shape.allowedValues?.count == 3)
    #expect(books.field(named: "kind")?.shape.allowedValues == [.string("book")])
    #expect(books.field(named: "price")?.shape.constraints.exclusiveMinimum?.spelling == "0")
    guard case .list(let element)? = books.field(named: "tags")?.shape.type else {
      Issue.record("tags is not a list")
      return
    }
    #expect(element.constraints.maxLength == 20)
    #expect(books.field(named: "tags")?.shape.constraints.uniqueItems == true)
    guard case .object(let publisher, let others)? = books.field(named: "publisher")?.shape.type else {
      Issue.record("publisher is not an object")
      return
    }
    #expect(publisher.map(\.name) == ["name", "city"] && others)
  }

  @Test func theModelKeepsTheSchemaToCheckRecordsWith() throws {
    let books = try Self.model(Self.books)
    let record = try JSONValue.parse(bytes: Array(#"{"isbn": "978-0", "title": "", "year": 21000}"#.utf8))
    #expect(
      books.schema.violations(of: record).map { "\($0.pointer): \($0.message)" } == [
        #"/title: must be at least 1 character long, found "" (0)"#,
        "/year: must be at most 2100, found 21000",
      ])
  }

  @Test func aRequiredNameWithoutAPropertyIsAFieldOfAnyValue() throws {
    let model = try Self.model(#"{"required": ["id"]}"#)
    #expect(model.fields == [SchemaField(name: "id", isRequired: true, shape: .any)])
    #expect(model.allowsOtherFields)
  }

  @Test func aReferenceAndItsSiblingsMergeTheirFields() throws {
    let model = try Self.model(
      ##"{"$defs": {"base": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}}, "$ref": "#/$defs/base", "properties": {"b": {"type": "integer"}, "c": {"type": "boolean"}}}"##
    )
    #expect(
      model.fields.map { "\($0.name): \($0.shape.type.name)" } == ["a: string", "b: integer", "c: bool"])
  }

  @Test func aRecursiveSchemaIsModelledToItsFirstRepeat() throws {
    let model = try Self.model(
      ##"{"type": "object", "properties": {"parent": {"$ref": "#"}, "name": {"type": "string"}}}"##)
    #expect(model.fields.map(\.name) == ["parent", "name"])
    #expect(model.field(named: "parent")?.shape.type == .any)
    let record = try JSONValue.parse(bytes: Array(#"{"parent": {"parent": {"name": 3}}}"#.utf8))
    #expect(model.schema.violations(of: record).map(\.pointer.description) == ["/parent/parent/name"])
  }

  static let refusals: [(String, String, String)] = [
    (
      #"{"type": "array"}"#, "/type",
      #"the top-level schema must describe a record (type "object"), found type "array""#
    ),
    (
      #"{"type": ["object", "null"]}"#, "/type",
      #"the top-level schema must describe a record (type "object"), found type "object or null""#
    ),
    (#"{"x-recsh-key": "isbn"}"#, "/x-recsh-key", #"x-recsh-key "isbn" is not a field in properties"#),
    (
      #"{"x-recsh-key": "n", "properties": {"n": {"type": "number"}}}"#, "/x-recsh-key",
      #"x-recsh-key "n" must name a string or integer field, found number"#
    ),
    (
      #"{"x-recsh-key": "n", "properties": {"n": {"type": ["integer", "null"]}}}"#, "/x-recsh-key",
      #"x-recsh-key "n" must name a string or integer field, found integer"#
    ),
  ]

  @Test(arguments: refusals)
  func aSchemaThatIsNoRecordKindIsRefused(_ schema: String, _ pointer: String, _ message: String) {
    do {
      _ = try Self.model(schema)
      Issue.record("read without error")
    } catch let error as JSONSchemaError {
      #expect(error.pointer.description == pointer)
      #expect(error.message == message)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}
