import Testing

@testable import RecordKit

/// Every supported keyword: a value it admits, one it refuses, and the exact words.
@Suite struct JSONSchemaKeywordTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var schema: String
    var good: String
    var bad: String
    var pointer: String
    var message: String
    var testDescription: String { schema }
  }

  static let cases: [Case] = [
    Case(
      schema: #"{"type": "integer"}"#, good: "1.0", bad: "1.5", pointer: "/",
      message: "must be an integer, found 1.5"),
    Case(
      schema: #"{"type": ["string", "null"]}"#, good: "null", bad: "3", pointer: "/",
      message: "must be a string or null, found 3"),
    Case(
      schema: #"{"type": "boolean"}"#, good: "false", bad: #""yes""#, pointer: "/",
      message: #"must be true or false, found "yes""#),
    Case(
      schema: #"{"properties": {"year": {"type": "integer"}}}"#, good: #"{"year": 2020}"#,
      bad: #"{"year": "2020"}"#, pointer: "/year", message: #"must be an integer, found "2020""#),
    Case(
      schema: #"{"required": ["title"]}"#, good: #"{"title": "x"}"#, bad: #"{"name": "x"}"#,
      pointer: "/title", message: "is required but missing"),
    Case(
      schema: #"{"properties": {"a": {}}, "additionalProperties": false}"#, good: #"{"a": 1}"#,
      bad: #"{"a": 1, "color": "red"}"#, pointer: "/color",
      message: "is not a declared field (additionalProperties is false)"),
    Case(
      schema: #"{"enum": ["a", "b"]}"#, good: #""b""#, bad: #""c""#, pointer: "/",
      message: #"must be one of "a", "b", found "c""#),
    Case(
      schema: #"{"enum": []}"#, good: "", bad: "1", pointer: "/",
      message: "cannot have any value (enum is empty), found 1"),
    Case(schema: #"{"const": 1}"#, good: "1.0", bad: "true", pointer: "/", message: "must be 1, found true"),
    Case(
      schema: #"{"minimum": 1}"#, good: "1", bad: "0.99", pointer: "/",
      message: "must be at least 1, found 0.99"),
    Case(
      schema: #"{"maximum": 2100}"#, good: "2100.0", bad: "21000", pointer: "/",
      message: "must be at most 2100, found 21000"),
    Case(
      schema: #"{"exclusiveMinimum": 0}"#, good: "1e-9", bad: "0", pointer: "/",
      message: "must be greater than 0, found 0"),
    Case(
      schema: #"{"exclusiveMaximum": 10}"#, good: "9.99", bad: "1e1", pointer: "/",
      message: "must be less than 10, found 1e1"),
    Case(
      schema: #"{"minLength": 3}"#, good: #""\u00e9t\u00e9""#, bad: #""ab""#, pointer: "/",
      message: #"must be at least 3 characters long, found "ab" (2)"#),
    Case(
      schema: #"{"maxLength": 2}"#, good: #""\ud83d\ude00\ud83d\ude00""#, bad: #""abc""#, pointer: "/",
      message: #"must be at most 2 characters long, found "abc" (3)"#),
    Case(
      schema: #"{"pattern": "^[0-9]+$"}"#, good: #""2026""#, bad: #""12a""#, pointer: "/",
      message: #"must match pattern "^[0-9]+$", found "12a""#),
    Case(
      schema: #"{"format": "date"}"#, good: #""2024-02-29""#, bad: #""2023-02-29""#, pointer: "/",
      message: #"must be a date (YYYY-MM-DD), found "2023-02-29""#),
    Case(
      schema: #"{"format": "date-time"}"#, good: #""2026-12-01T09:30:00+01:00""#, bad: #""2026-12-01 09:30""#,
      pointer: "/",
      message:
        #"must be a date-time (YYYY-MM-DDTHH:MM:SS with Z or an offset like +01:00), found "2026-12-01 09:30""#
    ),
    Case(
      schema: #"{"format": "email"}"#, good: #""ann@example.org""#, bad: #""ann@""#, pointer: "/",
      message: #"must be an email address, found "ann@""#),
    Case(
      schema: #"{"items": {"type": "string"}}"#, good: #"["a", "b"]"#, bad: #"["a", 2]"#, pointer: "/1",
      message: "must be a string, found 2"),
    Case(
      schema: #"{"uniqueItems": true}"#, good: #"[1, "1", [1]]"#,
      bad: #"[{"a": 1, "b": 2}, 3, {"b": 2, "a": 1.0}]"#,
      pointer: "/", message: "must have unique items, but items 0 and 2 are equal"),
    Case(
      schema: ##"{"$defs": {"year": {"maximum": 2100}}, "properties": {"y": {"$ref": "#/$defs/year"}}}"##,
      good: #"{"y": 2100}"#, bad: #"{"y": 2101}"#, pointer: "/y", message: "must be at most 2100, found 2101"),
    Case(
      schema: ##"{"properties": {"next": {"$ref": "#"}, "n": {"type": "integer"}}}"##,
      good: ##"{"next": {"n": 1}}"##,
      bad: #"{"next": {"next": {"n": "x"}}}"#, pointer: "/next/next/n",
      message: #"must be an integer, found "x""#),
    Case(
      schema:
        #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:x", "$comment": "c", "title": "T", "description": "D", "default": 3, "readOnly": true, "x-recsh-key": "id", "type": "object"}"#,
      good: "{}", bad: "[]", pointer: "/", message: "must be an object, found []"),
  ]

  static func json(_ text: String) throws -> JSONValue {
    try JSONValue.parse(bytes: Array(text.utf8))
  }

  @Test(arguments: cases)
  func keywordAdmitsTheGoodValueAndWordsTheBadOne(_ example: Case) throws {
    let schema = try JSONSchema(reading: try Self.json(example.schema))
    if !example.good.isEmpty {
      #expect(schema.violations(of: try Self.json(example.good)).isEmpty)
    }
    let violations = schema.violations(of: try Self.json(example.bad))
    #expect(violations.map(\.message) == [example.message])
    #expect(violations.first?.pointer.description == example.pointer)
  }

  @Test func violationsAreListedInTheValuesOrderUpToTheLimit() throws {
    let schema = try JSONSchema(
      reading: try Self.json(
        #"{"properties": {"a": {"type": "string"}, "b": {"maximum": 1}}, "required": ["c"], "additionalProperties": false}"#
      ))
    let value = try Self.json(#"{"b": 5, "x": 1, "a": 1}"#)
    let all = schema.violations(of: value)
    #expect(all.map(\.pointer.description) == ["/b", "/x", "/a", "/c"])
    #expect(
      all.map(\.keyword.description) == [
        "/properties/b/maximum", "/additionalProperties", "/properties/a/type", "/required",
      ])
    #expect(schema.violations(of: value, limit: 2).count == 2)
    #expect(!schema.admits(value))
  }

  @Test func aWrongTypeIsTheOnlyViolationOfItsValue() throws {
    let schema = try JSONSchema(reading: try Self.json(#"{"type": "string", "enum": ["a"], "minLength": 2}"#))
    #expect(schema.violations(of: .number("3")).map(\.message) == ["must be a string, found 3"])
  }

  @Test func aReferenceAppliesAlongsideItsSiblings() throws {
    let schema = try JSONSchema(
      reading: try Self.json(##"{"$defs": {"big": {"minimum": 10}}, "$ref": "#/$defs/big", "maximum": 20}"##))
    #expect(schema.violations(of: .number("5")).map(\.message) == ["must be at least 10, found 5"])
    #expect(schema.violations(of: .number("25")).map(\.message) == ["must be at most 20, found 25"])
    #expect(schema.admits(.number("15")))
  }

  @Test func annotationsAreKeptOnTheirNode() throws {
    let schema = try JSONSchema(reading: try Self.json(Self.cases[Self.cases.count - 1].schema))
    let annotations = schema.root.annotations
    #expect(annotations.title == "T")
    #expect(annotations.description == "D")
    #expect(annotations.defaultValue == .number("3"))
    #expect(annotations.isReadOnly)
    #expect(annotations.recordKey == "id")
    #expect(schema.root.identifier == "urn:x")
  }
}
