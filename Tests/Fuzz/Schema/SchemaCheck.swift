import RecordKit

/// What must hold for any bytes read as a JSON Schema: a thrown error is an answer, a
/// trap or a failed precondition is a bug.
///
/// - A refusal names a pointer to a place in the document (the keyword at fault).
/// - A schema that reads makes a kind: its table, its fields' completions and rules, a
///   field's check of a few values, and a whole record's check run to the end.
enum SchemaCheck {
  static let samples: [JSONValue] = [
    .null, .bool(true), .number("0"), .number("-1.5e3"), .number("12345678901234567890"), .string(""),
    .string("2026-12-01"), .string("a@b.org"), .array([.string("x"), .string("x")]),
    .object(JSONObject(["a": .number("1")])),
  ]

  static func check(_ bytes: [UInt8]) {
    guard let document = try? JSONValue.parse(bytes: bytes) else { return }
    let schema: RecordSchema
    do {
      schema = try RecordSchema(reading: document)
    } catch {
      _ = error.description
      precondition(error.pointer.value(in: document) != nil, "a refusal points outside the schema: \(error)")
      return
    }
    let kind = RunTimeKind(
      name: "fuzz", schema: schema, key: RunTimeKind.chooseKey(schema: schema, ids: [], recordCount: 0))
    for field in kind.table.fields {
      _ = field.completions
      _ = field.rules
      _ = field.type.name
    }
    for sample in samples {
      _ = schema.schema.violations(of: sample, limit: 5)
      var members: [JSONObject.Member] = []
      for field in schema.fields.prefix(8) {
        members.append(JSONObject.Member(key: field.name, value: sample))
      }
      _ = kind.violations(of: RunTimeRecord(id: "#1", members: members), limit: 20)
    }
    _ = kind.table.schemaDocument(title: "fuzz")
  }
}
