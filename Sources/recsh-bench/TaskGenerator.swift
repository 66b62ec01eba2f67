import RecordKit
import RecordShell

/// Makes task files for the bench: the same records for the same count and seed, on any
/// machine and any Swift version (its own generator and arithmetic, no `random(in:)`).
///
/// The text is meant to look like a real to-do list: titles and details from word lists
/// with some non-ASCII words (café, 日本, emoji), a few quotes, newlines and tabs that
/// need escapes, tags, priorities, dates, date-times and `null`, and custom keys of every
/// JSON kind, so that every path of the reader and writer does its share of the work.
/// The file is written by `RecordFile.encode`, so it is exactly recsh's format.
enum TaskGenerator {
  /// Ids are 8 characters of `a-z0-9`: 36⁸ of them.
  static let idSpace: UInt64 = 2_821_109_907_456
  static let maxCount = 100_000_000

  /// Writes `count` records to `path` and returns the file's size in bytes.
  static func write(count: Int, seed: UInt64, to path: String) throws(BenchError) -> Int {
    let bytes = RecordFile<TaskRecord>.encode(records(count: count, seed: seed))
    do {
      try AtomicFile.save(bytes: bytes, to: path, using: PosixFileSystem())
    } catch {
      throw .storage(error)
    }
    return bytes.count
  }

  static func records(count: Int, seed: UInt64) -> [TaskRecord] {
    var random = SplitMix64(seed: seed)
    // `i ↦ a·i + b mod 36⁸` is a bijection when `a` is prime to 36⁸ = 2¹⁶·3¹⁶, so the
    // ids are unique without a set, and look scattered rather than sequential.
    var step = random.next() % idSpace | 1
    if step % 3 == 0 { step += 2 }
    let offset = random.next() % idSpace
    var records: [TaskRecord] = []
    records.reserveCapacity(count)
    for index in 0..<UInt64(count) {
      let (high, low) = step.multipliedFullWidth(by: index)
      let (_, product) = idSpace.dividingFullWidth((high, low))
      let id = base36((product + offset) % idSpace)
      records.append(record(id: id, using: &random))
    }
    return records
  }

  private static func record(id: String, using random: inout SplitMix64) -> TaskRecord {
    var task = TaskRecord(id: id)
    task.title = sentence(words: 3 + random.below(6), capitalized: true, using: &random)
    if random.chance(70) {
      let sentences = (0..<1 + random.below(3)).map { _ in
        sentence(words: 6 + random.below(14), capitalized: true, using: &random) + "."
      }
      var detail = sentences.joined(separator: " ")
      if random.chance(8) { detail += "\nSee \"" + Words.pick(Words.common, &random) + "\" first." }
      if random.chance(2) { detail += "\tcheck\\done" }
      task.detail = detail
    }
    if random.chance(90) { task.done = random.chance(35) }
    if random.chance(80) { task.priority = random.below(6) }
    if random.chance(70) {
      task.tags = (0..<random.below(4)).map { _ in Words.pick(Words.tags, &random) }
    }
    if random.chance(60) { task.due = due(using: &random) }
    var custom: [JSONObject.Member] = []
    if random.chance(30) {
      let spellings = ["1", "2", "3", "0.5", "1.50", "2.25", "8", "1e3", "-0.0", "13"]
      custom.append(JSONObject.Member(key: "estimate", value: .number(Words.pick(spellings, &random))))
    }
    if random.chance(15) {
      custom.append(JSONObject.Member(key: "owner", value: .string(Words.pick(Words.people, &random))))
    }
    if random.chance(5) {
      let meta = JSONObject([
        "source": .string(Words.pick(["import", "mail", "phone", "メモ"], &random)),
        "rev": .number(String(random.below(40))), "pinned": .bool(random.chance(20)), "parent": .null,
      ])
      custom.append(JSONObject.Member(key: "meta", value: .object(meta)))
    }
    if random.chance(3) {
      let links = (0..<1 + random.below(3)).map { _ in
        JSONValue.string("https://example.org/" + Words.pick(Words.common, &random))
      }
      custom.append(JSONObject.Member(key: "links", value: .array(links)))
    }
    task.custom = CustomFields(custom)
    return task
  }

  private static func sentence(words count: Int, capitalized: Bool, using random: inout SplitMix64) -> String
  {
    var words: [String] = []
    words.reserveCapacity(count)
    for _ in 0..<count {
      words.append(
        random.chance(6) ? Words.pick(Words.international, &random) : Words.pick(Words.common, &random))
    }
    if capitalized, let first = words.first {
      words[0] = first.prefix(1).uppercased() + first.dropFirst()
    }
    return words.joined(separator: " ")
  }

  /// A date (most), a date-time, or `null`.
  private static func due(using random: inout SplitMix64) -> Nullable<ISODate> {
    let roll = random.below(10)
    if roll == 0 { return .null }
    let date =
      "\(2024 + random.below(4))-\(twoDigits(1 + random.below(12)))-\(twoDigits(1 + random.below(28)))"
    let spelling =
      roll < 8 ? date : date + "T\(twoDigits(random.below(24))):\(twoDigits(random.below(4) * 15)):00Z"
    return ISODate(spelling).map(Nullable.value) ?? .null
  }

  private static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : String(value)
  }

  private static func base36(_ value: UInt64) -> String {
    let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
    var value = value
    var bytes = [UInt8](repeating: 0, count: 8)
    for position in (0..<8).reversed() {
      bytes[position] = digits[Int(value % 36)]
      value /= 36
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension SplitMix64 {
  /// A number in `0..<bound`; the modulo bias is far below what a bench can notice.
  mutating func below(_ bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }

  /// True `percent` times in a hundred.
  mutating func chance(_ percent: Int) -> Bool {
    below(100) < percent
  }
}
