import Foundation
import Testing

/// A save of many changed records, through the binary: the records' patches are made a
/// batch ahead on two threads (`PatchesAhead`), and the file must be the one the edits make,
/// byte for byte where the edits only set values.
@Suite struct LargeSaveTests {
  /// Ten thousand records (several batches, each split between two threads): every third
  /// gets a new title, some a new priority, some lose their date (a patch refuses a
  /// removed member: written whole), and a record near the start is deleted (every later
  /// record then stands elsewhere than in the file: none patched ahead). A line only set
  /// reads exactly as the model says; every record reads back as the model's.
  @Test(arguments: [false, true])
  func aSaveOfManyChangedRecordsWritesWhatTheEditsMake(deleting: Bool) throws {
    let count = 10_000
    var records: [(id: String, title: String, priority: Int, due: String?)] = (0..<count).map {
      ("r\($0)", "t\($0)", $0 % 5, $0 % 101 == 0 ? "2026-12-07" : nil)
    }
    let line = { (record: (id: String, title: String, priority: Int, due: String?)) -> String in
      #"{"id": "\#(record.id)", "title": "\#(record.title)", "priority": \#(record.priority)"#
        + (record.due.map { #", "due": "\#($0)""# } ?? "") + "}"
    }
    let folder = try TempFolder()
    _ = try folder.write("t.json", "[\n  " + records.map(line).joined(separator: ",\n  ") + "\n]\n")
    var script = ""
    var unset = Set<String>()
    for index in stride(from: 0, to: count, by: 3) {
      script += "use r\(index)\nset title \"x\(index) é\"\n"
      records[index].title = "x\(index) é"
      if index % 7 == 0 {
        script += "set priority 5\n"
        records[index].priority = 5
      }
      if index % 101 == 0 {
        script += "unset due\n"
        records[index].due = nil
        unset.insert(records[index].id)
      }
    }
    if deleting {
      script += "delete r10\n"
      records.remove(at: 10)
    }
    let result = try folder.recsh(["t.json"], stdin: script + "save\n")
    #expect(result.status == 0, "\(result.stderr.prefix(500))")
    let saved = try folder.read("t.json")
    let read = try #require(
      try JSONSerialization.jsonObject(with: Data(saved.utf8)) as? [[String: Any]])
    #expect(read.count == records.count)
    for (record, object) in zip(records, read) {
      #expect(object["id"] as? String == record.id)
      #expect(object["title"] as? String == record.title)
      #expect(object["priority"] as? Int == record.priority)
      #expect(object["due"] as? String == record.due)
    }
    let lines = saved.split(separator: "\n").map {
      $0.trimmingCharacters(in: CharacterSet(charactersIn: " ,"))
    }
    #expect(lines.count == records.count + 2)
    var exact = 0
    for (record, text) in zip(records, lines.dropFirst()) where !unset.contains(record.id) {
      #expect(text == line(record))
      exact += 1
    }
    #expect(exact > count - 200)
  }
}
