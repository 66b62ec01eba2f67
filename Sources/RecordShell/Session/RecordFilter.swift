import RecordKit

/// `list FIELD=VALUE`: the value is read by the field's own codec, so
/// `priority=3` compares numbers and `due=2026-12-01` dates; a list field
/// matches when it contains the value; `FIELD=null` matches absent and null.
enum RecordFilter {
  static func matcher<Root: Record>(for filter: ListFilter, kind: Root.Type) throws(FieldError) -> (Root) ->
    Bool
  {
    let field: any FieldAccessor<Root> =
      Root.fields.field(named: filter.field) ?? FieldTable<Root>.custom(filter.field)
    if filter.value == .word("null") {
      return { record in
        let value = field.json(in: record)
        return value == nil || value == .null
      }
    }
    if field.isList {
      guard let element = filter.value.text else {
        throw .invalidValue(field: field.name, expected: "a list element", found: filter.value.description)
      }
      return { record in
        guard case .array(let items)? = field.json(in: record) else { return false }
        return items.contains(.string(element))
      }
    }
    let expected = try field.parseJSON(filter.value)
    return { record in field.json(in: record) == expected }
  }
}
