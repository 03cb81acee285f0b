import CAllocationCounter

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the report says about the machine it ran on.
struct Machine {
  let processors: Int
  let architecture: String
  let system: String
  let countsAllocations: Bool
  /// When the run started, in UTC.
  let date: String

  static var current: Machine {
    var name = utsname()
    uname(&name)
    func text<T>(_ field: T) -> String {
      withUnsafeBytes(of: field) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
    }
    return Machine(
      processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
      architecture: text(name.machine),
      system: "\(text(name.sysname)) \(text(name.release))",
      countsAllocations: allocationCounterWorks(),
      date: utcNow())
  }
}

/// The current date and time in UTC, as `2026-11-21 20:15 UTC`.
private func utcNow() -> String {
  var now = time(nil)
  var parts = tm()
  gmtime_r(&now, &parts)
  func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
  return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
    + "\(two(parts.tm_hour)):\(two(parts.tm_min)) UTC"
}

/// Whether the allocation counter is built in and really sees allocations:
/// if the interposition ever stopped working, the report must say "n/a"
/// rather than claim zero allocations.
func allocationCounterWorks() -> Bool {
  guard allocation_counter_is_available() != 0 else { return false }
  let before = allocation_counter_count()
  let pointer = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
  blackHole(pointer)
  pointer.deallocate()
  return allocation_counter_count() > before
}
