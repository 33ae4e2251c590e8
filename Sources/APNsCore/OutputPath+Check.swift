import Foundation

extension OutputPath {
    /// One path a command is about to write, as its command line gave it.
    public struct Output: Sendable {
        public enum Kind: Sendable, Equatable {
            /// One file, replaced whole.
            case file
            /// A folder the command makes (with the folders above it) and writes these files into.
            case folder(writes: [String])
        }

        /// How the command line gave it (`--out`, `--junit`); a default names itself (`--out (default reports/latest)`).
        public let flag: String
        public let path: String
        public let kind: Kind

        public init(_ flag: String, _ path: String, _ kind: Kind) {
            self.flag = flag
            self.path = path
            self.kind = kind
        }
    }

    /// The one rule for everything a command writes, checked before the command does anything: no output is,
    /// holds or lies inside an input; no two outputs are the same file; each can be created (a file's folder
    /// exists and is writable, or is one the command makes; a folder exists and is writable, or the nearest
    /// folder above it that exists is writable).
    public static func check(_ outputs: [Output], inputs: [Input]) throws {
        for output in outputs { try refuseOverwriting(output.path, flag: output.flag, inputs: inputs) }
        try refuseCollisions(outputs)
        let made = outputs.filter { $0.kind != .file }.map(\.path)
        for output in outputs { try refuseUncreatable(output, madeFolders: made) }
    }

    /// Two outputs that are one file, or a file that a folder output writes (`--junit X/report.json` beside `--out X`).
    static func refuseCollisions(_ outputs: [Output]) throws {
        for (n, a) in outputs.enumerated() {
            for b in outputs[(n + 1)...] {
                if resolved(a.path) == resolved(b.path) {
                    throw Refusal(description: "\(b.flag) \(b.path) is also \(a.flag): give each output its own path")
                }
            }
            guard case .folder(let files) = a.kind else { continue }
            for b in outputs where b.kind == .file {
                for name in files where resolved(b.path) == resolved((a.path as NSString).appendingPathComponent(name)) {
                    throw Refusal(description: "\(b.flag) \(b.path) is the \(name) that \(a.flag) \(a.path) writes: give each output its own path")
                }
            }
        }
    }

    /// Refuses an output that cannot be created, naming the folder in the way.
    static func refuseUncreatable(_ output: Output, madeFolders: [String]) throws {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        let exists = fm.fileExists(atPath: output.path, isDirectory: &isFolder)
        switch output.kind {
        case .file:
            if exists, isFolder.boolValue { throw Refusal(description: "\(output.flag) \(output.path) is a folder; it names a file to write") }
            let above = (output.path as NSString).deletingLastPathComponent
            let parent = above.isEmpty ? "." : above
            if madeFolders.contains(where: { holds($0, parent) }) { return }
            try refuseUnwritableFolder(parent, output: output, mustExist: true)
        case .folder:
            if exists, !isFolder.boolValue { throw Refusal(description: "\(output.flag) \(output.path) is a file; it names a folder to write into") }
            try refuseUnwritableFolder(output.path, output: output, mustExist: false)
        }
    }

    /// `folder` must be a writable folder; when `mustExist` is false, a missing one must be makeable: the
    /// nearest path above it that exists is a writable folder.
    static func refuseUnwritableFolder(_ folder: String, output: Output, mustExist: Bool) throws {
        let fm = FileManager.default
        var candidate = folder
        var isFolder: ObjCBool = false
        while !fm.fileExists(atPath: candidate, isDirectory: &isFolder) {
            if mustExist { throw Refusal(description: "\(output.flag) \(output.path): the folder \(folder) does not exist") }
            let up = (candidate as NSString).deletingLastPathComponent
            candidate = up.isEmpty ? "." : up
        }
        guard isFolder.boolValue else {
            throw Refusal(description: "\(output.flag) \(output.path) cannot be made: \(candidate) is a file, not a folder")
        }
        guard fm.isWritableFile(atPath: candidate) else {
            throw Refusal(description: candidate == folder ? "\(output.flag) \(output.path): the folder \(folder) is not writable"
                : "\(output.flag) \(output.path) cannot be made: \(candidate) is not writable")
        }
    }
}
