/// Verge's name for the root state of a store: an `Equatable`, `Sendable`
/// value, which is all a `Store` asks of its state.
///
/// ```swift
/// struct RootState: RootStateType {
///   var database: Database = .init()
/// }
/// let store = Store<RootState, Never>(initialState: .init())
/// ```
///
/// Code written from Verge's documentation declares its state this way; it
/// means exactly `Equatable & Sendable`, and a state that declares
/// `Equatable` instead works everywhere the same. Conforming synthesises
/// `==` as `Equatable` does, and a database in the state compares in O(1)
/// for the parts a batch did not touch.
public protocol RootStateType: Equatable, Sendable {}
