/// The build a model file's `#if` blocks are evaluated for: the app as it runs on an iPhone.
///
/// - `os(iOS)` holds and every other `os(…)` does not; `arch(arm64)`, `_endian(little)`,
///   `_pointerBitWidth(_64)` and `_runtime(_Native)` hold; `targetEnvironment(…)` holds for nothing
///   (a device, not the simulator or Mac Catalyst).
/// - `canImport(…)` holds for the iOS SDK's modules (``iOSModules``) and for the modules listed in
///   ``importableModules``; it fails for modules of other platforms (``otherPlatformModules``). Any
///   other module cannot be known.
/// - `swift(…)` and `compiler(…)` compare against the versions App Store builds are made with: the
///   compiler 6.0 to 6.3 (Xcode 16 or later), and the language mode 5 (reported as 5.10) or 6.0 to 6.3.
///   A comparison whose answer differs across those cannot be known.
/// - `DEBUG` and the app's own flags: with ``flags`` nil, `DEBUG` is unset (App Store and TestFlight
///   builds are Release) and any other flag cannot be known; with ``flags`` set, exactly those are set.
///
/// A condition that cannot be known is an error naming it (and ``flagsSetting``), unless the rest of the
/// condition decides the answer (`false && X`, `true || X`).
public struct CompilationConditions: Sendable, Equatable {
    /// The custom compilation flags the app's build sets (Xcode's Active Compilation Conditions), or
    /// nil when they are not given.
    public var flags: Set<String>?
    /// Modules beyond the iOS SDK that `canImport(…)` finds (packages the app links).
    public var importableModules: Set<String>
    /// Where the flags are set, for errors: e.g. `'activity_model_flags' in the profile`.
    public var flagsSetting: String

    public init(flags: Set<String>? = nil, importableModules: Set<String> = [], flagsSetting: String = "the build's compilation flags") {
        self.flags = flags
        self.importableModules = importableModules
        self.flagsSetting = flagsSetting
    }

    /// An iPhone running the app's Release build, its custom flags not given.
    public static let iPhoneRelease = CompilationConditions()

    /// The iOS SDK's modules an app can import (those a model file plausibly names).
    public static let iOSModules: Set<String> = [
        "Swift", "Foundation", "FoundationEssentials", "Darwin", "Dispatch", "ActivityKit", "WidgetKit", "SwiftUI", "UIKit",
        "Combine", "CoreGraphics", "CoreFoundation", "CoreLocation", "MapKit", "AppIntents", "Observation", "SwiftData",
        "CoreData", "os", "OSLog", "UserNotifications", "CoreText", "QuartzCore", "AVFoundation", "StoreKit",
        "CloudKit", "Charts", "CryptoKit", "Network", "WeatherKit", "HealthKit", "MusicKit", "CoreImage", "PhotosUI",
        "Contacts", "EventKit", "Intents", "LocalAuthentication", "Security", "CoreMotion", "GameKit", "RegexBuilder",
    ]

    /// Modules of other platforms, which an iPhone build cannot import.
    public static let otherPlatformModules: Set<String> = [
        "AppKit", "Cocoa", "WatchKit", "ClockKit", "TVUIKit", "TVServices", "Glibc", "Musl", "WinSDK", "Android",
        "FoundationNetworking", "FoundationXML", "RealityKit_visionOS", "CompositorServices",
    ]

    /// The operating systems `os(…)` may name.
    static let operatingSystems: Set<String> = [
        "iOS", "macOS", "OSX", "watchOS", "tvOS", "visionOS", "xrOS", "Linux", "Windows", "Android", "FreeBSD",
        "OpenBSD", "WASI", "Cygwin", "Haiku", "PS4", "none",
    ]

    /// The compiler versions an App Store build may come from (6.0 to 6.3, the first and a late patch of each).
    static let compilerVersions: [[Int]] = [[6, 0, 0], [6, 0, 9], [6, 1, 0], [6, 1, 9], [6, 2, 0], [6, 2, 9], [6, 3, 0], [6, 3, 9]]
    /// The language versions `swift(…)` may see on those compilers: 5.10 in the Swift 5 mode, else the compiler's.
    static let languageVersions: [[Int]] = [[5, 10, 0]] + compilerVersions
}
