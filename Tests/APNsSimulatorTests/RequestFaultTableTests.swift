import APNsCore
@testable import APNsSimulator
import XCTest

/// The request faults as one table: every fault is a configuration key, counts in the sum check, makes the
/// dice roll and is drawn in its share.
final class RequestFaultTableTests: XCTestCase {
    func testTheSharesLieEndToEndInTheDicesOrder() {
        XCTAssertEqual(Set(RequestFault.diceOrder), Set(RequestFault.allCases), "every fault is on the dice")
        XCTAssertEqual(RequestFault.diceOrder.count, RequestFault.allCases.count, "each once")
        XCTAssertEqual(RequestFault.diceOrder, [.connectionReset, .stall, .internalServerError, .serviceUnavailable, .tooManyRequests, .shutdown],
                       "the order seeded runs have always drawn in")
        var shares = RequestFaultShares()
        for fault in RequestFault.allCases { shares[fault] = 0.1 }
        for (place, fault) in RequestFault.diceOrder.enumerated() {
            XCTAssertEqual(shares.fault(at: 0.1 * Double(place) + 0.05), fault)
        }
        XCTAssertNil(shares.fault(at: 0.65), "past the last share no fault is drawn")
        XCTAssertEqual(shares.total, 0.6, accuracy: 1e-12)
    }

    func testEveryFaultIsAKeyTheSumCheckAndTheDiceRead() throws {
        for fault in RequestFault.allCases {
            let key = try XCTUnwrap(SimulatorKeys.all.first { $0.path == fault.key }, "\(fault) has no configuration key")
            var c = SimulatorConfiguration()
            try SimulatorConfigFile.apply(yaml: "faults:\n  \(fault.key.dropFirst("faults.".count)): 0.6\n", file: "sim.yaml", to: &c)
            XCTAssertEqual(c.faults.requestFaults[fault], 0.6, key.path)
            XCTAssertTrue(c.faults.rollsDice, "\(fault) makes the dice roll")
            XCTAssertEqual(c.faults.requestFaults.fault(at: 0.3), fault, "\(fault) alone is drawn below its share")
            let other = RequestFault.allCases.first { $0 != fault }!
            let over = "faults:\n  \(fault.key.dropFirst("faults.".count)): 0.6\n  \(other.key.dropFirst("faults.".count)): 0.6\n"
            var d = SimulatorConfiguration()
            XCTAssertThrowsError(try SimulatorConfigFile.apply(yaml: over, file: "sim.yaml", to: &d), "\(fault) counts in the sum check")
        }
    }
}
