/// How a filter compares a field with its value: `FIELD=VALUE`, `FIELD<VALUE`, ….
///
/// What each means, for every field: a comparison with a value (`=`, `<`, `<=`, `>`, `>=`,
/// `~`) never matches a null or absent field, and `!=` does. `=` of a list field matches
/// when the list contains the value (and `!=` when it does not). `<`, `<=`, `>`, `>=` need a
/// field whose codec orders its values (numbers, strings, dates: `FieldCodec.isOrdered`);
/// a JSON field (a custom one) compares only values of one JSON type, so a string is never
/// below a number. `~` is a case-insensitive substring of the value as `show` prints it.
/// `==` is `=` of the whole value: a list equals a list of the same elements in the same
/// order (what `export`'s guards check), anything else as `=`.
public enum FilterOperator: String, Sendable, CaseIterable {
  case equal = "="
  case exactly = "=="
  case notEqual = "!="
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
  case contains = "~"

  /// Whether the operator orders values (`<`, `<=`, `>`, `>=`).
  var orders: Bool {
    switch self {
    case .less, .lessOrEqual, .greater, .greaterOrEqual: true
    default: false
    }
  }

  /// Whether an order of `value` against the operand (negative: below) satisfies the operator.
  @inline(__always)
  func holds(_ order: Int) -> Bool {
    switch self {
    case .equal, .exactly: order == 0
    case .notEqual: order != 0
    case .less: order < 0
    case .lessOrEqual: order <= 0
    case .greater: order > 0
    case .greaterOrEqual: order >= 0
    case .contains: false
    }
  }
}

/// What a filter compares with: a typed value, or `null` (`FIELD=null`: absent or null).
public enum FilterOperand: Equatable, Sendable {
  case null
  case value(ValueToken)
}

/// A test of one record, read in place: what a filter becomes once its field and value
/// are checked (`FieldAccessor.matcher`). Built by the field, so the test runs the field's
/// own specialized code; costs one read of the field and one comparison per record.
public struct RecordMatcher<Root: Record>: Sendable {
  let test: @Sendable (UnsafePointer<Root>) -> Bool

  init(_ test: @escaping @Sendable (UnsafePointer<Root>) -> Bool) {
    self.test = test
  }

  /// Whether the record at `record` (initialized for the call) passes.
  @inline(__always)
  public func matches(_ record: UnsafePointer<Root>) -> Bool { test(record) }
}

/// Orders two records by one field, for `sort`: negative when the first comes first. A
/// record whose field is null or absent comes after every other in both directions.
public struct RecordOrder<Root: Record>: Sendable {
  let compare: @Sendable (UnsafePointer<Root>, UnsafePointer<Root>) -> Int

  init(_ compare: @escaping @Sendable (UnsafePointer<Root>, UnsafePointer<Root>) -> Int) {
    self.compare = compare
  }

  /// Compares the records at `a` and `b`; `descending` reverses the order of values,
  /// not the place of null and absent ones (last either way).
  @inline(__always)
  func callAsFunction(_ a: UnsafePointer<Root>, _ b: UnsafePointer<Root>, descending: Bool) -> Int {
    let order = compare(a, b)
    guard descending, order != Self.nullLast, order != -Self.nullLast else { return order }
    return -order
  }

  /// What `compare` gives when exactly one of the two values is null or absent (negated
  /// when it is the second): a value no comparison of two values gives, so that no
  /// direction reverses it.
  static var nullLast: Int { Int(Int32.max) }
}
