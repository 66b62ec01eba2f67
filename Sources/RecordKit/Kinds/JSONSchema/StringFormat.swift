/// The `format` values recsh checks (JSON Schema makes `format` an annotation by default;
/// recsh asserts these three). Any other `format` is refused when the schema is read.
enum StringFormat: String, CaseIterable, Equatable, Sendable {
  /// RFC 3339 `full-date`: `2026-12-01`, with real month lengths and leap years.
  case date
  /// RFC 3339 `date-time`: `2026-12-01T09:30:00Z`, `…T09:30:00.5+01:00`; `T` and `Z` in
  /// either case; a leap second only at 23:59:60 UTC.
  case dateTime = "date-time"
  /// An RFC 5321 mailbox, `local@domain`: a dot-atom or quoted local part, and a host name
  /// or an `[IPv4]` / `[IPv6:…]` literal. ASCII only (non-ASCII addresses are `idn-email`).
  case email

  /// The format in an error message.
  var words: String {
    switch self {
    case .date: "a date (YYYY-MM-DD)"
    case .dateTime: "a date-time (YYYY-MM-DDTHH:MM:SS with Z or an offset like +01:00)"
    case .email: "an email address"
    }
  }

  /// Whether `text` is in this format. Costs O(its length).
  func admits(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    switch self {
    case .date: return bytes.count == 10 && Self.fullDate(bytes[...]) != nil
    case .dateTime: return Self.isDateTime(bytes)
    case .email: return Self.isEmail(bytes)
    }
  }

  /// The value of `count` ASCII digits at the start of `bytes`, or `nil`.
  static func number(_ bytes: ArraySlice<UInt8>, digits count: Int) -> Int? {
    guard bytes.count >= count else { return nil }
    var value = 0
    for byte in bytes.prefix(count) {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }

  /// `YYYY-MM-DD` at the start of `bytes`, checked as a calendar date.
  private static func fullDate(_ bytes: ArraySlice<UInt8>) -> (year: Int, month: Int, day: Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 10, let year = number(bytes, digits: 4),
      bytes[start + 4] == UInt8(ascii: "-"), let month = number(bytes.dropFirst(5), digits: 2),
      bytes[start + 7] == UInt8(ascii: "-"), let day = number(bytes.dropFirst(8), digits: 2),
      (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
    else { return nil }
    return (year, month, day)
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func isDateTime(_ text: [UInt8]) -> Bool {
    var bytes = text[...]
    guard fullDate(bytes) != nil, bytes.count > 10, bytes[bytes.startIndex + 10] | 0x20 == UInt8(ascii: "t")
    else { return false }
    bytes = bytes.dropFirst(11)
    let start = bytes.startIndex
    guard let hour = number(bytes, digits: 2), bytes.count >= 8, bytes[start + 2] == UInt8(ascii: ":"),
      let minute = number(bytes.dropFirst(3), digits: 2), bytes[start + 5] == UInt8(ascii: ":"),
      let second = number(bytes.dropFirst(6), digits: 2), hour < 24, minute < 60, second <= 60
    else { return false }
    bytes = bytes.dropFirst(8)
    if bytes.first == UInt8(ascii: ".") {
      let fraction = bytes.dropFirst().prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
      guard !fraction.isEmpty else { return false }
      bytes = bytes.dropFirst(1 + fraction.count)
    }
    guard let offsetMinutes = offset(bytes) else { return false }
    guard second == 60 else { return true }
    let utcMinutes = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
    return utcMinutes == 23 * 60 + 59
  }

  /// The offset east of UTC in minutes: `Z` (either case) or `±HH:MM`, and nothing after it.
  private static func offset(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard let sign = bytes.first else { return nil }
    if sign | 0x20 == UInt8(ascii: "z") { return bytes.count == 1 ? 0 : nil }
    guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), bytes.count == 6,
      let hours = number(bytes.dropFirst(), digits: 2), bytes[bytes.startIndex + 3] == UInt8(ascii: ":"),
      let minutes = number(bytes.dropFirst(4), digits: 2), hours < 24, minutes < 60
    else { return nil }
    return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
  }
}
