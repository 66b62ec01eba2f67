/// The start of a one-field edit's log record as `Command.encoded()` spells it,
/// `["set", 17, "title", [` (a custom key as `["color"]`), made for one field and appended
/// with one call: the action's opening, the record's number and the field's part are laid
/// out in a scratch buffer on the stack first. Appending them one by one cost about 90
/// instructions a part (each append to an array checks its buffer and copies through the
/// generic path), and the log writes one such record per `set`.
///
/// Holds the field's constant bytes in one allocation made in `init`, only read after
/// (so it may be shared across threads), freed in `deinit`.
final class EditRecordHead: @unchecked Sendable {
  /// Each action's opening (`["set", `), in `EditAction.allCases` order, then the field's
  /// part (`, "title", [`).
  private let bytes: UnsafeMutableBufferPointer<UInt8>
  /// Where each action's opening starts in `bytes`, and the end of the last (where the
  /// field's part starts).
  private let openingStarts: [Int]
  /// The longest head this field writes: its longest opening, the ten digits of the
  /// largest record number, its part.
  private let longest: Int

  init(field name: String, isCustom: Bool) {
    var all: [UInt8] = []
    var starts: [Int] = []
    for action in EditAction.allCases {
      starts.append(all.count)
      all.append(UInt8(ascii: "["))
      JSONValue.appendQuoted(action.rawValue, to: &all)
      all += ", ".utf8
    }
    starts.append(all.count)
    all += ", ".utf8
    if isCustom { all.append(UInt8(ascii: "[")) }
    JSONValue.appendQuoted(name, to: &all)
    if isCustom { all.append(UInt8(ascii: "]")) }
    all += ", [".utf8
    bytes = .allocate(capacity: all.count)
    _ = bytes.initialize(from: all)
    openingStarts = starts
    let openings = zip(starts, starts.dropFirst()).map { $1 - $0 }
    longest = (openings.max() ?? 0) + 10 + (all.count - starts[starts.count - 1])
  }

  deinit { bytes.deallocate() }

  /// Appends `["ACTION", RECORD, FIELD, [` for `action` on the record numbered `record`.
  func append(_ action: EditAction, record: RecordNumber, to out: inout [UInt8]) {
    let index = action.index
    let openingStart = openingStarts[index]
    let openingCount = openingStarts[index + 1] - openingStart
    let partStart = openingStarts[openingStarts.count - 1]
    let partCount = bytes.count - partStart
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longest) { scratch in
      guard let base = scratch.baseAddress, let constant = bytes.baseAddress else { return }
      base.update(from: constant + openingStart, count: openingCount)
      var end = openingCount
      var value = record.value
      var digits = 1
      var rest = value / 10
      while rest > 0 {
        digits += 1
        rest /= 10
      }
      end += digits
      var place = end
      repeat {
        place -= 1
        base[place] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
        value /= 10
      } while value > 0
      (base + end).update(from: constant + partStart, count: partCount)
      end += partCount
      out.append(contentsOf: UnsafeBufferPointer(start: base, count: end))
    }
  }
}
