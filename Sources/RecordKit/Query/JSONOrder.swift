/// The order of JSON values for filters and `sort` where a field holds any JSON (custom
/// fields, a run-time kind's untyped ones).
///
/// Numbers compare by value (`1.0` equals `1`; spellings of any length), strings by
/// Unicode code point (the order of their UTF-8 bytes), `false` before `true`, arrays
/// element by element, objects by their compact text. Values of two different JSON types
/// do not compare (`compare` gives `nil`): a filter never finds a string below a number.
/// `sort` puts them in the order of `rank`: numbers, strings, booleans, arrays, objects.
public enum JSONOrder {
  /// Negative, zero or positive as `a` is below, equal to or above `b`; `nil` when their
  /// types differ (or either is null). O(size of the smaller value).
  public static func compare(_ a: JSONValue, _ b: JSONValue) -> Int? {
    switch (a, b) {
    case (.number(let x), .number(let y)): return compareNumbers(x, y)
    case (.string(let x), .string(let y)): return compareText(x, y)
    case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
    case (.array(let x), .array(let y)):
      for (left, right) in zip(x, y) {
        let order = compare(left, right) ?? (rank(left) - rank(right))
        if order != 0 { return order }
      }
      return x.count - y.count
    case (.object, .object): return compareText(a.compactText, b.compactText)
    default: return nil
    }
  }

  /// Where a value's type sorts among values of other types; null last.
  static func rank(_ value: JSONValue) -> Int {
    switch value {
    case .number: 0
    case .string: 1
    case .bool: 2
    case .array: 3
    case .object: 4
    case .null: 5
    }
  }

  /// The total order `sort` uses: `compare`, or by `rank` across types.
  static func sortOrder(_ a: JSONValue, _ b: JSONValue) -> Int {
    compare(a, b) ?? (rank(a) - rank(b))
  }

  /// Two strings by code point: the order of their UTF-8 bytes. (Not Swift's `==`, which
  /// finds "é" and "e" + U+0301 equal: a filter compares what the file holds.)
  @inline(__always)
  static func compareText(_ a: String, _ b: String) -> Int {
    var (a, b) = (a, b)
    return a.withUTF8 { left in b.withUTF8 { right in CanonicalJSON.compareBytes(left, right) } }
  }

  /// Two JSON number spellings by value: as integers when both are small ones (the
  /// common case, no allocation), else as exact decimals.
  static func compareNumbers(_ a: String, _ b: String) -> Int {
    if let x = Int(a), let y = Int(b) { return x == y ? 0 : (x < y ? -1 : 1) }
    guard let x = DecimalNumber(a), let y = DecimalNumber(b) else { return compareText(a, b) }
    return x == y || (x.isZero && y.isZero) ? 0 : (x < y ? -1 : 1)
  }
}

extension JSONOrder {
  /// Whether `list` is an array holding a value equal to `element` (by `compare`); `nil`
  /// when `list` is no array, or `element` is one (then the two compare whole).
  static func contains(_ list: JSONValue, _ element: JSONValue) -> Bool? {
    guard case .array(let items) = list else { return nil }
    if case .array = element { return nil }
    return items.contains { compare($0, element) == 0 }
  }
}
