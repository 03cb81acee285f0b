import VergeORM
import XCTest
