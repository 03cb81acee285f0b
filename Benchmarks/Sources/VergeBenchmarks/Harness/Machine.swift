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
      countsAllocations: allocation_counter_is_available() != 0)
  }
}
