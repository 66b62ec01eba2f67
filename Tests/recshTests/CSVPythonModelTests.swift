import Foundation
import Testing

@testable import RecordShell

/// recsh against Python's csv module, through the binary: random tables (quotes,
/// delimiters, line breaks and non-ASCII in cells) written by Python in several dialects
/// read in recsh as the table; then random cells set in recsh and the file saved, Python
/// reads the table the model says.
@Suite struct CSVPythonModelTests {
  /// Writes `model.json` (`{"rows": [[cell]], "delimiter", "lineterminator", "quoting"}`) as
  /// `t.csv`, or reads `t.csv` back into `back.json` (a list of rows, the header first).
  static let python = """
    import csv, json, sys
    if sys.argv[1] == "write":
        model = json.load(open("model.json", encoding="utf-8"))
        with open("t.csv", "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, delimiter=model["delimiter"], lineterminator=model["lineterminator"],
                           quoting=csv.QUOTE_ALL if model["quoting"] == "all" else csv.QUOTE_MINIMAL)
            w.writerows(model["rows"])
    else:
        with open("t.csv", newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f, delimiter=sys.argv[2]))
        json.dump(rows, open("back.json", "w", encoding="utf-8"))
    """

  struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
    /// A cell: letters first (so no column reads as numbers), then pieces that need quotes.
    mutating func cell() -> String {
      var text = pick(["a", "Café", "東京", "x y", "q"])
      for _ in 0..<Int(next() % 4) {
        text += pick([",", ";", "\"", "\n", "\r\n", " ", "👍🏽", "b", "\"\"", "'"])
      }
      return text
    }
  }

  @Test func randomTablesReadAndEditAsPythonsCSVModuleSays() throws {
    var generator = Generator(state: 0x29_2026)
    let folder = try TempFolder()
    _ = try folder.write("model.py", Self.python)
    for round in 0..<24 {
      let delimiter = generator.pick([",", ";"])
      let terminator = generator.pick(["\n", "\r\n"])
      let columns = 2 + Int(generator.next() % 3)
      let header = ["id"] + (1..<columns).map { "c\($0)" }
      var rows = (0..<(1 + Int(generator.next() % 6))).map { row in
        ["r\(row)"] + (1..<columns).map { _ in generator.cell() }
      }
      let model: [String: Any] = [
        "rows": [header] + rows, "delimiter": delimiter, "lineterminator": terminator,
        "quoting": generator.pick(["minimal", "all"]),
      ]
      try JSONSerialization.data(withJSONObject: model).write(
        to: URL(fileURLWithPath: folder.path("model.json")))
      let written = try RecshBinary.runShell("python3 model.py write", directory: folder.url)
      #expect(written.status == 0, "python3: \(written.stderr)")
      let original = try Data(contentsOf: URL(fileURLWithPath: folder.path("t.csv")))

      // recsh reads the table Python wrote.
      let listed = try folder.recsh(["t.csv", "--format", "jsonl", "-c", "list"])
      #expect(listed.status == 0, "round \(round): \(listed.stderr)")
      let read = try listed.stdout.split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
      }
      let expected = rows.map { row in
        Dictionary(uniqueKeysWithValues: zip(header, row).filter { !$0.1.isEmpty })
      }
      #expect(read.map { $0.filter { !$0.value.isEmpty } } == expected, "round \(round): \(listed.stdout)")

      // recsh sets random cells; Python reads the model's table back.
      var script: [String] = []
      for _ in 0..<Int(1 + generator.next() % 3) {
        let row = Int(generator.next() % UInt64(rows.count))
        let column = 1 + Int(generator.next() % UInt64(columns - 1))
        let text = generator.cell()
        rows[row][column] = text
        script.append("use r\(row); set c\(column) \(ScriptWords.quoted(text))")
      }
      let edited = try folder.recsh(["t.csv", "-c", (script + ["save"]).joined(separator: "\n")])
      #expect(edited.status == 0, "round \(round): \(edited.stderr)")
      let readBack = try RecshBinary.runShell("python3 model.py read '\(delimiter)'", directory: folder.url)
      #expect(readBack.status == 0, "python3: \(readBack.stderr)")
      let back = try #require(
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: URL(fileURLWithPath: folder.path("back.json"))))
          as? [[String]])
      #expect(back == [header] + rows, "round \(round): \(script)")

      // The header row keeps its bytes.
      let now = String(
        decoding: try Data(contentsOf: URL(fileURLWithPath: folder.path("t.csv"))), as: UTF8.self)
      let before = String(decoding: original, as: UTF8.self)
      let headerRow = before.prefix { !$0.isNewline }
      #expect(
        headerRow.count < before.count && now.hasPrefix(headerRow), "round \(round): the header changed")
    }
  }
}
