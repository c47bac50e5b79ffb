import Foundation

/// The TCP connections a process tree holds open, by the address and port at their other end
/// (`/proc/PID/fd` sockets matched with `/proc/net/tcp` and `tcp6`): what the app is connected to,
/// seen from its side, so a camera that has no fake to count it (a Bambu printer's RTSPS on port
/// 322) still shows whether the app opened it.
enum AppSockets {
    struct Peer: Hashable {
        /// The dotted IPv4 address (an IPv4-mapped IPv6 one too); nil for other IPv6 peers.
        let host: String?
        let port: Int
    }

    /// The established connections of the processes `pids`, one entry each.
    static func established(pids: [Int32]) -> [Peer] {
        let inodes = Set(pids.flatMap { pid -> [String] in
            let directory = "/proc/\(pid)/fd"
            return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).compactMap { fd in
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(fd)"),
                      target.hasPrefix("socket:[") else { return nil }
                return String(target.dropFirst(8).dropLast())
            }
        })
        return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { table -> [Peer] in
            // Read to its end: `String(contentsOfFile:)` stops after the first page of these files.
            let data = (try? FileHandle(forReadingAtPath: table)?.readToEnd()) ?? nil
            let lines = String(decoding: data ?? Data(), as: UTF8.self).split(separator: "\n").dropFirst()
            return lines.compactMap { line in
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[3] == "01", inodes.contains(String(fields[9])) else { return nil }  // 01: ESTABLISHED
                return peer(fields[2])
            }
        }
    }

    /// `0100007F:0BD6` (IPv4, bytes little-endian) or 32 hex digits and a port (IPv6).
    private static func peer(_ field: Substring) -> Peer? {
        let parts = field.split(separator: ":")
        guard parts.count == 2, let port = Int(parts[1], radix: 16) else { return nil }
        let address = parts[0]
        let ipv4Hex: Substring?
        switch address.count {
        case 8: ipv4Hex = address
        case 32 where address.hasPrefix("0000000000000000FFFF0000"): ipv4Hex = address.suffix(8)
        default: ipv4Hex = nil
        }
        let host = ipv4Hex.flatMap { UInt32($0, radix: 16) }.map { value in
            (0..<4).map { String((value >> (8 * UInt32($0))) & 0xFF) }.joined(separator: ".")
        }
        return Peer(host: host, port: port)
    }
}
