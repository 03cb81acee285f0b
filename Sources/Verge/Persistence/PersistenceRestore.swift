import Foundation

/// Reading the state file when persistence is attached.
struct PersistenceRestore<Part: Decodable & Sendable>: Sendable {
  /// What happened.
  var outcome: RestoreOutcome
  /// The value to put into the state, if any; on the heap, so that a large
  /// state is not copied from frame to frame on the restoring thread's
  /// stack (a 64 KiB state must restore on a 512 KiB thread).
  var value: Restored?
  /// The file's bytes when it was restored as is.
  var file: Data?

  /// A restored value.
  final class Restored: Sendable {
    let value: Part

    init(_ value: Part) {
      self.value = value
    }
  }

  /// Reads, checks, decodes or migrates the file at `path`; moves a refused
  /// file aside.
  ///
  /// - Throws: `.io` when the file cannot be read or moved aside.
  static func read(
    _ path: String, version: Int, migrate: (@Sendable (PersistedPayload) throws -> Part)?
  ) throws(PersistenceError) -> PersistenceRestore {
    guard let file = try StateFile.contents(of: path) else {
      return PersistenceRestore(outcome: .nothingStored)
    }
    do throws(PersistenceError) {
      let (stored, payload) = try StateFile.unframe(file)
      if stored > version {
        throw .newerVersion(found: stored, supported: version)
      }
      if stored < version {
        guard let migrate else {
          throw .migrationFailed(from: stored, to: version, reason: "no migration was given")
        }
        do {
          let value = try Restored(migrate(PersistedPayload(version: stored, data: payload)))
          return PersistenceRestore(outcome: .migrated(from: stored, to: version), value: value)
        } catch {
          throw .migrationFailed(from: stored, to: version, reason: "\(error)")
        }
      }
      do {
        let value = try Restored(JSONDecoder().decode(Part.self, from: payload))
        return PersistenceRestore(outcome: .restored(version: stored), value: value, file: file)
      } catch {
        throw .undecodable(reason: "\(error)")
      }
    } catch {
      let aside = try StateFile.moveAside(path)
      return PersistenceRestore(outcome: .refused(error, movedAsideTo: URL(fileURLWithPath: aside)))
    }
  }
}
