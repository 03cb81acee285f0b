#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Bionic)
import Bionic
#endif

/// `errno` and its message, for `PersistenceError.io`.
enum SystemError {
  /// The calling thread's `errno`.
  static var code: Int32 { errno }

  /// `strerror`'s text for `code`.
  static func message(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "unknown error" }
    return String(cString: text)
  }

  /// The `io` error for the failed call `operation` on `path`, with the
  /// current `errno`.
  static func io(_ operation: String, _ path: String) -> PersistenceError {
    .io(operation: operation, path: path, code: errno)
  }
}
