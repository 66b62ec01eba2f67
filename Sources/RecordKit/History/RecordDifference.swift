/// The record-level difference between two documents, as commands that turn one into
/// the other: what a change made outside recsh becomes in the history.
///
/// Records equal at the beginning and the end are kept (with their numbers); the ones
/// between are deleted (last first) and the other document's put in their place, with new
/// numbers. Coarse but exact: applying the commands to `old` gives `new`'s records in
/// order, and reverting them gives `old` back. O(records) comparisons.
package enum RecordDifference {
  package static func commands<Root: Record>(from old: Document<Root>, to new: Document<Root>) -> [Command<
    Root
  >] {
    let before = old.records
    let after = new.records
    let (prefix, suffix) = commonEnds(before, after, ==)
    var commands: [Command<Root>] = []
    for position in stride(from: before.count - suffix - 1, through: prefix, by: -1) {
      commands.append(.delete(before[position], number: old.number(at: position), at: position))
    }
    var number = old.nextNumber.value
    for (offset, record) in after[prefix..<(after.count - suffix)].enumerated() {
      commands.append(.insert(record, number: RecordNumber(number), at: prefix + offset))
      number &+= 1
    }
    return commands
  }
}
