/// libFuzzer's entry point: one input is one JSON document.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  JSONCheck.check(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
