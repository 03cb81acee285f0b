// The collections are part of what `import Verge` brings: state that keeps
// its rows in an `IdentifiedArray` needs no second import.
@_exported import VergeCollections
