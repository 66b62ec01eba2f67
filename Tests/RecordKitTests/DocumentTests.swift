import Testing

@testable import RecordKit

@Suite struct DocumentTests {
  static func document() throws -> Document<TaskRecord> {
    try Document(records: ["k3x9p2aa", "k3x9zz11", "m0000001", "b7"].map(TaskRecord.init(id:)))
  }

  @Test(arguments: [
    ("k3x9p2aa", 0), ("k3x9p", 0), ("k3x9z", 1), ("m", 2), ("@1", 0), ("@4", 3), ("b7", 3), ("b", 3),
  ])
  func refResolvesToAPosition(ref: String, position: Int) throws {
    #expect(try Self.document().resolve(ref) == position)
  }

  @Test(arguments: [
    ("zz", "no record with id or id prefix 'zz'"),
    ("k3x9", "'k3x9' matches several records (k3x9p2aa, k3x9zz11); type more of the id"),
    ("@0", "'@0' is not a position; write @1 for the first record"),
    ("@x", "'@x' is not a position; write @1 for the first record"),
    ("@5", "no record @5: the file has 4 records"),
    ("", "no record with id or id prefix ''"),
  ])
  func badRefIsExplained(ref: String, message: String) throws {
    let document = try Self.document()
    #expect(throws: (any Error).self) { try document.resolve(ref) }
    do {
      _ = try document.resolve(ref)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func anExactIdWinsOverAPrefixOfLongerIds() throws {
    let document = try Document(records: ["ab", "abc", "abd"].map(TaskRecord.init(id:)))
    #expect(try document.resolve("ab") == 0)
  }

  @Test func ambiguityListsAtMostFiveCandidates() throws {
    let document = try Document(records: (1...9).map { TaskRecord(id: "x\($0)") })
    #expect(throws: RefError.ambiguous("x", candidates: ["x1", "x2", "x3", "x4", "x5", "x6"])) {
      try document.resolve("x")
    }
    #expect(
      RefError.ambiguous("x", candidates: ["x1", "x2", "x3", "x4", "x5", "x6"]).description
        == "'x' matches several records (x1, x2, x3, x4, x5, …); type more of the id")
  }

  @Test func duplicateIdsAreRefusedNamingBothPositions() {
    #expect(throws: DocumentError.duplicateID("a", first: 1, second: 3)) {
      try Document(records: ["a", "b", "a"].map(TaskRecord.init(id:)))
    }
  }

  @Test func newIdsAreLowercaseUniqueAndAtLeastEightCharacters() throws {
    var generator = SplitMix64(seed: 7)
    var document = Document<TaskRecord>()
    var seen: Set<String> = []
    for _ in 0..<2000 {
      let id = document.newID(using: &generator)
      #expect(id.count >= 8)
      #expect(id.allSatisfy { $0.isLowercase || $0.isNumber })
      #expect(seen.insert(id).inserted)
      document.insert(TaskRecord(id: id), numbered: document.nextNumber, at: document.count)
    }
  }

  /// A generator that repeats itself forces the collision path.
  struct StuckGenerator: RandomNumberGenerator {
    mutating func next() -> UInt64 { 1 }
  }

  @Test func idGenerationGrowsTheIdWhenShortOnesCollide() throws {
    var generator = StuckGenerator()
    var document = Document<TaskRecord>()
    let first = document.newID(using: &generator)
    document.insert(TaskRecord(id: first), numbered: document.nextNumber, at: 0)
    let second = document.newID(using: &generator)
    #expect(first == "aaaaaaaa")
    #expect(second == "aaaaaaaaaa")
  }

  @Test func indexFollowsInsertsAndRemovals() throws {
    var document = try Self.document()
    document.remove(at: 1)
    #expect(document.position(ofID: "m0000001") == 1)
    #expect(document.position(ofID: "k3x9zz11") == nil)
    document.insert(TaskRecord(id: "new"), numbered: document.nextNumber, at: 0)
    #expect(document.position(ofID: "b7") == 3)
    #expect(document.record(withID: "new")?.id == "new")
  }
}

/// The id index and the record numbers under random inserts and removals at random
/// positions (so probe runs wrap, grow and close up after deletions): every id and
/// every number is found where the array has it, removed ones are not found, and a
/// number is never given twice.
@Suite struct DocumentIndexTests {
  @Test func lookupsMatchTheArrayThroughInsertsAndRemovals() throws {
    var generator = SplitMix64(seed: 41)
    var document = try Document(records: (0..<20).map { TaskRecord(id: "r\($0)") })
    var removed: [String] = []
    var removedNumbers: [RecordNumber] = []
    var given = Set((0..<20).map { RecordNumber(UInt32($0)) })
    var next = 20
    for step in 0..<3_000 {
      if document.count > 0, Int.random(in: 0..<5, using: &generator) < 2 {
        let position = Int.random(in: 0..<document.count, using: &generator)
        removed.append(document.id(at: position))
        removedNumbers.append(document.number(at: position))
        document.remove(at: position)
      } else {
        let position = Int.random(in: 0...document.count, using: &generator)
        let number = document.nextNumber
        #expect(given.insert(number).inserted, "step \(step): number \(number) given twice")
        document.insert(TaskRecord(id: "r\(next)"), numbered: number, at: position)
        next += 1
      }
      guard step % 97 == 0 || step > 2_990 else { continue }
      for (position, record) in document.records.enumerated() {
        #expect(document.position(ofID: record.id) == position, "step \(step), id \(record.id)")
        #expect(
          document.position(of: document.number(at: position)) == position, "step \(step), @\(position)")
      }
      for id in removed.suffix(50) { #expect(!document.contains(id: id), "step \(step), removed \(id)") }
      for number in removedNumbers.suffix(50) {
        #expect(document.position(of: number) == nil, "step \(step), removed number \(number)")
      }
    }
    #expect(document.count > 500)
  }

  @Test func numbersStayWithTheirRecordsAndAreKeptAsRunsForTheJournal() throws {
    var document = try Document(records: ["a", "b", "c", "d"].map(TaskRecord.init(id:)))
    #expect(document.numberRuns == nil, "a file just read is numbered 0, 1, 2…")
    document.remove(at: 1)
    document.insert(TaskRecord(id: "e"), numbered: document.nextNumber, at: 0)
    #expect(document.numbers == [4, 0, 2, 3].map(RecordNumber.init))
    let runs = try #require(document.numberRuns)
    #expect(
      runs == [
        NumberRun(first: RecordNumber(4), count: 1), NumberRun(first: RecordNumber(0), count: 1),
        NumberRun(first: RecordNumber(2), count: 2),
      ])
    // Read again (as a replay reads the saved file) and renumbered by the runs.
    let reread = try Document(records: document.records)
    let renumbered = try Document(renumbering: reread, by: runs)
    #expect(renumbered.numbers == document.numbers)
    #expect(renumbered.position(of: RecordNumber(4)) == 0 && renumbered.position(of: RecordNumber(1)) == nil)
    #expect(renumbered.nextNumber == RecordNumber(5))
    #expect(throws: DocumentError.numberingMismatch(records: 4, numbers: 3)) {
      try Document(
        renumbering: reread, by: Array(runs.dropLast()) + [NumberRun(first: RecordNumber(2), count: 1)])
    }
  }

  @Test func aDuplicateIDNamesBothPositions() {
    #expect(throws: DocumentError.duplicateID("b", first: 2, second: 4)) {
      try Document(records: ["a", "b", "c", "b"].map(TaskRecord.init(id:)))
    }
  }
}
