// Every access to the boxed value happens while holding the box's lock word (acquired with
// acquiring, released with releasing ordering), and the value itself is Sendable.
extension LockedBox: @unchecked Sendable {}
