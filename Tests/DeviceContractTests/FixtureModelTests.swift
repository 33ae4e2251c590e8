import DeviceContract
import XCTest

/// Model files as apps have them, read unmodified from Fixtures/: a model in the shape of Apple's
/// documented sample (a type alias and a ClosedRange<Date>), the same with the alias the other way round,
/// and the file Xcode 15 and later generate for a Live Activity (a widget, previews and a #Preview).
final class FixtureModelTests: XCTestCase {
    private func fixture(_ name: String) throws -> ActivityKitModel {
        try ModelDeclaration.parse(source: try TestFiles.text("Tests/DeviceContractTests/Fixtures/\(name).swift"), file: "\(name).swift")
    }

    private func failures(_ model: ActivityKitModel, _ contentState: String) -> [DecodeFailure] {
        let payload = #"{"aps":{"timestamp":1714042800,"event":"update","content-state":\#(contentState)}}"#
        return PayloadCheck(model: model).check(payload: Array(payload.utf8), event: .update)
    }

    func testApplesSampleShapeLoadsAndChecksItsDeliveryWindow() throws {
        let model = try fixture("PizzaDeliveryAttributes")
        XCTAssertEqual(model.attributesTypeName, "PizzaDeliveryAttributes")
        XCTAssertEqual(model.attributesKeys, ["numberOfPizzas", "totalAmount", "orderNumber"])
        XCTAssertEqual(model.contentStateKeys, ["driverName", "estimatedDeliveryTime"])
        XCTAssertEqual(model.unchecked, [])
        XCTAssertEqual(failures(model, #"{"driverName":"Anne","estimatedDeliveryTime":[766000000,766001800]}"#), [])
        let reversed = failures(model, #"{"driverName":"Anne","estimatedDeliveryTime":[766001800,766000000]}"#)
        XCTAssertEqual(reversed.map(\.path), ["content-state.estimatedDeliveryTime"])
        XCTAssertEqual(reversed.map(\.reason), [.invalidValue])
        let iso = failures(model, #"{"driverName":"Anne","estimatedDeliveryTime":["2025-04-16T10:00:00Z","2025-04-16T10:30:00Z"]}"#)
        XCTAssertEqual(iso.map(\.path), ["content-state.estimatedDeliveryTime[0]", "content-state.estimatedDeliveryTime[1]"])
        XCTAssertEqual(iso.map(\.reason), [.badDate, .badDate])
    }

    func testContentStateMayBeAnAliasOfAStructBesideIt() throws {
        let model = try fixture("PizzaDeliveryStatusAlias")
        XCTAssertEqual(model.contentStateKeys, ["driverName", "estimatedDeliveryTime"])
        XCTAssertEqual(model.attributesKeys, ["numberOfPizzas", "totalAmount"])
        XCTAssertEqual(failures(model, #"{"driverName":"Anne","estimatedDeliveryTime":[1]}"#).map(\.path), ["content-state.estimatedDeliveryTime[1]"])
    }

    func testXcodesLiveActivityTemplateLoadsWithItsWidgetAndPreview() throws {
        let model = try fixture("OrderTrackerLiveActivity")
        XCTAssertEqual(model.attributesTypeName, "OrderTrackerAttributes")
        XCTAssertEqual(model.attributesKeys, ["name"])
        XCTAssertEqual(model.contentStateKeys, ["emoji"])
        XCTAssertEqual(model.unchecked, [])
        XCTAssertEqual(failures(model, #"{"emoji":"👋"}"#), [])
        XCTAssertEqual(failures(model, #"{"emoji":null}"#).map(\.reason), [.nullForNonOptional])
    }

    /// The fixtures hold the oracle's declarations, so the oracle table's rows for them are rows for the
    /// files themselves.
    func testFixturesHoldTheOracleDeclarations() throws {
        XCTAssertTrue(try TestFiles.text("Tests/DeviceContractTests/Fixtures/PizzaDeliveryAttributes.swift").contains(pizzaDeliveryDeclaration))
        XCTAssertTrue(try TestFiles.text("Tests/DeviceContractTests/Fixtures/OrderTrackerLiveActivity.swift").contains(orderTrackerDeclaration))
    }
}
