import VergeTesting
import XCTest
