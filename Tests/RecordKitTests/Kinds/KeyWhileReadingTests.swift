import Testing

@testable import RecordKit

/// A schema's key given to each record as it is read (`RecordReading.keyIdentity`) against
/// the key given after the read (`FieldTable.runTimeRecord` under the kind): random files
/// whose key members are plain, escaped, empty, numbers or missing, anywhere in the record.
@Suite struct KeyWhileReadingTests {
  static let schemaText = #"""
    {"x-recsh-key": "isbn", "properties": {"isbn": {"type": "string"}, "n": {"type": "integer"}}}
    """#

  /// One record's text: its key member as `style` says (0 missing, 1 escaped, 2 a number,
  /// 3 empty, else plain), beside two others, in a random order; the identity the key
  /// gives it (`nil`: none); and whether the schema refuses it (a number is no string).
  static func record(_ number: Int, style: Int, _ random: inout SplitMix64) -> (
    text: String, id: String?, refused: Bool
  ) {
    var members = [#""n": \#(number)"#, #""title": "t\#(number)""#]
    var id: String?
    switch style {
    case 0:
      id = nil
    case 1:
      members.append(#""isbn": "a\"b\#(number)""#)
      id = "a\"b\(number)"
    case 2:
      members.append(#""isbn": \#(number)"#)
    case 3:
      members.append(#""isbn": """#)
    default:
      members.append(#""isbn": "978-\#(number)""#)
      id = "978-\(number)"
    }
    members.shuffle(using: &random)
    return ("{" + members.joined(separator: ", ") + "}", id, style == 2)
  }

  @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
  func theKeyGivenAsReadIsTheKeyGivenAfter(seed: UInt64) throws {
    let schema = try RecordSchema(reading: JSONValue.parse(bytes: Array(Self.schemaText.utf8)))
    var random = SplitMix64(seed: seed)
    // Seeds 1–3: plain keys only, anywhere in the record; 4–6: now and then another style.
    let records = (0..<200).map { number in
      Self.record(number, style: seed <= 3 || random.next() % 50 != 0 ? 9 : Int(random.next() % 4), &random)
    }
    let plainOnly = records.allSatisfy { $0.id?.contains("\"") == false }
    for layout in [RecordLayout.array, .lines] {
      let texts = records.map(\.text)
      let file = Array(
        (layout == .lines ? texts.joined(separator: "\n") : "[" + texts.joined(separator: ",\n") + "]").utf8)
      for streaming in [true, false] {
        let read = try RunTimeKind.$current.withValue(.unbound) {
          try file.withUnsafeBufferPointer { buffer in
            try RecordFile<RunTimeRecord>.decodeRecordsAndTable(
              buffer, layout: layout, streaming: streaming, readings: nil, inferring: false, keyedBy: "isbn",
              passing: { _ in })
          }
        }
        #expect(read.keyed == (plainOnly && streaming), "\(layout), streaming \(streaming)")
        if read.keyed {
          #expect(read.records.map(\.id) == records.map(\.id))
        }
      }
      // The whole open: identities given as read or after, the same document or error.
      func open(streaming: Bool) -> Result<RunTimeFile.Loaded, RecordFileError> {
        Result { () throws(RecordFileError) in
          try file.withUnsafeBufferPointer { buffer throws(RecordFileError) in
            try RunTimeFile.decode(
              buffer, layout: layout, schema: schema, name: "books", streaming: streaming)
          }
        }
      }
      let opened = open(streaming: true)
      let throughATree = open(streaming: false)
      #expect(
        opened.map { $0.document.records } == throughATree.map { $0.document.records },
        "\(layout): read as it goes and through a tree")
      if let refused = records.firstIndex(where: \.refused) {
        // The schema's check comes first.
        guard case .failure(.violations(let listed, _)) = opened else {
          Issue.record("a record the schema refuses was not refused: \(opened)")
          continue
        }
        #expect(listed.first?.record == refused + 1)
      } else if let bad = records.firstIndex(where: { $0.id == nil }) {
        guard case .failure(.record(let number, _, let error, _)) = opened else {
          Issue.record("a record without a usable key was not refused: \(opened)")
          continue
        }
        #expect(number == bad + 1)
        #expect(error == .missingKey("isbn") || error.description.contains("isbn"), "\(error)")
      } else {
        let document = try opened.get().document
        #expect((0..<document.count).map(document.id(at:)) == records.map(\.id))
      }
    }
  }
}
