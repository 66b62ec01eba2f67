/// The `FIELD VALUE` pairs of one `set`, in the order given: a handful, most often one.
///
/// The first is kept inline and the rest in an array, so a one-field `set` — what long
/// scripts are made of — allocates nothing for its pairs: an array of one cost an
/// allocation and a release through the element type's metadata, about 500 instructions
/// an edit. Empty only when made so (the shell's parser refuses a `set` without a pair).
public struct FieldAssignments: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
  /// The first pair, or (when there is none) a pair of empty strings, which hold no
  /// storage: not an optional, whose every read copied the pair out and destroyed it.
  @usableFromInline var head: FieldAssignment
  /// The pairs after the first.
  @usableFromInline var tail: [FieldAssignment] = []
  /// Whether `head` is a pair. (Every way of making the pairs leaves the placeholder when
  /// there is none, so the made `==` compares the pairs.)
  @usableFromInline var hasHead: Bool

  /// No pairs.
  init() {
    head = FieldAssignment("", .word(""))
    hasHead = false
  }

  /// One pair, with no allocation.
  public init(_ assignment: FieldAssignment) {
    head = assignment
    hasHead = true
  }

  /// The pairs of `assignments`, in order.
  public init(_ assignments: some Sequence<FieldAssignment>) {
    self.init()
    for assignment in assignments { append(assignment) }
  }

  public init(arrayLiteral elements: FieldAssignment...) { self.init(elements) }

  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { hasHead ? 1 + tail.count : 0 }

  /// The pair at `position`, which must be in `indices` (else a trap, as an array's).
  @inlinable public subscript(position: Int) -> FieldAssignment {
    if position == 0, hasHead { return head }
    return tail[position - 1]
  }

  /// Adds `assignment` after the others.
  mutating func append(_ assignment: FieldAssignment) {
    if hasHead {
      tail.append(assignment)
    } else {
      head = assignment
      hasHead = true
    }
  }
}
