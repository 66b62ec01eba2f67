/// libFuzzer's entry point: one input is one line of shell input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzCommandLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  CommandLineCheck.check(UnsafeBufferPointer(start: data, count: size))
  return 0
}
