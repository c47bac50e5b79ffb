/// A Bambu printer's SSDP NOTIFY as LAN-mode printers send it, for the discovery tests to send on
/// loopback: one builder, so every test speaks the same dialect.
public enum SSDPAnnouncement {
    /// The datagram for printer `serial` called `name`; `location` adds a Location header.
    public static func bytes(serial: String, name: String, location: String? = nil, model: String = "C12") -> [UInt8] {
        var lines = ["NOTIFY * HTTP/1.1", "Host: 239.255.255.250:1990"]
        if let location { lines.append("Location: \(location)") }
        lines += ["NT: urn:bambulab-com:device:3dprinter:1", "NTS: ssdp:alive", "USN: \(serial)",
                  "DevModel.bambu.com: \(model)", "DevName.bambu.com: \(name)", "DevConnect.bambu.com: lan",
                  "DevBind.bambu.com: free", "DevVersion.bambu.com: 01.07.00.00", "DevSignal.bambu.com: -51"]
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }
}
