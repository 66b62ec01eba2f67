/// libFuzzer's entry point: one input is one JSON Schema document.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzSchema(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  SchemaCheck.check(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
