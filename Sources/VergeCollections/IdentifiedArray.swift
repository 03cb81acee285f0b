/// An ordered, random-access collection of elements with unique ids: the
/// collection to keep a list's rows in when the state is shared, copied and
/// compared, as a store's state is.
///
/// It reads like an array (`array[0]`, `for row in array`) and like a
/// dictionary (`array[id: id]`), and refuses a second element with an id it
/// already holds. The surface is that of The Composable Architecture's
/// `IdentifiedArray` (swift-identified-collections).
///
/// ```swift
/// struct Row: Identifiable, Equatable {
///   let id: Int
///   var title: String
/// }
///
/// var rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "One"), Row(id: 2, title: "Two")]
/// rows[id: 2]?.title = "Deux"        // write by id
/// rows[id: 3] = Row(id: 3, title: "Three") // a missing id appends
/// rows[id: 1] = nil                 // nil removes
/// ```
///
/// It is structurally shared: elements live in a persistent B-tree and ids
/// in a persistent hash trie (CHAMP), whose nodes copies share. Copying an
/// array costs O(1); writing one element while an older copy is held (as a
/// store does for its subscribers' `previous` state) copies one path of
/// nodes, O(log n), not the whole array; and `==` between two versions
/// skips the nodes they share, so it visits only what differs.
///
/// Such a write does not take a reference to each child of a wide node it
/// copies: the copy keeps the node it was copied from alive instead, and
/// shares its children through it. So an element replaced by a write while
/// an older copy was held can outlive every copy that holds it, for as long
/// as the current array keeps that older node: until a quarter of the
/// node's children have been written, a change of its structure (an
/// insertion or a removal below it), or the array itself goes. Nothing else
/// reaches such an element; at 100,000 rows at most a few hundred of them
/// are kept this way. A small array, whose root has fewer than 16 children
/// (up to a few hundred rows), copies its nodes whole and releases a
/// replaced element with the last copy that holds it.
///
/// | operation | cost |
/// |---|---|
/// | copy | O(1) |
/// | `array[id:]` read, `index(id:)`, `ids.contains` | O(log n) |
/// | `array[id:]` write or remove, `remove(id:)` | O(log n), also while a copy is held |
/// | `array[i]` read or write | O(log n) |
/// | `append`, `insert(_:at:)`, `remove(at:)`, `removeFirst`, `removeLast` | O(log n) amortized |
/// | `insert(contentsOf:at:)`, `replaceSubrange`, `removeSubrange` of k | O(k log n) |
/// | iteration | O(n) in all |
/// | `==` of two versions | O(changed × log n); O(n) for unrelated arrays |
/// | `sort`, `filter`, `reverse`, `removeAll(where:)` | O(n log n), O(n) |
///
/// Duplicate ids are a programming error where the caller promises
/// uniqueness (``init(uniqueElements:id:)``, array literals, writes through
/// ``subscript(id:)`` or `array[i]` that change an element's id): they stop
/// the program with a message naming the id. Where duplicates can happen,
/// ``append(_:)`` and ``insert(_:at:)`` report them (`inserted == false`)
/// and decoding throws a `DecodingError`.
public struct IdentifiedArray<ID: Hashable, Element> {
  /// The elements, in order, each with its order label.
  @usableFromInline var list: PersistentList<Element>
  /// Each element's order label, by id.
  @usableFromInline var positions: PersistentMap<ID, UInt64>
  /// Reads an element's id: `{ $0.id }` for `Identifiable` elements,
  /// specialized where the array is made (a key path would be read through
  /// the runtime on every insertion and removal).
  @usableFromInline let identify: Identify

  /// Reads an element's id.
  @usableFromInline typealias Identify = (Element) -> ID

  @inlinable
  init(list: PersistentList<Element>, positions: PersistentMap<ID, UInt64>, identify: @escaping (Element) -> ID) {
    self.list = list
    self.positions = positions
    self.identify = identify
  }

  /// An array of `elements`, whose ids (read through `id`) must be unique.
  ///
  /// Two elements with one id stop the program with a message naming the id.
  ///
  /// - Parameters:
  ///   - elements: The elements, in order.
  ///   - id: The key path of an element's id.
  /// - Complexity: O(n log n).
  @inlinable
  public init<S: Sequence>(uniqueElements elements: S, id: KeyPath<Element, ID>) where S.Element == Element {
    self.init(uniqueElements: elements, identify: { $0[keyPath: id] })
  }

  /// An array of `elements` identified by `identify`; a duplicate id stops
  /// the program.
  @inlinable
  init<S: Sequence>(
    uniqueElements elements: S, identify: @escaping (Element) -> ID, from source: StaticString = "init(uniqueElements:)"
  ) where S.Element == Element {
    let (array, duplicate) = Self.building(ContiguousArray(elements), identify: identify)
    if let duplicate {
      Misuse.report("IdentifiedArray: duplicate id \(String(reflecting: duplicate)) in \(source)")
    }
    self = array
  }

  /// An array of `elements`, or the first id found twice (then the array
  /// is empty).
  ///
  /// The tree and the id trie are both built bottom-up, each node once at
  /// its final size.
  ///
  /// - Complexity: O(n log₁₆ n), with a small constant.
  @inlinable
  static func building(_ elements: ContiguousArray<Element>, identify: @escaping (Element) -> ID) -> (Self, duplicate: ID?) {
    var ids = ContiguousArray<ID>()
    ids.reserveCapacity(elements.count)
    elements.withUnsafeBufferPointer { elements in
      for element in elements { ids.append(identify(element)) }
    }
    let (first, stride) = PersistentList<Element>.freshLabels(count: elements.count)
    let label: (Int) -> UInt64 = { offset in first &+ stride &* UInt64(truncatingIfNeeded: offset) }
    let (positions, duplicate) = PersistentMap<ID, UInt64>.building(keys: ids, value: label)
    if let duplicate {
      return (Self(list: PersistentList(), positions: PersistentMap(), identify: identify), ids[duplicate])
    }
    return (Self(list: PersistentList(elements), positions: positions, identify: identify), nil)
  }

  /// The elements, as an `Array`.
  ///
  /// - Complexity: O(n).
  @inlinable
  public var elements: [Element] {
    Array(self)
  }

  /// The element with `id`, or `nil`; writing stores an element under its
  /// id.
  ///
  /// Writing `nil` removes the element with `id`; writing an element for an
  /// id the array does not hold appends it; writing an element whose own id
  /// is not `id` stops the program.
  ///
  /// ```swift
  /// rows[id: 2]?.title = "Deux"
  /// rows[id: 1] = nil
  /// ```
  ///
  /// - Parameter id: The id of the element.
  /// - Complexity: O(log n), also while a copy of the array is held.
  @inlinable
  public subscript(id id: ID) -> Element? {
    // Inlined into the reader: a call would cost a subscriber or a derived
    // value reading one row about 40 instructions more per read.
    @inline(__always) get {
      guard let label = positions[id] else { return nil }
      return list.element(label: label)
    }
    set {
      guard let newValue else {
        remove(id: id)
        return
      }
      checkID(of: newValue, writtenUnder: id)
      if let label = positions[id] {
        list.uniqueElement(label: label).pointee = newValue
      } else {
        insertNew(newValue, id: id, at: count)
      }
    }
    // Everything but the write back of an element that keeps its id is out
    // of line, in `settle(_:id:found:)`, so the common path stays short.
    _modify {
      // One lookup and one descent that unshares the path; the element is
      // written back where it was.
      let slot = positions[id].map { list.uniqueElement(label: $0) }
      var element: Element? = slot.map { $0.pointee }
      yield &element
      if let slot, let element, identify(element) == id {
        slot.pointee = element
      } else {
        settle(element, id: id, found: slot != nil)
      }
    }
  }

  /// The rest of a write through ``subscript(id:)`` that does not write an
  /// element back under its own id: `nil` removes the element (if any), a
  /// new element is appended, an element with another id stops the program.
  @inlinable @inline(never)
  mutating func settle(_ element: Element?, id: ID, found: Bool) {
    guard let element else {
      if found { remove(id: id) }
      return
    }
    checkID(of: element, writtenUnder: id)
    // Only reached for an id the array did not hold: one it held, written
    // back with its own id, is written in the accessor.
    insertNew(element, id: id, at: count)
  }

  /// Stops the program when `element` does not have `id`.
  @inlinable
  func checkID(of element: Element, writtenUnder id: ID) {
    let newID = identify(element)
    if newID != id {
      Misuse.report(
        "IdentifiedArray: an element with id \(String(reflecting: newID)) was written under id \(String(reflecting: id))")
    }
  }

  /// The position of the element with `id`, or `nil`.
  ///
  /// - Parameter id: The id to look for.
  /// - Returns: The element's index.
  /// - Complexity: O(log n).
  @inlinable
  public func index(id: ID) -> Int? {
    positions[id].map { list.index(ofLabel: $0) }
  }

  /// Whether `self` and `other` hold their ids in the same storage, so
  /// their ids are equal, in the same order; `false` says nothing.
  ///
  /// A write by id or by index that keeps the id leaves the ids' storage
  /// alone; an insertion, removal or move replaces it.
  ///
  /// - Complexity: O(1).
  @inlinable
  package func hasIdenticalIDs(to other: Self) -> Bool {
    positions.isIdentical(to: other.positions)
  }
}

/// An ``IdentifiedArray`` of `Identifiable` elements, identified by their
/// `id`.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

extension IdentifiedArray where Element: Identifiable, ID == Element.ID {
  /// An empty array.
  ///
  /// - Complexity: O(1).
  @inlinable
  public init() {
    self.init(list: PersistentList(), positions: PersistentMap(), identify: { $0.id })
  }

  /// An array of `elements`, whose ids must be unique.
  ///
  /// Two elements with one id stop the program with a message naming the id
  /// (as in The Composable Architecture). To keep the first of each id
  /// instead, ``append(_:)`` them one by one: it reports a duplicate and
  /// leaves the array alone.
  ///
  /// - Parameter elements: The elements, in order.
  /// - Complexity: O(n log n).
  @inlinable
  public init<S: Sequence>(uniqueElements elements: S) where S.Element == Element {
    self.init(uniqueElements: elements, identify: { $0.id })
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, ID == Element.ID {
  /// An array of the literal's elements, whose ids must be unique (a
  /// duplicate stops the program with a message naming the id).
  ///
  /// - Parameter elements: The elements, in order.
  /// - Complexity: O(n log n).
  @inlinable
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements, identify: { $0.id }, from: "an array literal")
  }
}
