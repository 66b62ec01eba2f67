/// A to-do item: the default kind.
public struct TaskRecord: Record {
  public static let kind = "task"
  public static let summaryFields = ["done", "priority", "due", "title"]

  public let id: String
  /// The title and detail as their bytes (`BlockText`: in the read's shared blocks, not
  /// an allocation each); `title` and `detail` give and take them as `String`s.
  var titleText: BlockText?
  var detailText: BlockText?
  // (`done` after `priority`: in the padding after the `Int?`'s tag, 8 bytes a record less.)
  public var priority: Int?
  public var done: Bool?
  /// The tags as one text (`TextList`); `tags` gives and takes them as `[String]`.
  var tagList: TextList?
  public var due: Nullable<ISODate>?
  public var custom = CustomFields()

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

  public var tags: [String]? {
    get { tagList?.elements }
    set { tagList = newValue.map { TextList($0) } }
  }

  public static let fields = FieldTable<TaskRecord>([
    KeyPathField("title", \.titleText, TextCodec()),
    KeyPathField("detail", \.detailText, TextCodec()),
    KeyPathField("done", \.done, BoolCodec()),
    KeyPathField("priority", \.priority, IntCodec(range: 0...5)),
    KeyPathField(list: "tags", \.tagList, TextListCodec()),
    KeyPathField("due", \.due, NullableCodec(DateCodec())),
  ])
}
