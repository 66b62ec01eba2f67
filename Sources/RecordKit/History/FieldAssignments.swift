/// The `FIELD VALUE` pairs of one `set`, in the order given: a handful, most often one.
///
/// The first is kept inline and the rest in an array, so a one-field `set` — what long
/// scripts are made of — allocates nothing for its pairs: an array of one cost an
/// allocation and a release through the element type's metadata, about 500 instructions
/// an edit. Empty only when made so (the shell's parser refuses a `set` without a pair).
public struct FieldAssignments: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
  /// The first pair; `nil` only when there is none.
  private var head: FieldAssignment?
  /// The pairs after the first (empty when `head` is `nil`).
  private var tail: [FieldAssignment] = []

  /// No pairs.
  public init() {}

  /// One pair, with no allocation.
  public init(_ assignment: FieldAssignment) { head = assignment }

  /// The pairs of `assignments`, in order.
  public init(_ assignments: some Sequence<FieldAssignment>) {
    for assignment in assignments { append(assignment) }
  }

  public init(arrayLiteral elements: FieldAssignment...) { self.init(elements) }

  public var startIndex: Int { 0 }
  public var endIndex: Int { head == nil ? 0 : 1 + tail.count }

  /// The pair at `position`, which must be in `indices`.
  public subscript(position: Int) -> FieldAssignment {
    guard position > 0 else {
      guard position == 0, let head else { preconditionFailure("FieldAssignments index out of range") }
      return head
    }
    return tail[position - 1]
  }

  /// Adds `assignment` after the others.
  public mutating func append(_ assignment: FieldAssignment) {
    if head == nil { head = assignment } else { tail.append(assignment) }
  }
}
