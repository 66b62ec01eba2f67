import Foundation
import Testing

@testable import RecordKit

/// A record changed only by one-field `set`s is marked with the fields they wrote
/// (`ChangeMarks.mark(_:field:)`), and a save compares only those members with the file's
/// (`MemberPatch`). Random edits of every kind — one-field and several-field sets, unsets,
/// list edits, custom keys, new and deleted records, undo and redo — then a save that
/// trusts the marks writes exactly what a save that compares every member of every record
/// writes (an image of another lineage), and reads back as the document's records.
@Suite struct FieldMarksTests {
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func aSaveByTheMarksWritesWhatComparingEverythingWrites(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    let texts = (0..<40).map { index in
      FieldPatchTests.recordText(&random).replacingOccurrences(of: #""r1""#, with: #""r\#(index)""#)
    }
    let bytes = Array(("[\n  " + texts.joined(separator: ",\n  ") + "\n]\n").utf8)
    var editor = Editor(document: try RecordFile<TaskRecord>.decode(bytes).document)
    let loaded = editor.document
    let ids = (0..<loaded.count).map(loaded.id(at:))
    let trusted = try #require(
      FileImage(written: bytes, layout: .array, ids: IDList(ids), lineage: editor.document.lineage))
    let other = try #require(
      FileImage(written: bytes, layout: .array, ids: IDList(ids), lineage: editor.document.lineage &+ 1))
    var compared = 0
    var batchesMade = 0
    for round in 0..<400 {
      let count = editor.document.count
      let position = count == 0 ? 0 : Int(random.next() % UInt64(count))
      let id = count == 0 ? "none" : editor.document.id(at: position)
      switch random.next() % 12 {
      case 0, 1, 2:
        _ = try? editor.set(
          [FieldAssignment("title", .quoted(pick(["Call Ann", "café", "t\(round)"])))], at: position)
      case 3, 4:
        _ = try? editor.set([FieldAssignment("priority", .word(String(random.next() % 6)))], at: position)
      case 5:
        _ = try? editor.set(
          [FieldAssignment(pick(["done", "due", "detail"]), .word(pick(["true", "null", "x"])))], at: position
        )
      case 6:
        _ = try? editor.set(
          [FieldAssignment("priority", .word("2")), FieldAssignment("done", .word("false"))], at: position)
      case 7:
        _ = try? editor.editList(
          "tags", .word(pick(["a", "p", "z"])), adding: random.next() % 2 == 0, onRecord: id)
      case 8:
        _ = try? editor.set(
          [FieldAssignment("color", .quoted("green"), createsCustomField: true)], at: position)
        _ = try? editor.unset(pick(["color", "due", "tags"]), onRecord: id)
      case 9:
        _ = try? editor.undo(Int(random.next() % 3) + 1)
      case 10:
        _ = try? editor.redo(Int(random.next() % 3) + 1)
      default:
        if random.next() % 2 == 0 {
          _ = try? editor.newRecord(id: "n\(round)", [FieldAssignment("title", .quoted("new"))])
        } else if count > 0 {
          _ = try? editor.deleteRecord(at: position)
        }
      }
      guard round % 20 == 19 else { continue }
      let byMarks = try #require(trusted.rewrite(editor.document).heldBytes)
      let byComparing = try #require(other.rewrite(editor.document).heldBytes)
      // As text, so that a difference reads.
      #expect(
        String(decoding: byMarks, as: UTF8.self) == String(decoding: byComparing, as: UTF8.self),
        "seed \(seed), round \(round)")
      #expect(try RecordFile<TaskRecord>.decode(byMarks).document.records == editor.document.records)
      // Patched ahead, in batches of every size, by parts run in either order: the same file.
      for batchSize in [1, 3, 16, 64] {
        let ahead = try Self.rewrite(editor.document, over: trusted, batchSize: batchSize)
        let aheadComparing = try Self.rewrite(editor.document, over: other, batchSize: batchSize)
        #expect(ahead.bytes == byMarks, "seed \(seed), round \(round), batches of \(batchSize)")
        #expect(aheadComparing.bytes == byComparing, "seed \(seed), round \(round), batches of \(batchSize)")
        batchesMade += ahead.batches + aheadComparing.batches
      }
      compared += 1
    }
    #expect(compared == 20)
    #expect(batchesMade > 100)
  }

  /// `image.rewrite(document)` with the changed records patched ahead (`PatchesAhead`) in
  /// batches of `batchSize`, the parts run one after the other, the last first; the plan
  /// must be the one a save without patches ahead makes. Returns the bytes and how many
  /// batches were made.
  static func rewrite(_ document: Document<TaskRecord>, over image: FileImage, batchSize: Int) throws -> (
    bytes: [UInt8], batches: Int
  ) {
    let held = try #require(image.heldBytes)
    var ran = 0
    let ahead = PatchesAhead<TaskRecord>(batchSize: batchSize) { parts, work in
      for part in (0..<parts).reversed() { work(part) }
      ran += 1
    }
    var written: [UInt8] = []
    let plan = held.withUnsafeBufferPointer { bytes in
      image.rewrite(document, in: bytes, chunkSize: 100, ahead: ahead) { written += $0 }
    }
    let alone = held.withUnsafeBufferPointer { bytes in
      image.rewrite(document, in: bytes, chunkSize: 100) { _ in }
    }
    #expect(plan.byteCount == alone.byteCount)
    #expect(plan.placement?.spans == alone.placement?.spans)
    #expect(plan.placement?.inner == alone.placement?.inner)
    #expect((0..<plan.ids.count).map { plan.ids[$0] } == (0..<alone.ids.count).map { alone.ids[$0] })
    return (written, ran)
  }

  @Test func aWholeMarkIsNeverNarrowed() {
    var marks = ChangeMarks()
    let (a, b, c) = (RecordNumber(3), RecordNumber(70), RecordNumber(200))
    #expect(marks.fields(of: a) == 0)
    marks.mark(a)
    marks.mark(b, field: 2)
    // `a` was marked whole before the field words reached it.
    #expect(marks.fields(of: a) == ~0)
    marks.mark(a, field: 1)
    #expect(marks.fields(of: a) == ~0)
    #expect(marks.fields(of: b) == 1 << 2)
    marks.mark(b, field: 5)
    #expect(marks.fields(of: b) == 1 << 2 | 1 << 5)
    marks.mark(b)
    #expect(marks.fields(of: b) == ~0)
    marks.mark(c, field: 64)
    #expect(marks.fields(of: c) == ~0)
    #expect(marks.fields(of: RecordNumber(100)) == 0)
    #expect(marks.contains(c) && !marks.contains(RecordNumber(100)))
  }
}
