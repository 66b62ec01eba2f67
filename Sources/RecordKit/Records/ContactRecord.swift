/// A person in an address book.
public struct ContactRecord: Record {
  public static let kind = "contact"
  public static let summaryFields = ["email", "phone", "name"]

  public let id: String
  var name: String?
  var email: String?
  var phone: String?
  var address = Address()
  var tags: [String]?
  var birthday: Nullable<ISODate>?
  public var custom = CustomFields()

  public init(id: String) {
    self.id = id
  }

  /// The `address.*` fields are composed key paths: `\ContactRecord.address`
  /// appending `\Address.city`. No field is special-cased for being nested.
  private static func address(_ member: WritableKeyPath<Address, String?>) -> WritableKeyPath<
    ContactRecord, String?
  > {
    let address: WritableKeyPath<ContactRecord, Address> = \.address
    return address.appending(path: member)
  }

  public static let fields = FieldTable<ContactRecord>(
    [
      KeyPathField("name", \.name, StringCodec()),
      KeyPathField("email", \.email, StringCodec()),
      KeyPathField("phone", \.phone, StringCodec()),
      KeyPathField("address.street", address(\.street), StringCodec()),
      KeyPathField("address.city", address(\.city), StringCodec()),
      KeyPathField("address.zip", address(\.zip), StringCodec()),
      KeyPathField(
        "address.country", address(\.country), StringCodec()),
      KeyPathField(list: "tags", \.tags, StringListCodec()),
      KeyPathField("birthday", \.birthday, NullableCodec(DateCodec())),
    ],
    nestedObjects: [NestedObject("address", extras: \ContactRecord.address.extra)]
  )
}

/// A contact's postal address: the `address` object of the file.
struct Address: Equatable, Sendable {
  var street: String?
  var city: String?
  var zip: String?
  var country: String?
  /// Keys of the file's `address` object that the kind does not declare.
  var extra = CustomFields()
}
