import Testing

@testable import RecordKit

/// Records to and from JSON objects through the field tables.
@Suite struct RecordJSONTests {
  @Test func taskKeysAreWrittenIdThenDeclaredThenCustomInFileOrder() throws {
    let object = JSONObject([
      "zeta": .string("z"), "priority": .number("2"), "id": .string("t1"), "alpha": .number("1e3"),
      "title": .string("x"), "due": .null,
    ])
    let record = try TaskRecord.fields.decode(object)
    #expect(record.due == .null)
    #expect(record.custom.keys == ["zeta", "alpha"])
    #expect(TaskRecord.fields.encode(record).keys == ["id", "title", "priority", "due", "zeta", "alpha"])
    #expect(TaskRecord.fields.encode(record)["alpha"] == .number("1e3"), "number spelling kept")
  }

  @Test func contactAddressIsANestedObjectThatKeepsItsUnknownKeys() throws {
    let address = JSONObject(["city": .string("Lyon"), "floor": .number("3"), "street": .string("Rue A")])
    let object = JSONObject(["id": .string("c1"), "name": .string("Ann"), "address": .object(address)])
    let record = try ContactRecord.fields.decode(object)
    #expect(record.address.city == "Lyon")
    #expect(record.address.extra.keys == ["floor"])
    let encoded = ContactRecord.fields.encode(record)
    #expect(encoded.keys == ["id", "name", "address"])
    guard case .object(let inner)? = encoded["address"] else {
      Issue.record("address is not an object")
      return
    }
    #expect(inner.keys == ["street", "city", "floor"])
  }

  @Test func aContactWithoutAddressWritesNone() throws {
    let record = try ContactRecord.fields.decode(JSONObject(["id": .string("c1"), "phone": .string("1")]))
    #expect(ContactRecord.fields.encode(record).keys == ["id", "phone"])
  }

  @Test(arguments: [
    (JSONObject(["title": .string("x")]), "no \"id\""),
    (JSONObject(["id": .number("1")]), "field 'id': expected a non-empty string, found 1"),
    (
      JSONObject(["id": .string("t"), "priority": .string("high")]),
      "field 'priority': expected an integer 0–5, found \"high\""
    ),
    (
      JSONObject(["id": .string("t"), "priority": .number("2.0")]),
      "field 'priority': expected an integer 0–5, found 2.0"
    ),
    (
      JSONObject(["id": .string("t"), "done": .string("true")]),
      "field 'done': expected true or false, found \"true\""
    ),
    (JSONObject(["id": .string("t"), "title": .null]), "field 'title': expected a string, found null"),
    (
      JSONObject(["id": .string("t"), "tags": .array([.number("1")])]),
      "field 'tags': expected a list of strings like [a, \"b c\"], found [1]"
    ),
  ])
  func aRecordThatDoesNotFitTheKindIsRefusedNamingTheField(object: JSONObject, message: String) {
    #expect(throws: RecordDecodingError.self) { try TaskRecord.fields.decode(object) }
    do {
      _ = try TaskRecord.fields.decode(object)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func contactAddressMustBeAnObject() {
    #expect(
      throws: RecordDecodingError.field(
        .invalidValue(field: "address", expected: "an object", found: "\"x\""))
    ) {
      try ContactRecord.fields.decode(JSONObject(["id": .string("c"), "address": .string("x")]))
    }
  }
}
