import Foundation

/// Whether this process runs under the Thread Sanitizer (its runtime is
/// linked in).
public var isThreadSanitized: Bool {
  guard let process = dlopen(nil, RTLD_NOW) else { return false }
  defer { dlclose(process) }
  return dlsym(process, "__tsan_init") != nil
}
