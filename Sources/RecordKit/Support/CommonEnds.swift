/// How many elements two sequences share at their start, and then at their end (the end
/// never reaching into the start): what stays when the middle of one became the other's.
/// O(the shared elements + 1) comparisons.
func commonEnds<Element>(_ before: [Element], _ after: [Element], _ same: (Element, Element) -> Bool)
  -> (prefix: Int, suffix: Int)
{
  var prefix = 0
  while prefix < before.count, prefix < after.count, same(before[prefix], after[prefix]) { prefix += 1 }
  var suffix = 0
  while suffix < before.count - prefix, suffix < after.count - prefix,
    same(before[before.count - 1 - suffix], after[after.count - 1 - suffix])
  {
    suffix += 1
  }
  return (prefix, suffix)
}
