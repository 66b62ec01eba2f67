/// libFuzzer's entry point: one input is one file's bytes, read as a `.csv` and as a `.tsv`.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  CSVCheck.check(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
