/// A writable key path that may cross threads.
struct SendableWritableKeyPath<Root, Value> {
  let value: WritableKeyPath<Root, Value>

  init(_ value: WritableKeyPath<Root, Value> & Sendable) {
    self.value = value
  }

  private init(unchecked value: WritableKeyPath<Root, Value>) {
    self.value = value
  }

  func appending<Child>(_ child: SendableWritableKeyPath<Value, Child>) -> SendableWritableKeyPath<Root, Child> {
    SendableWritableKeyPath<Root, Child>(unchecked: value.appending(path: child.value))
  }
}
