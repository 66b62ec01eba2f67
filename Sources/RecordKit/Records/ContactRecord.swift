/// A person in an address book.
public struct ContactRecord: Record {
  public static let kind = "contact"
  public static let summaryFields = ["email", "phone", "name"]

  public let id: String
  // Strings and tags as their bytes in the read's blocks, as a task's (`TaskRecord`).
  var name: BlockText?
  var email: BlockText?
  var phone: BlockText?
  var address = Address()
  var tags: TextList?
  var birthday: Nullable<ISODate>?
  public var custom = CustomFields()

  public init(id: String) {
    self.id = id
  }

  /// The `address.*` fields are composed key paths: `\ContactRecord.address`
  /// appending `\Address.city`. No field is special-cased for being nested.
  private static func address(_ member: WritableKeyPath<Address, BlockText?>) -> WritableKeyPath<
    ContactRecord, BlockText?
  > {
    let address: WritableKeyPath<ContactRecord, Address> = \.address
    return address.appending(path: member)
  }

  public static let fields = FieldTable<ContactRecord>(
    [
      KeyPathField("name", \.name, TextCodec()),
      KeyPathField("email", \.email, TextCodec()),
      KeyPathField("phone", \.phone, TextCodec()),
      KeyPathField("address.street", address(\.street), TextCodec()),
      KeyPathField("address.city", address(\.city), TextCodec()),
      KeyPathField("address.zip", address(\.zip), TextCodec()),
      KeyPathField("address.country", address(\.country), TextCodec()),
      KeyPathField(list: "tags", \.tags, TextListCodec()),
      KeyPathField("birthday", \.birthday, NullableCodec(DateCodec())),
    ],
    nestedObjects: [NestedObject("address", extras: \ContactRecord.address.extra)]
  )
}

/// A contact's postal address: the `address` object of the file.
struct Address: Equatable, Sendable {
  var street: BlockText?
  var city: BlockText?
  var zip: BlockText?
  var country: BlockText?
  /// Keys of the file's `address` object that the kind does not declare.
  var extra = CustomFields()
}
