/// A to-do item: the default kind.
public struct TaskRecord: Record {
  public static let kind = "task"
  public static let summaryFields = ["done", "priority", "due", "title"]

  public let id: String
  public var title: String?
  public var detail: String?
  public var done: Bool?
  public var priority: Int?
  public var tags: [String]?
  public var due: Nullable<ISODate>?
  public var custom = CustomFields()

  public init(id: String) {
    self.id = id
  }

  public static let fields = FieldTable<TaskRecord>([
    KeyPathField("title", \.title, StringCodec()),
    KeyPathField("detail", \.detail, StringCodec()),
    KeyPathField("done", \.done, BoolCodec()),
    KeyPathField("priority", \.priority, IntCodec(range: 0...5)),
    KeyPathField(list: "tags", \.tags, StringListCodec()),
    KeyPathField("due", \.due, NullableCodec(DateCodec())),
  ])
}
