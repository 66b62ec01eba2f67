import Testing

@testable import RecordKit

/// `Document.removeAll(at:)` and `insertAll`, which `delete where` and its undo use,
/// against a plain array: random documents (some records inserted later, so numbers are
/// not positions), random ascending positions; after each, every id and number is found
/// where the array says, and putting the records back gives the document as it was.
@Suite struct BulkDocumentTests {
  @Test func removingAndPuttingBackManyRecordsKeepsEveryLookupRight() throws {
    var generator = SplitMix64(seed: 15)
    for _ in 0..<300 {
      let count = Int(generator.next() % 40)
      var document = try Document(records: (0..<count).map { TaskRecord(id: "r\($0)") })
      // A few records made later, in the middle: their numbers come after the file's.
      for extra in 0..<Int(generator.next() % 4) {
        let position = Int(generator.next() % UInt64(document.count + 1))
        document.insert(TaskRecord(id: "n\(extra)"), numbered: document.nextNumber, at: position)
      }
      let ids = document.records.map(\.id)
      let numbers = document.numbers
      let positions = document.records.indices.filter { _ in generator.next() % 3 == 0 }

      let removed = document.removeAll(at: positions)
      let keptIndexes = ids.indices.filter { !positions.contains($0) }
      #expect(document.records.map(\.id) == keptIndexes.map { ids[$0] })
      #expect(document.numbers == keptIndexes.map { numbers[$0] })
      #expect(removed.records.map(\.id) == positions.map { ids[$0] })
      #expect(removed.numbers == positions.map { numbers[$0] })
      Self.expectLookups(document)
      for position in positions {
        #expect(document.position(ofID: ids[position]) == nil)
        #expect(document.position(of: numbers[position]) == nil)
      }

      document.insertAll(removed.records, numbered: removed.numbers, at: positions)
      #expect(document.records.map(\.id) == ids)
      #expect(document.numbers == numbers)
      Self.expectLookups(document)
    }
  }

  /// Every record is found by its id and by its number, at its position.
  static func expectLookups(_ document: Document<TaskRecord>) {
    for (position, record) in document.records.enumerated() {
      #expect(document.position(ofID: record.id) == position)
      #expect(document.position(of: document.numbers[position]) == position)
    }
  }
}
