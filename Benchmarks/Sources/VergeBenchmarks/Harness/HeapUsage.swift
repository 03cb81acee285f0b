import CAllocationCounter

/// Bytes of heap in use right now, as glibc's allocator accounts them
/// (`mallinfo2()`: `uordblks`, the bytes of chunks handed out from the
/// arenas with their headers, plus `hblkhd`, the bytes of blocks it mapped
/// on their own); freed chunks are not counted. `nil` where glibc (2.33 or
/// later) is not the allocator.
func liveHeapBytes() -> Int? {
  let bytes = allocation_counter_live_heap_bytes()
  return bytes < 0 ? nil : Int(bytes)
}

/// The live heap bytes that `build`'s result holds while it is kept, or `nil`
/// when the heap cannot be measured here.
///
/// Taken before and after building a structure that is then kept alive, the
/// difference is what the structure holds, without the garbage made while
/// building it.
func heapBytesHeld<Value>(by build: () -> Value) -> Double? {
  guard let before = liveHeapBytes() else { return nil }
  let value = build()
  let after = liveHeapBytes() ?? before
  withExtendedLifetime(value) {}
  return Double(after - before)
}
