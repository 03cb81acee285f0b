@_exported import Verge
