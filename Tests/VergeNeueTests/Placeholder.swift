import VergeNeue
import XCTest
