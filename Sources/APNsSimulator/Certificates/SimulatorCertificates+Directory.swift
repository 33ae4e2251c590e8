import Foundation

extension SimulatorCertificates {
    /// The files a certificate folder holds: the CA clients trust, the server certificate and its key.
    static let fileNames = (ca: "ca.pem", certificate: "server.pem", key: "server-key.pem")

    /// The certificates kept in `directory`, so a restarted simulator is the same server to clients that
    /// trust its CA: read when the folder holds all three files, else made (``generate(extraDNSNames:days:)``)
    /// and written there, the key readable by its owner only. Throws naming the folder or file that fails.
    public static func kept(in directory: String, extraDNSNames: [String] = []) throws -> SimulatorCertificates {
        let fm = FileManager.default
        let names = fileNames
        let paths = [names.ca, names.certificate, names.key].map { (directory as NSString).appendingPathComponent($0) }
        if paths.allSatisfy({ fm.fileExists(atPath: $0) }) {
            let texts = try paths.map { path -> String in
                guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("-----BEGIN") else {
                    throw CertificateFolderError("\(path) is not a PEM file (a certificate folder holds \(names.ca), \(names.certificate) and \(names.key))")
                }
                return text
            }
            return SimulatorCertificates(caPEM: texts[0], serverCertificatePEM: texts[1], serverKeyPEM: texts[2])
        }
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CertificateFolderError("cannot make the certificate folder \(directory): \(error.localizedDescription)")
        }
        let made = try generate(extraDNSNames: extraDNSNames)
        for (path, text) in zip(paths, [made.caPEM, made.serverCertificatePEM, made.serverKeyPEM]) {
            guard fm.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: path == paths[2] ? 0o600 : 0o644]) else {
                throw CertificateFolderError("cannot write \(path)")
            }
        }
        return made
    }
}

/// A certificate folder that cannot be read or written, named in the message.
public struct CertificateFolderError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
