/// libFuzzer's entry point: one input is one data file's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzRecordFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  RecordFileCheck.check(UnsafeBufferPointer(start: data, count: size))
  return 0
}
