import ExampleTerminal
import Verge
@testable import comments

/// A thread-safe list of activities, for subscribers in tests.
final class NoticeList: Sendable {
  private let items = Locked<[GalleryActivity]>([])

  func append(_ item: GalleryActivity) {
    items.withLock { $0.append(item) }
  }

  var all: [GalleryActivity] { items.withLock { $0 } }
}
