/// A to-do item: the default kind.
public struct TaskRecord: Record {
  public static let kind = "task"
  public static let summaryFields = ["done", "priority", "due", "title"]

  public let id: String
  /// The title and detail as their bytes (`BlockText`: in the read's shared blocks, not
  /// an allocation each); `title` and `detail` give and take them as `String`s.
  var titleText: BlockText?
  var detailText: BlockText?
  /// The tags as one text (`TextList`); `tags` gives and takes them as `[String]`.
  var tagList: TextList?
  public var custom = CustomFields()
  // The fields of under 16 bytes last, so they share the record's last 16: the date's 9
  // (`ISODate`), the priority's 2 (`priority` gives and takes it as an `Int`), `done`'s 1.
  // A record is 96 bytes.
  public var due: Nullable<ISODate>?
  var priorityLevel: Int8?
  public var done: Bool?

  public init(id: String) {
    self.id = id
  }

  public var title: String? {
    get { titleText?.string }
    set { titleText = newValue.map { BlockText($0) } }
  }

  public var detail: String? {
    get { detailText?.string }
    set { detailText = newValue.map { BlockText($0) } }
  }

  /// The priority; one outside `Int8`'s range is a programming error (the field's values
  /// are 0–5).
  public var priority: Int? {
    get { priorityLevel.map(Int.init) }
    set { priorityLevel = newValue.map { Int8($0) } }
  }

  public var tags: [String]? {
    get { tagList?.elements }
    set { tagList = newValue.map { TextList($0) } }
  }

  public static let fields = FieldTable<TaskRecord>([
    KeyPathField("title", \.titleText, TextCodec()),
    KeyPathField("detail", \.detailText, TextCodec()),
    KeyPathField("done", \.done, BoolCodec()),
    KeyPathField("priority", \.priorityLevel, IntCodec(range: 0...5)),
    KeyPathField(list: "tags", \.tagList, TextListCodec()),
    KeyPathField("due", \.due, NullableCodec(DateCodec())),
  ])
}
