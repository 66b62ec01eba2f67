import Testing

@testable import RecordKit

/// `TextBlock` and `TextArena`: texts stored front to back into shared blocks, each read
/// back as stored; a text that does not fit starts a new block (of its own size when it is
/// longer than a block); and `CustomFields` made in an arena are equal, read and edited as
/// those made one by one.
@Suite struct TextBlockTests {
  @Test func aBlockTakesTextsUntilFullAndGivesEachBack() {
    let block = TextBlock.make(capacity: 10)
    #expect(block.used == 0)
    #expect(block.capacity >= 10)
    let first = [UInt8]("abcd".utf8).withUnsafeBufferPointer { block.append($0) }
    let second = [UInt8]("efghij".utf8).withUnsafeBufferPointer { block.append($0) }
    #expect(first == 0)
    #expect(second == 4)
    #expect(block.used == 10)
    // The allocator may give more room than asked: a text one byte longer than what is left
    // does not fit, one of exactly what is left does.
    let left = block.capacity - block.used
    let tooLong = [UInt8](repeating: 1, count: left + 1).withUnsafeBufferPointer { block.append($0) }
    #expect(tooLong == nil)
    #expect(block.used == 10)
    let rest = [UInt8](repeating: 2, count: left).withUnsafeBufferPointer { block.append($0) }
    #expect(rest == 10)
    #expect(block.used == block.capacity)
    #expect(block.withBytes(from: 0, count: 4) { Array($0) } == Array("abcd".utf8))
    #expect(block.withBytes(from: 4, count: 6) { Array($0) } == Array("efghij".utf8))
    #expect(block.withBytes(from: 10, count: left) { Array($0) } == [UInt8](repeating: 2, count: left))
    let empty = [UInt8]().withUnsafeBufferPointer { block.append($0) }
    #expect(empty == block.capacity, "an empty text fits a full block")
  }

  @Test func anArenaFillsABlockThenStartsAnother() {
    var arena = TextArena()
    let size = TextArena.blockSize
    let half = [UInt8](repeating: 7, count: size / 2)
    let a = half.withUnsafeBufferPointer { arena.store($0) }
    let b = half.withUnsafeBufferPointer { arena.store($0) }
    let c = [UInt8](repeating: 9, count: 1).withUnsafeBufferPointer { arena.store($0) }
    #expect(a.block === b.block)
    #expect((a.start, b.start) == (0, size / 2))
    #expect(c.block !== a.block)
    #expect(c.start == 0)
    let long = [UInt8](repeating: 1, count: size + 5)
    let d = long.withUnsafeBufferPointer { arena.store($0) }
    #expect(d.block.capacity >= size + 5)
    #expect(d.block.withBytes(from: d.start, count: long.count) { Array($0) } == long)
    #expect(a.block.withBytes(from: a.start, count: half.count) { Array($0) } == half)
    #expect(c.block.withBytes(from: 0, count: 1) { Array($0) } == [9])
  }

  @Test func fieldsMadeInAnArenaAreTheFieldsMadeAlone() throws {
    let texts = [
      #"{"a":1,"b":"x"}"#, #"{"t":[1,2,{"n":null}]}"#, "{}", #"{"a":1,"b":"x"}"#, #"{"é":"ü"}"#,
    ]
    var arena = TextArena()
    var shared: [CustomFields] = []
    for text in texts {
      shared.append(Array(text.utf8).withUnsafeBufferPointer { CustomFields(canonical: $0, in: &arena) })
    }
    let alone = texts.map { CustomFields(canonical: Array($0.utf8)) }
    #expect(shared == alone)
    #expect(shared[0] == shared[3])
    #expect(shared[0] != shared[1])
    #expect(shared[2].isEmpty)
    #expect(shared.map(\.keys) == alone.map(\.keys))
    #expect(shared[1]["t"] == alone[1]["t"])
    // An edit gives the record a text of its own; the others sharing the block keep theirs.
    var edited = shared[0]
    edited["b"] = .string("y")
    #expect(edited["b"] == .string("y"))
    #expect(shared[0]["b"] == .string("x"))
    #expect(shared[3]["b"] == .string("x"))
    edited["a"] = nil
    edited["b"] = nil
    #expect(edited.isEmpty)
    #expect(edited == CustomFields())
  }
}
