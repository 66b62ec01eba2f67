/// The start of a one-field edit's log record as `Command.encoded()` spells it,
/// `["set", 17, "title", [` (a custom key as `["color"]`), made for one field and appended
/// with one call: the action's opening, the record's number and the field's part are laid
/// out in a scratch buffer on the stack first. Appending them one by one cost about 90
/// instructions a part (each append to an array checks its buffer and copies through the
/// generic path), and the log writes one such record per `set`.
///
/// Holds the field's constant bytes in one allocation made in `init`, only read after
/// (so it may be shared across threads), freed in `deinit`. Kept with the JSON writers: it
/// works on byte buffers, never on a record's memory.
final class EditRecordHead: @unchecked Sendable {
  /// Each action's opening (`["set", `), in `EditAction.allCases` order, then the field's
  /// part (`, "title", [`).
  private let bytes: UnsafeMutableBufferPointer<UInt8>
  /// Where each action's opening starts in `bytes`, and the end of the last (where the
  /// field's part starts).
  private let openingStarts: [Int]
  /// Whether the longest head this field writes (its longest opening, the ten digits of
  /// the largest record number, its part) fits the 64-byte stack buffer.
  private let fitsScratch: Bool

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
    fitsScratch = (openings.max() ?? 0) + 10 + (all.count - starts[starts.count - 1]) <= 64
  }

  deinit { bytes.deallocate() }

  /// Appends `["ACTION", RECORD, FIELD, [` for `action` on the record numbered `record`:
  /// laid out in 64 bytes on the stack and appended once, or (a head longer than that: a
  /// long field name) appended part by part.
  func append(_ action: EditAction, record: RecordNumber, to out: inout [UInt8]) {
    guard let constant = UnsafePointer(bytes.baseAddress) else { return }
    let index = action.index
    let opening = (
      start: constant + openingStarts[index], count: openingStarts[index + 1] - openingStarts[index]
    )
    let partStart = openingStarts[openingStarts.count - 1]
    let part = (start: constant + partStart, count: bytes.count - partStart)
    guard fitsScratch else {
      out.append(contentsOf: UnsafeBufferPointer(start: opening.start, count: opening.count))
      JSONValue.appendDecimal(Int(record.value), to: &out)
      out.append(contentsOf: UnsafeBufferPointer(start: part.start, count: part.count))
      return
    }
    // A fixed size: the buffer is a plain stack slot.
    var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &scratch) { raw in
      guard let head = raw.baseAddress else { return }
      JSONWriter.copy(opening.count, from: opening.start, to: head)
      var end = opening.count
      JSONValue.withDigits(of: UInt64(record.value)) { digits in
        if let first = digits.baseAddress { JSONWriter.copy(digits.count, from: first, to: head + end) }
        end += digits.count
      }
      JSONWriter.copy(part.count, from: part.start, to: head + end)
      end += part.count
      out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[..<end]))
    }
  }
}
