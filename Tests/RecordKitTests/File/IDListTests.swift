import Testing

@testable import RecordKit

/// `IDList` against an array of `String`s: ids of one width until, in some rounds, one of
/// another length (or of as many bytes in other letters) comes, and in some the list's
/// bytes pass its limit; every question asked of both after each step.
@Suite struct IDListTests {
  @Test(arguments: [1, 2, 3, 4, 5, 6])
  func randomIDsMatchAnArrayOfStrings(seed: UInt64) {
    var g = SplitMix64(seed: seed)
    // Ids of 4 bytes (one `é` is 2), a few shorter or longer, and some repeated.
    let sameWidth = ["ab12", "cd34", "é-1", "zz00", "ab12", "日x"]
    let otherWidths = ["", "a", "ab123", "日本語テキスト", "é"]
    let mixAfter = g.int(3) == 0 ? Int.max : g.int(40)
    var model: [String] = []
    let byteLimit = g.int(2) == 0 ? Int(UInt32.max) : 40 + g.int(200)
    var list = IDList(byteLimit: byteLimit)
    if g.int(2) == 0 { list.reserveCapacity(g.int(50)) }
    for step in 0..<60 {
      let id = step >= mixAfter && g.int(5) == 0 ? otherWidths.pick(using: &g) : sameWidth.pick(using: &g)
      model.append(id)
      list.append(id)
      if g.int(10) == 0 { list.reserveCapacity(model.count + g.int(20)) }
      #expect(list.count == model.count)
      // One width while every id has as many bytes as the first; then each id's end;
      // `String`s once the bytes would pass the limit.
      let byteCount = model.reduce(0) { $0 + $1.utf8.count }
      let oneWidth = model.allSatisfy { $0.utf8.count == model[0].utf8.count }
      let expected: IDList.Form = byteCount > byteLimit ? .wide : oneWidth ? .fixed : .ended
      #expect(list.form == expected)
      for (position, id) in model.enumerated() {
        #expect(list[position] == id)
        for other in sameWidth + otherWidths {
          #expect(list.holds(other, at: position) == (other == id), "\(other) at \(position)")
        }
      }
      let cut = g.int(model.count + 2)
      let leading = list.leading(cut)
      #expect((0..<leading.count).map { leading[$0] } == Array(model.prefix(cut)))
    }
    var firsts: [String: Int] = [:]
    for (position, id) in model.enumerated() where firsts[id] == nil { firsts[id] = position }
    #expect(list.positionsByID() == firsts)
    #expect(IDList(model).positionsByID() == firsts)
  }

  @Test func aListTakesEachFormInTurn() {
    var list = IDList(byteLimit: 12)
    list.append("ab")
    list.append("cd")
    #expect(list.form == .fixed)
    list.append("efg")
    #expect(list.form == .ended)
    #expect(list.holds("cd", at: 1) && list.holds("efg", at: 2) && !list.holds("ef", at: 2))
    list.append("hijklm")
    #expect(list.form == .wide)
    #expect((0..<list.count).map { list[$0] } == ["ab", "cd", "efg", "hijklm"])
    #expect(list.holds("hijklm", at: 3) && list.holds("ab", at: 0))
  }
}
