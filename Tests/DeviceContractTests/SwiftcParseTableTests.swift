import DeviceContract
import Foundation
import TestSupport
import XCTest

/// The model reader refuses what the Swift compiler's parser refuses, in the declarations it reads: a table of
/// declarations, each read by ``ModelDeclaration/parse(source:file:attributesType:)`` and by `swiftc -parse`,
/// passes only when both refuse or both accept. A refusal names the file, the line and, for a token, the column.
/// Without swiftc (no toolchain at /opt/swift, none on PATH) the compiler's side is skipped and the reader's
/// expected verdicts still hold.
final class SwiftcParseTableTests: XCTestCase {
    /// One row: members of ContentState (from line 3), whether the compiler accepts them, and where the
    /// reader's refusal points (`line:column`) when it does not.
    struct Row {
        let members: String
        let accepted: Bool
        let at: String?
        init(_ members: String, accepted: Bool = false, at: String? = nil) {
            self.members = members
            self.accepted = accepted
            self.at = at
        }
    }

    static let rows: [Row] = [
        Row("        let trackingNumber: String, let: Int", at: "3:37"),
        Row("        var a: Int var b: Int", at: "3:20"),
        Row("        var class: Int", at: "3:13"),
        Row("        var step: Step\n        enum Step: String, Codable, Hashable { case a, default }", at: "4:56"),
        Row("        var a: [Int"),
        Row("        var a: Int,", at: "4:5"),
        Row("        var a: Int = "),
        Row("        let x: Int = 1 = 2", accepted: true), // an assignment in an initial value: the type checker's error, not the parser's
        Row("        var a: Int\n        struct : Codable {}", at: "4:16"),
        Row("        var a: Int\n        typealias = Int", at: "4:19"),
        Row("        var step: Step\n        enum Step: Int, Codable, Hashable { case a = }"),
        Row("        var a: Int }", at: "5:1"),
        Row("        var a: Int; var b: String", accepted: true),
        Row("        var `default`: Int\n        let a: Int, b: String", accepted: true),
        Row("        var type: Int\n        var get: String?", accepted: true),
    ]

    static func source(_ row: Row) -> String {
        "struct A: ActivityAttributes {\n    struct ContentState: Codable, Hashable {\n" + row.members + "\n    }\n}\n"
    }

    /// The compiler, when there is one.
    static var swiftc: String? {
        let candidates = ["/opt/swift/usr/bin/swiftc"] + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swiftc" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func testEachMalformedDeclarationIsRefusedByTheReaderAsByTheCompiler() throws {
        let dir = try ScratchFolder.make("swiftc-parse", removedBy: addTeardownBlock)
        let compiler = Self.swiftc
        var refusedByBoth = 0, acceptedByBoth = 0
        for (i, row) in Self.rows.enumerated() {
            let source = Self.source(row)
            let reader: ModelError?
            do { _ = try ModelDeclaration.parse(source: source, file: "Row.swift"); reader = nil } catch { reader = error }
            XCTAssertEqual(reader == nil, row.accepted, "row \(i): the reader \(reader.map { "refused: \($0)" } ?? "accepted"):\n\(source)")
            if let reader, let at = row.at {
                XCTAssertTrue(reader.description.hasPrefix("Row.swift:\(at): "), "row \(i): \(reader)")
            }
            guard let compiler else { continue }
            let file = dir.appendingPathComponent("Row\(i).swift")
            try source.write(to: file, atomically: true, encoding: .utf8)
            let swiftc = try runChild(URL(fileURLWithPath: compiler), ["-parse", file.path])
            XCTAssertEqual(swiftc.status == 0, row.accepted,
                           "row \(i): swiftc -parse \(swiftc.status == 0 ? "accepted" : "refused"):\n\(source)\n\(swiftc.output)")
            if (swiftc.status == 0) == (reader == nil) {
                if reader == nil { acceptedByBoth += 1 } else { refusedByBoth += 1 }
            }
        }
        let malformed = Self.rows.filter { !$0.accepted }.count
        let refused = compiler == nil ? "swiftc absent: the reader's side only" : "\(refusedByBoth) refused by both"
        print("swiftc -parse table: \(malformed) malformed declarations, \(refused); "
            + "\(Self.rows.count - malformed) well-formed, \(compiler == nil ? "-" : "\(acceptedByBoth)") accepted by both")
    }
}
