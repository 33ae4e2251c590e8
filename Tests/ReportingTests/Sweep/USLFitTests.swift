import Reporting
import XCTest

/// The Universal Scalability Law fit on synthetic curves: exact, Amdahl-only, linear and noisy, and the
/// inputs it refuses.
final class USLFitTests: XCTestCase {
    let ns: [Double] = [1, 2, 4, 8, 16, 32, 64, 128, 256]

    func curve(sigma: Double, kappa: Double, lambda: Double, noise: [Double] = []) -> [USLFit.Point] {
        ns.enumerated().map { i, n in
            let x = lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))
            return USLFit.Point(concurrency: n, throughput: x * (1 + (noise.isEmpty ? 0 : noise[i % noise.count])))
        }
    }

    func assertRelative(_ actual: Double, _ expected: Double, within tolerance: Double, _ what: String,
                        file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertLessThanOrEqual(abs(actual - expected) / expected, tolerance, "\(what): \(actual), expected \(expected)", file: file, line: line)
    }

    func testRecoversKnownParametersFromExactData() throws {
        let fit = try USLFit.fit(curve(sigma: 0.05, kappa: 0.0002, lambda: 1000))
        assertRelative(fit.sigma, 0.05, within: 0.02, "σ")
        assertRelative(fit.kappa, 0.0002, within: 0.10, "κ")
        assertRelative(fit.lambda, 1000, within: 0.02, "λ")
        let peak = try XCTUnwrap(fit.peakConcurrency)
        assertRelative(peak, (0.95 / 0.0002).squareRoot(), within: 0.05, "N*")
        let peakX = try XCTUnwrap(fit.peakThroughput)
        assertRelative(peakX, fit.predicted(peak), within: 1e-12, "X(N*)")
        XCTAssertGreaterThan(peakX, fit.predicted(peak * 0.9))
        XCTAssertGreaterThan(peakX, fit.predicted(peak * 1.1))
        XCTAssertGreaterThan(fit.rSquared, 0.9999)
        assertRelative(fit.predicted(1), fit.lambda, within: 1e-12, "X(1) is λ")
    }

    func testAmdahlOnlyDataHasNoPeak() throws {
        let fit = try USLFit.fit(curve(sigma: 0.1, kappa: 0, lambda: 500))
        XCTAssertEqual(fit.kappa, 0)
        XCTAssertNil(fit.peakConcurrency)
        XCTAssertNil(fit.peakThroughput)
        assertRelative(fit.sigma, 0.1, within: 0.02, "σ")
        assertRelative(fit.lambda, 500, within: 0.02, "λ")
        XCTAssertGreaterThan(fit.rSquared, 0.9999)
    }

    func testLinearScalingIsNoContentionAndNoPeak() throws {
        let fit = try USLFit.fit(curve(sigma: 0, kappa: 0, lambda: 250))
        XCTAssertEqual(fit.sigma, 0, accuracy: 1e-6)
        XCTAssertEqual(fit.kappa, 0)
        XCTAssertNil(fit.peakConcurrency)
        assertRelative(fit.lambda, 250, within: 1e-6, "λ")
    }

    func testNoisyDataStaysClose() throws {
        let patterns: [[Double]] = [
            [0.03, -0.03],
            [0.03, -0.02, 0.01, -0.03, 0.02, -0.01, 0.03, -0.02, 0.01],
        ]
        for noise in patterns {
            let fit = try USLFit.fit(curve(sigma: 0.05, kappa: 0.0002, lambda: 1000, noise: noise))
            assertRelative(fit.sigma, 0.05, within: 0.15, "σ with noise \(noise)")
            assertRelative(fit.kappa, 0.0002, within: 0.15, "κ with noise \(noise)")
            assertRelative(fit.lambda, 1000, within: 0.15, "λ with noise \(noise)")
            XCTAssertNotNil(fit.peakConcurrency)
            XCTAssertGreaterThan(fit.rSquared, 0.95)
        }
    }

    func testOrderAndRepeatsDoNotMatter() throws {
        let points = curve(sigma: 0.05, kappa: 0.0002, lambda: 1000)
        let fit = try USLFit.fit(points)
        XCTAssertEqual(try USLFit.fit(points), fit, "deterministic")
        let reversed = try USLFit.fit(Array(points.reversed()))
        assertRelative(reversed.kappa, fit.kappa, within: 1e-6, "κ from the points in another order")
        assertRelative(reversed.sigma, fit.sigma, within: 1e-6, "σ from the points in another order")
        let twice = try USLFit.fit(points + points)
        assertRelative(twice.kappa, fit.kappa, within: 1e-6, "κ from every point measured twice")
    }

    func testPointsComeFromTheCellsThatHaveBoth() throws {
        var cells = MatrixCellTests.cells()
        cells[1].concurrency = nil
        cells[2].throughput = nil
        cells[3].throughput = 0
        let points = USLFit.points(cells)
        XCTAssertEqual(points.map(\.concurrency), [1, 128, 256])
        XCTAssertEqual(points.first?.throughput, cells[0].throughput)
        XCTAssertNoThrow(try USLFit.fit(points))
    }

    func testRefusesTooFewConcurrenciesAndInvalidPoints() {
        func refusal(_ points: [USLFit.Point]) -> USLFit.Refusal? {
            do throws(USLFit.Refusal) { _ = try USLFit.fit(points); return nil } catch { return error }
        }
        let p = { (n: Double, x: Double) in USLFit.Point(concurrency: n, throughput: x) }
        XCTAssertEqual(refusal([]), .tooFewConcurrencies(distinct: 0))
        XCTAssertEqual(refusal([p(1, 100), p(2, 190), p(2, 195), p(1, 101)]), .tooFewConcurrencies(distinct: 2))
        XCTAssertEqual(refusal([p(1, 100), p(0, 190), p(4, 300)]), .invalidPoint(index: 1, concurrency: 0, throughput: 190))
        XCTAssertEqual(refusal([p(1, 100), p(2, 190), p(4, 0)]), .invalidPoint(index: 2, concurrency: 4, throughput: 0))
        XCTAssertEqual(refusal([p(1, -5), p(2, 190), p(4, 300)]), .invalidPoint(index: 0, concurrency: 1, throughput: -5))
        XCTAssertNotNil(refusal([p(1, 100), p(2, .nan), p(4, 300)]))
        XCTAssertNotNil(refusal([p(1, 100), p(.infinity, 190), p(4, 300)]))
        XCTAssertEqual(USLFit.Refusal.tooFewConcurrencies(distinct: 2).description,
                       "a USL fit needs throughput at 3 or more distinct concurrencies; got 2")
        XCTAssertEqual(USLFit.Refusal.invalidPoint(index: 1, concurrency: 0, throughput: 190).description,
                       "point 1 (concurrency 0, throughput 190): concurrency must be at least 1 and throughput above 0")
    }
}
