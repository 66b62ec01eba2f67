extension Array {
  /// Removes the elements from `start` on and returns them as an array of their own.
  ///
  /// The reader builds each container's elements on a shared stack and then takes them
  /// off in one piece. Copying them out and then removing them costs an atomic retain and
  /// release per element; moving them costs neither. The vacated slots get `placeholder`,
  /// a value without references, before they are removed.
  mutating func moveSuffix(from start: Int, leaving placeholder: Element) -> [Element] {
    let count = self.count - start
    let moved = [Element](unsafeUninitializedCapacity: count) { target, initialized in
      self.withUnsafeMutableBufferPointer { source in
        let suffix = UnsafeMutableBufferPointer(rebasing: source[start...])
        _ = target.moveInitialize(fromContentsOf: suffix)
        suffix.initialize(repeating: placeholder)
      }
      initialized = count
    }
    removeLast(count)
    return moved
  }
}

extension JSONObject.Member {
  /// What a member moved out of a stack of members (`moveSuffix`) leaves in its slot.
  static let placeholder = JSONObject.Member(key: "", value: .null)
}
