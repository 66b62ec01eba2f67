import Testing

@testable import RecordKit

/// Schemas recsh refuses: unsupported keywords and forms, and schemas that make no sense,
/// each with its JSON pointer and exact words.
@Suite struct JSONSchemaRefusalTests {
  /// The keywords of the 2020-12 core, applicator, validation, content, meta-data and
  /// unevaluated vocabularies that recsh does not support, plus older drafts' spellings.
  static let unsupportedKeywords = [
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "prefixItems", "contains",
    "patternProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "multipleOf",
    "maxItems",
    "minItems", "maxContains", "minContains", "maxProperties", "minProperties", "dependentRequired",
    "$anchor",
    "$dynamicAnchor", "$dynamicRef", "$vocabulary", "contentEncoding", "contentMediaType", "contentSchema",
    "deprecated", "writeOnly", "examples", "$recursiveRef", "$recursiveAnchor", "definitions", "dependencies",
    "additionalItems", "reqired",
  ]

  @Test(arguments: unsupportedKeywords)
  func unsupportedKeywordIsRefusedAtTheTopWithItsPointer(_ keyword: String) throws {
    let error = try #require(Self.refusal(of: .object(JSONObject([keyword: .object(JSONObject())]))))
    #expect(error.pointer.description == "/\(keyword)")
    #expect(error.message == "keyword '\(keyword)' is not supported")
  }

  @Test(arguments: unsupportedKeywords)
  func unsupportedKeywordIsRefusedWhenNestedWithItsPointer(_ keyword: String) throws {
    let inner: JSONValue = .object(JSONObject(["type": .string("string"), keyword: .number("1")]))
    let property: JSONValue = .object(JSONObject(["items": inner]))
    let properties: JSONValue = .object(JSONObject(["x~y/z": property]))
    let schema: JSONValue = .object(JSONObject(["properties": properties]))
    let error = try #require(Self.refusal(of: schema))
    #expect(error.pointer.description == "/properties/x~0y~1z/items/\(keyword)")
    #expect(
      error.description == "/properties/x~0y~1z/items/\(keyword): keyword '\(keyword)' is not supported")
  }

  /// A schema, the pointer of the problem, and the message.
  static let badSchemas: [(String, String, String)] = [
    (##""x""##, "/", "a schema must be an object, found a string"),
    ("true", "/", "a boolean schema (true) is not supported; write {} for any value"),
    (##"{"items": false}"##, "/items", "a boolean schema (false) is not supported; write {} for any value"),
    (##"{"properties": {"a": 3}}"##, "/properties/a", "a schema must be an object, found a number"),
    (
      ##"{"type": "text"}"##, "/type",
      ##"unknown type "text" (known: null, boolean, object, array, number, string, integer)"##
    ),
    (
      ##"{"type": ["string", "integer"]}"##, "/type",
      ##"type other than one type or a type and null is not supported: ["string", "integer"]"##
    ),
    (
      ##"{"type": ["null"]}"##, "/type",
      ##"type other than one type or a type and null is not supported: ["null"]"##
    ),
    (
      ##"{"type": ["string", "null", "null"]}"##, "/type",
      ##"type other than one type or a type and null is not supported: ["string", "null", "null"]"##
    ),
    (
      ##"{"type": 3}"##, "/type", ##"type must be a type name, or a list of a type name and "null", found 3"##
    ),
    (
      ##"{"pattern": "[a-"}"##, "/pattern",
      ##"pattern "[a-" is not a valid regular expression: a character class is not closed by ']' at offset 0"##
    ),
    (##"{"minimum": 5, "maximum": 3}"##, "/minimum", "no value can meet both minimum 5 and maximum 3"),
    (
      ##"{"exclusiveMinimum": 3, "maximum": 3}"##, "/exclusiveMinimum",
      "no value can meet both exclusiveMinimum 3 and maximum 3"
    ),
    (
      ##"{"minimum": 3.0, "exclusiveMaximum": 3}"##, "/minimum",
      "no value can meet both minimum 3.0 and exclusiveMaximum 3"
    ),
    (
      ##"{"minLength": 4, "maxLength": 3}"##, "/minLength",
      "no value can meet both minLength 4 and maxLength 3"
    ),
    (
      ##"{"type": "integer", "enum": [1, 2.5]}"##, "/enum/1",
      "enum value 2.5 is not an integer, as the schema's type says"
    ),
    (
      ##"{"type": "string", "const": null}"##, "/const",
      "const value null is not a string, as the schema's type says"
    ),
    (##"{"$ref": "#/$defs/missing"}"##, "/$ref", ##"$ref "#/$defs/missing" points nowhere in the schema"##),
    (
      ##"{"$ref": "#/$defs/a~2"}"##, "/$ref",
      ##"$ref that is not a local JSON pointer is not supported: "#/$defs/a~2"; write "#/$defs/NAME""##
    ),
    (##"{"$ref": "#"}"##, "/$ref", ##"$ref cycle: "#""##),
    (
      ##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}"##, "/$defs/a/$ref",
      ##"$ref cycle: "#/$defs/b" -> "#/$defs/a""##
    ),
    (
      ##"{"$ref": "other.json#/x"}"##, "/$ref",
      ##"$ref that is not a local JSON pointer is not supported: "other.json#/x"; write "#/$defs/NAME""##
    ),
    (
      ##"{"$ref": "#foo"}"##, "/$ref",
      ##"$ref that is not a local JSON pointer is not supported: "#foo"; write "#/$defs/NAME""##
    ),
    (
      ##"{"additionalProperties": {"type": "string"}}"##, "/additionalProperties",
      "additionalProperties other than true/false is not supported"
    ),
    (
      ##"{"format": "uri"}"##, "/format",
      ##"format "uri" is not checked by recsh (only date, date-time and email are)"##
    ),
    (##"{"minLength": "3"}"##, "/minLength", ##"minLength must be a whole number, 0 or more, found "3""##),
    (##"{"maxLength": -1}"##, "/maxLength", "maxLength must be a whole number, 0 or more, found -1"),
    (##"{"minLength": 1.5}"##, "/minLength", "minLength must be a whole number, 0 or more, found 1.5"),
    (##"{"minimum": "1"}"##, "/minimum", ##"minimum must be a number, found "1""##),
    (##"{"required": "a"}"##, "/required", ##"required must be a list of names, found "a""##),
    (##"{"required": ["a", 1]}"##, "/required/1", "required must be a list of names, found 1"),
    (##"{"required": ["a", "a"]}"##, "/required/1", ##"required lists "a" twice"##),
    (##"{"properties": []}"##, "/properties", "properties must be an object of schemas, found []"),
    (##"{"enum": "a"}"##, "/enum", ##"enum must be a list of values, found "a""##),
    (##"{"uniqueItems": "yes"}"##, "/uniqueItems", ##"uniqueItems must be true or false, found "yes""##),
    (##"{"readOnly": 1}"##, "/readOnly", "readOnly must be true or false, found 1"),
    (##"{"title": 3}"##, "/title", "title must be a string, found 3"),
    (##"{"pattern": 3}"##, "/pattern", "pattern must be a string, found 3"),
    (##"{"$ref": 3}"##, "/$ref", "$ref must be a string, found 3"),
    (##"{"items": [{}]}"##, "/items", "a schema must be an object, found an array"),
    (
      ##"{"properties": {"a": {"x-recsh-key": "id"}}}"##, "/properties/a/x-recsh-key",
      "x-recsh-key is only allowed in the top-level schema"
    ),
  ]

  @Test(arguments: badSchemas)
  func badSchemaIsRefusedWithItsPointerAndWords(_ schema: String, _ pointer: String, _ message: String) throws
  {
    let error = try #require(Self.refusal(of: try JSONValue.parse(bytes: Array(schema.utf8))))
    #expect(error.pointer.description == pointer)
    #expect(error.message == message)
  }

  @Test func theFirstProblemInDocumentOrderIsTheOneNamed() throws {
    let schema = #"{"properties": {"a": {"multipleOf": 2}}, "allOf": []}"#
    let error = try #require(Self.refusal(of: try JSONValue.parse(bytes: Array(schema.utf8))))
    #expect(error.pointer.description == "/properties/a/multipleOf")
  }

  static func refusal(of value: JSONValue) -> JSONSchemaError? {
    do {
      _ = try JSONSchema(reading: value)
      return nil
    } catch {
      return error
    }
  }
}
