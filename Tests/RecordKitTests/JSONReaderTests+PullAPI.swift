import Testing

@testable import RecordKit

/// The pull API: decoding records straight from bytes, as the storage layer does.
extension JSONReaderTests {
  struct Task: Equatable {
    var id = ""
    var title = ""
    var done = false
    var priority = ""
    var tags: [String] = []
    var due: String?
    var custom = JSONObject()
  }

  struct CallerError: Error, Equatable {
    let position: JSONPosition
  }

  static let tasks = """
    [
      {"id": "a1", "title": "Buy milk", "done": false, "priority": 2, "tags": ["home", "errand"],
       "due": null, "x-note": {"k": [1, 2.50]}},
      {"id": "b2", "title": "Call \\"Mom\\"", "done": true, "priority": 0, "tags": [], "due": "2026-12-01"}
    ]
    """

  static func readTasks(_ text: String) throws -> [Task] {
    try JSONReader.withReader(over: Array(text.utf8)) { reader in
      var tasks: [Task] = []
      try reader.readArray { reader in
        var task = Task()
        try reader.readObject { reader, key in
          switch key {
          case "id": task.id = try reader.readString()
          case "title": task.title = try reader.readString()
          case "done": task.done = try reader.readBool()
          case "priority": task.priority = try reader.readNumberSpelling()
          case "tags": try reader.readArray { reader in task.tags.append(try reader.readString()) }
          case "due": task.due = try reader.readNullIfPresent() ? nil : try reader.readString()
          default: task.custom[key] = try reader.readValue()
          }
        }
        tasks.append(task)
      }
      try reader.finish()
      return tasks
    }
  }

  @Test func recordsDecodeStraightFromBytesWithoutATree() throws {
    let tasks = try Self.readTasks(Self.tasks)
    #expect(
      tasks == [
        Task(
          id: "a1", title: "Buy milk", done: false, priority: "2", tags: ["home", "errand"], due: nil,
          custom: JSONObject(["x-note": .object(JSONObject(["k": .array([.number("1"), .number("2.50")])]))])),
        Task(id: "b2", title: "Call \"Mom\"", done: true, priority: "0", tags: [], due: "2026-12-01"),
      ])
  }

  @Test func positionIsTheKeyBeforeItsValueIsReadAndTheValueAfter() throws {
    let source = "[\n  {\"id\": \"a\",\n   \"priority\":   \"high\"}\n]"
    var positions: [String] = []
    try JSONReader.withReader(over: Array(source.utf8)) { reader in
      try reader.readArray { reader in
        try reader.readObject { reader, key in
          positions.append("\(key)@\(reader.position)")
          _ = try reader.peek()
          positions.append("value@\(reader.position)")
        }
      }
    }
    #expect(positions == ["id@2:4", "value@2:10", "priority@3:4", "value@3:18"])
  }

  @Test func callerErrorsCarryThePositionAndPassThroughUnchanged() {
    let source = "[{\"priority\": 9}]"
    #expect(throws: CallerError(position: JSONPosition(line: 1, column: 15, offset: 14))) {
      try JSONReader.withReader(over: Array(source.utf8)) { reader in
        try reader.readArray { reader in
          try reader.readObject { reader, _ in
            _ = try reader.readNumberSpelling()
            throw CallerError(position: reader.position)
          }
        }
      }
    }
  }

  @Test func wrongKindOfValueIsATypeMismatchAtTheValue() {
    let source = "{\"priority\": \"high\"}"
    #expect(
      throws: JSONSyntaxError(
        .typeMismatch(expected: .number, found: .string), at: JSONPosition(line: 1, column: 14, offset: 13))
    ) {
      try JSONReader.withReader(over: Array(source.utf8)) { reader in
        try reader.readObject { reader, _ in _ = try reader.readNumberSpelling() }
      }
    }
    let error = JSONSyntaxError(
      .typeMismatch(expected: .number, found: .string), at: JSONPosition(line: 1, column: 1, offset: 0))
    #expect(error.message == "expected a number, found a string")
  }

  @Test func duplicateKeyIsRefusedBeforeTheBodySeesIt() {
    var keys: [String] = []
    #expect(throws: JSONSyntaxError(.duplicateKey("a"), at: JSONPosition(line: 1, column: 8, offset: 7))) {
      try JSONReader.withReader(over: Array(#"{"a":1,"a":2}"#.utf8)) { reader in
        try reader.readObject { _, key in keys.append(key) }
      }
    }
    #expect(keys == ["a"])
  }

  /// The step from a comma to the next key or element is taken at once after a line
  /// break or a space and up to seven spaces more: the same keys and elements as the
  /// general step, and the same errors at the same places when none follows (a trailing
  /// comma, the end).
  @Test(arguments: ["\n", " "], 0...10)
  func whatFollowsACommaAndSpacesIsReadAsEverywhere(lead: String, spaces: Int) throws {
    let gap = lead + String(repeating: " ", count: spaces)
    var keys: [String] = []
    try JSONReader.withReader(over: Array(#"{"a": 1,\#(gap)"b": 2,"c": 3,\#(gap)"d": 4}"#.utf8)) { reader in
      try reader.readObject { reader, key in
        keys.append(key)
        try reader.skipValue()
      }
    }
    #expect(keys == ["a", "b", "c", "d"])
    let list = try JSONValue.parse(bytes: Array(#"[1,\#(gap)"b",[],\#(gap){},\#(gap)null]"#.utf8))
    #expect(list == .array([.number("1"), .string("b"), .array([]), .object(JSONObject()), .null]))
    let trailing: [(text: String, closer: Unicode.Scalar, offset: Int)] = [
      (#"{"a": 1,\#(gap)}"#, "}", 7), (#"[1, 2,\#(gap)]"#, "]", 5),
    ]
    for (text, closer, offset) in trailing {
      #expect(
        throws: JSONSyntaxError(
          .trailingComma(before: closer), at: JSONPosition(line: 1, column: offset + 1, offset: offset))
      ) {
        _ = try JSONValue.parse(bytes: Array(text.utf8))
      }
    }
    for cut in [#"{"a": 1,\#(gap)"#, #"[1,\#(gap)"#] {
      #expect(throws: JSONSyntaxError.self) { _ = try JSONValue.parse(bytes: Array(cut.utf8)) }
    }
  }

  @Test func unreadValuesAreSkippedButStillChecked() throws {
    var count = 0
    try JSONReader.withReader(over: Array(#"[1, {"x": [2]}, "s", null]"#.utf8)) { reader in
      try reader.readArray { _ in count += 1 }
      try reader.finish()
    }
    #expect(count == 4)
    #expect(
      throws: JSONSyntaxError(.trailingComma(before: "]"), at: JSONPosition(line: 1, column: 9, offset: 8))
    ) {
      try JSONReader.withReader(over: Array(#"[{"a":[1,]}]"#.utf8)) { reader in
        try reader.readArray { _ in }
      }
    }
  }

  @Test func peekReportsEachKindWithoutConsumingIt() throws {
    let source = #"[null, true, -1, "s", [], {}]"#
    var kinds: [JSONReader.Kind] = []
    try JSONReader.withReader(over: Array(source.utf8)) { reader in
      try reader.readArray { reader in
        kinds.append(try reader.peek())
        kinds.append(try reader.peek())
      }
    }
    #expect(
      kinds == [
        .null, .null, .bool, .bool, .number, .number, .string, .string, .array, .array, .object, .object,
      ])
  }

  @Test func finishRefusesTrailingContentAndAnEmptyDocument() {
    #expect(
      throws: JSONSyntaxError(.unexpectedAfterDocument("x"), at: JSONPosition(line: 2, column: 1, offset: 5))
    ) {
      try JSONReader.withReader(over: Array("true\nx".utf8)) { reader in
        _ = try reader.readBool()
        try reader.finish()
      }
    }
    #expect(throws: JSONSyntaxError(.emptyDocument, at: JSONPosition(line: 1, column: 3, offset: 2))) {
      try JSONReader.withReader(over: Array("  ".utf8)) { reader in try reader.finish() }
    }
  }

  @Test func literalsAndNullReadAsThemselves() throws {
    let values = try JSONReader.withReader(over: Array("[true, false, null]".utf8)) { reader in
      var values: [String] = []
      try reader.readArray { reader in
        switch try reader.peek() {
        case .bool: values.append(String(try reader.readBool()))
        default:
          try reader.readNull()
          values.append("null")
        }
      }
      return values
    }
    #expect(values == ["true", "false", "null"])
  }

  @Test func positionsAskedOutOfOrderAreStillRight() throws {
    let source = "[\n\"a\",\n\"b\"]"
    try JSONReader.withReader(over: Array(source.utf8)) { reader in
      var positions: [JSONPosition] = []
      try reader.readArray { reader in
        positions.append(reader.position)
        _ = try reader.readString()
      }
      #expect(positions.map(\.description) == ["2:1", "3:1"])
      #expect(reader.position(at: 0) == JSONPosition(line: 1, column: 1, offset: 0))
      #expect(reader.position(at: 3) == JSONPosition(line: 2, column: 2, offset: 3))
    }
  }
}
