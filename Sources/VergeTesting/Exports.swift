@_exported import Verge
@_exported import VergeNeue
