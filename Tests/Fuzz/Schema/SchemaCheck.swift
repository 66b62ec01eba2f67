import RecordKit

/// What must hold for any bytes read as a JSON Schema: a thrown error is an answer, a
/// trap or a failed precondition is a bug.
///
/// - A refusal names a pointer to a place in the document (the keyword at fault).
/// - A schema that reads makes a kind: its table, its fields' completions and rules, a
///   field's check of a few values, and a whole record's check run to the end; the check
///   of a value's canonical text gives the tree checker's answer for each sample, the
///   schema document itself among them.
/// - The bytes as a pattern and a value (split at the first line break): a pattern that
///   compiles matches the value, and the value repeated to 10,000 bytes, within its bound
///   (libFuzzer's `-timeout` finds a hang), and a plain-text pattern agrees with PCRE2.
enum SchemaCheck {
  static let samples: [JSONValue] = [
    .null, .bool(true), .number("0"), .number("-1.5e3"), .number("12345678901234567890"), .string(""),
    .string("2026-12-01"), .string("a@b.org"), .array([.string("x"), .string("x")]),
    .object(JSONObject(["a": .number("1")])),
  ]

  static func check(_ bytes: [UInt8]) {
    checkPattern(bytes)
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
    for sample in samples + [document] {
      let found = schema.schema.violations(of: sample, limit: 5)
      var members: [JSONObject.Member] = []
      for field in schema.fields.prefix(8) {
        members.append(JSONObject.Member(key: field.name, value: sample))
      }
      let record = JSONValue.object(JSONObject(members))
      _ = kind.violations(of: RunTimeRecord(id: "#1", members: members), limit: 20)
      // The check of a record's text, as a file opens, answers as the tree checker does.
      precondition(
        schema.schema.admits(canonicalTextOf: sample) == found.isEmpty,
        "the text's check disagrees with the tree's on \(sample.compactText)")
      let recordPasses = schema.schema.violations(of: record, limit: 1).isEmpty
      precondition(
        schema.schema.admits(canonicalTextOf: record) == recordPasses,
        "the text's check disagrees with the tree's on \(record.compactText)")
    }
    _ = kind.table.schemaDocument(title: "fuzz")
  }

  static func checkPattern(_ bytes: [UInt8]) {
    let split = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let source = String(decoding: bytes[..<split], as: UTF8.self)
    let value = String(decoding: bytes[split...].dropFirst(), as: UTF8.self)
    guard let pattern = try? SchemaPattern(source) else { return }
    let long = String(repeating: value.isEmpty ? "a" : value, count: 10_000 / max(value.utf8.count, 1) + 1)
    for text in [value, long, ""] {
      let answer = pattern.match(text)
      if answer != .tooCostly {
        precondition(answer == pattern.programMatch(text), "the plain-text shortcut disagrees with PCRE2")
      }
    }
  }
}
