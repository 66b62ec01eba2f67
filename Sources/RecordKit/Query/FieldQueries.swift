/// A field's filters, sort order and bulk edits, as closures made when the field is made
/// (`KeyPathField.init`), where its record and codec types are known: like the field's
/// `setter`, they then run specialized code, where the field's own generic methods,
/// reached through `any FieldAccessor`, would look up its types' metadata on every call
/// (docs/PERFORMANCE.md). Every read and write of a record goes through the field's
/// `FieldSlot`.
///
/// `@unchecked Sendable`: every closure captures only immutable values (the slot, the
/// codec, the list-edit closure).
struct FieldQueries<Root: Record, Codec: FieldCodec>: @unchecked Sendable {
  typealias Value = Codec.Value
  typealias ListEdit = @Sendable (Value?, ValueToken, Bool) throws(FieldError) -> Value?
  /// Tests whether a list value holds the element a token names; `nil` when the token
  /// names no element of the list. Only list fields have one.
  typealias ElementTest = @Sendable (ValueToken) -> (@Sendable (Value) -> Bool)?

  let matcher: (String, FilterOperator, FilterOperand) throws(FieldError) -> RecordMatcher<Root>
  let order: RecordOrder<Root>
  let applyBulk:
    (KeyPathField<Root, Codec>, BulkChange, [Int], inout Document<Root>) throws(FieldError) -> BulkUpdate<
      Root, Codec
    >?
  let writeBulk: (BulkUpdate<Root, Codec>, inout Document<Root>, Bool) -> Void
  let checkBulk: (BulkUpdate<Root, Codec>, Document<Root>, Bool) -> Bool
  let encodeBulk: (BulkUpdate<Root, Codec>, inout [UInt8]) -> Void

  init(slot: FieldSlot<Root, Value>, codec: Codec, listEdit: ListEdit?, elementTest: ElementTest?) {
    matcher = Self.makeMatcher(slot, codec, elementTest)
    order = RecordOrder { a, b in
      switch (slot.value(at: a), slot.value(at: b)) {
      case (let x?, let y?):
        let (xNull, yNull) = (codec.isNull(x), codec.isNull(y))
        if xNull || yNull {
          guard xNull != yNull else { return 0 }
          return xNull ? RecordOrder<Root>.nullLast : -RecordOrder<Root>.nullLast
        }
        return codec.compare(x, y).map { $0.signum() }
          ?? JSONOrder.sortOrder(codec.encode(x), codec.encode(y))
      case (nil, nil): return 0
      // Null and absent last, whichever way the sort goes, and tied with each other.
      case (nil, let y?): return codec.isNull(y) ? 0 : RecordOrder<Root>.nullLast
      case (let x?, nil): return codec.isNull(x) ? 0 : -RecordOrder<Root>.nullLast
      }
    }
    applyBulk = Self.makeBulkApplier(slot, codec, listEdit)
    writeBulk = { update, document, forward in
      document.withRecordBuffer { records, positions in
        for (index, number) in update.records.enumerated() {
          guard let position = positions(number) else { continue }
          guard let base = records.baseAddress else { return }
          slot.store(forward ? update.news[index] : update.olds[index], at: base + position)
        }
      }
      document.markChanged(numbers: update.records)
    }
    checkBulk = { update, document, forward in
      for (index, number) in update.records.enumerated() {
        guard let position = document.position(of: number) else { return false }
        let held = document.withRecord(at: position) { slot.value(at: $0) } ?? nil
        guard held == (forward ? update.olds[index] : update.news[index]) else { return false }
      }
      return true
    }
    encodeBulk = Self.makeBulkEncoder(codec)
  }

  /// The test a filter on this field becomes (see `FilterOperator` for what each means).
  /// The operand is read once, by the codec, here: a value that does not fit the field is
  /// an error, not a filter that matches nothing.
  private static func makeMatcher(_ slot: FieldSlot<Root, Value>, _ codec: Codec, _ elementTest: ElementTest?)
    -> (String, FilterOperator, FilterOperand) throws(FieldError) -> RecordMatcher<Root>
  {
    { (name, op, operand) throws(FieldError) in
      guard case .value(let token) = operand else {
        // (The parser says so first, with the filter as typed.)
        guard op == .equal || op == .exactly || op == .notEqual else {
          throw .invalidValue(
            field: name, expected: "a value (only =, == and != compare with null)", found: "null")
        }
        let wantsNull = op != .notEqual
        return RecordMatcher { record in
          let value = slot.value(at: record)
          return (value.map(codec.isNull) ?? true) == wantsNull
        }
      }
      if op == .contains {
        let needle = (token.text ?? token.description).lowercased()
        return RecordMatcher { record in
          guard let value = slot.value(at: record), !codec.isNull(value) else { return false }
          return codec.display(value).lowercased().contains(needle)
        }
      }
      if op.orders, !codec.isOrdered {
        throw .notOrdered(field: name, operator: op.rawValue, type: codec.type.name)
      }
      if let elementTest, op != .exactly {
        guard let holds = elementTest(token) else {
          // Say what an element must be, as `add` does.
          throw .invalidValue(field: name, expected: "a list element", found: token.description)
        }
        let wanted = op == .equal
        return RecordMatcher { record in
          guard let value = slot.value(at: record) else { return !wanted }
          return holds(value) == wanted
        }
      }
      guard let operand = codec.parseFilterValue(token), !codec.isNull(operand) else {
        throw .invalidValue(field: name, expected: codec.type.expectation, found: token.description)
      }
      switch op {
      case .equal:
        return RecordMatcher { record in
          guard let value = slot.value(at: record) else { return false }
          if let contains = codec.containsElement(value, operand) { return contains }
          return codec.compare(value, operand) == 0
        }
      case .notEqual:
        return RecordMatcher { record in
          guard let value = slot.value(at: record) else { return true }
          if let contains = codec.containsElement(value, operand) { return !contains }
          return codec.compare(value, operand) != 0
        }
      case .exactly:
        return RecordMatcher { record in
          guard let value = slot.value(at: record) else { return false }
          return codec.compare(value, operand) == 0
        }
      default:
        return RecordMatcher { record in
          guard let value = slot.value(at: record), let order = codec.compare(value, operand) else {
            return false
          }
          return op.holds(order)
        }
      }
    }
  }

  /// Makes the bulk edit of the records at `positions` (ascending) and applies it: each
  /// record that the change changes is written once, its old value moved into the edit.
  /// The value is parsed and checked before any record is written; nothing is written
  /// when it throws. `nil` when no record changes.
  private static func makeBulkApplier(_ slot: FieldSlot<Root, Value>, _ codec: Codec, _ listEdit: ListEdit?)
    -> (KeyPathField<Root, Codec>, BulkChange, [Int], inout Document<Root>) throws(FieldError) -> BulkUpdate<
      Root, Codec
    >?
  {
    { (field, change, positions, document) throws(FieldError) in
      guard !codec.isReadOnly else { throw .readOnly(field.name) }
      var changed: [Int] = []
      var olds: [Value?] = []
      /// `set` and `unset`: one new value for all. `write` changes the record at a pointer
      /// and gives the value it held, or `nil` when the record already holds the new one.
      func writeAll(_ new: Value?, _ write: (UnsafeMutablePointer<Root>) -> Value??) -> BulkUpdate<
        Root, Codec
      >? {
        document.withRecordBuffer { records, _ in
          guard let base = records.baseAddress else { return }
          for position in positions {
            guard let old = write(base + position) else { continue }
            changed.append(position)
            olds.append(old)
          }
        }
        guard !changed.isEmpty else { return nil }
        document.markChanged(at: changed)
        return BulkUpdate(
          field: field, action: change.action, records: changed.map(document.number(at:)), olds: olds,
          news: .same(new))
      }
      switch change {
      case .set(let token):
        guard let value = codec.parse(token) else {
          throw .invalidValue(field: field.name, expected: codec.type.expectation, found: token.description)
        }
        if let rule = codec.brokenRule(value) { throw .brokenRule(field: field.name, message: rule) }
        return writeAll(value) { slot.replace(with: value, at: $0, writing: true) }
      case .unset:
        guard codec.type.isOptional else { throw .notOptional(field.name) }
        return writeAll(nil) { record in
          guard let old = slot.value(at: record) else { return nil }
          slot.store(nil, at: record)
          return .some(old)
        }
      case .add(let token), .remove(let token):
        guard let listEdit else { throw .notAList(field.name) }
        let adding = change == .add(token)
        // The element is checked once, as an `add` to an empty list checks it.
        _ = try listEdit(nil, token, true)
        var made: [(position: Int, value: Value)] = []
        for position in positions {
          let current = document.withRecord(at: position) { slot.value(at: $0) } ?? nil
          let new: Value?
          do throws(FieldError) {
            new = try listEdit(current, token, adding)
          } catch {
            // A record without the element keeps its list; any other refusal is the edit's.
            if case .elementMissing = error { continue }
            throw error
          }
          guard let new else { continue }
          if let rule = codec.brokenRule(new) { throw .brokenRule(field: field.name, message: rule) }
          made.append((position, new))
        }
        guard !made.isEmpty else { return nil }
        var news: [Value?] = []
        news.reserveCapacity(made.count)
        document.withRecordBuffer { records, _ in
          guard let base = records.baseAddress else { return }
          for (position, value) in made {
            changed.append(position)
            olds.append(slot.value(at: base + position))
            slot.store(value, at: base + position)
            news.append(value)
          }
        }
        document.markChanged(at: changed)
        return BulkUpdate(
          field: field, action: change.action, records: changed.map(document.number(at:)), olds: olds,
          news: .each(news))
      }
    }
  }

  /// A bulk edit as `Command.encoded()` spells it in compact JSON:
  ///
  ///     {"action": "set", "field": "priority", "records": [3, 1, 4], "old": [2, 0, null],
  ///      "oldAbsent": [2], "new": 5}
  ///
  /// `records` are numbers as differences (`DeltaList`); `oldAbsent` (and `newAbsent`)
  /// list, as differences too, the indexes whose value was (or becomes) absent, which
  /// `old` holds as `null`; one `new` is every record's new value, `news` one each, and
  /// neither means the field becomes absent (`unset`).
  static func makeBulkEncoder(_ codec: Codec)
    -> (BulkUpdate<Root, Codec>, inout [UInt8]) -> Void
  {
    { update, out in
      out.append(literal: #"{"action": "#)
      JSONValue.appendQuoted(update.action.rawValue, to: &out)
      out.append(literal: update.typedField.isCustom ? #", "custom": "# : #", "field": "#)
      JSONValue.appendQuoted(update.typedField.name, to: &out)
      out.append(literal: #", "records": "#)
      DeltaList.append(update.records.lazy.map { Int($0.value) }, to: &out)
      appendValues(update.olds, key: "old", codec, to: &out)
      switch update.news {
      case .same(let value?):
        out.append(literal: #", "new": "#)
        codec.appendForCommand(value, to: &out)
      case .same(nil): break
      case .each(let values): appendValues(values, key: "new", codec, to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// `, "old": [...]` (or `"news"`), and `, "oldAbsent": [...]` when a value is absent.
  private static func appendValues(_ values: [Value?], key: String, _ codec: Codec, to out: inout [UInt8]) {
    out.append(literal: key == "old" ? #", "old": ["# : #", "news": ["#)
    var absent: [Int] = []
    for (index, value) in values.enumerated() {
      if index > 0 { out.append(literal: ", ") }
      if let value {
        codec.appendForCommand(value, to: &out)
      } else {
        out.append(literal: "null")
        absent.append(index)
      }
    }
    out.append(UInt8(ascii: "]"))
    if !absent.isEmpty {
      out.append(literal: #", ""#)
      out += key.utf8
      out.append(literal: #"Absent": "#)
      DeltaList.append(absent, to: &out)
    }
  }
}
