import Foundation

/// The screen the players draw on, private to the bench: an Xvfb on a free display number, openbox
/// (the window manager the tests use) and a session bus that activates no services, so the app
/// finds no keyring and no accessibility bus, the same for every run. The bus's policy is the
/// standard session bus's. `stop` ends all three.
final class XDisplaySession {
    static let width = 1920, height = 1200

    /// ":N"
    let display: String
    let busAddress: String
    /// The X server, whose own CPU the report shows beside each player's.
    let server: Process
    private var processes: [Process]

    init(directory: URL) throws {
        let displayNumber = Pipe()
        server = try StartedProcesses.start("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "\(Self.width)x\(Self.height)x24",
                                                              "-nolisten", "tcp"], stdout: displayNumber)
        var started = [server]
        do {
            guard let number = Self.firstLine(of: displayNumber), Int(number) != nil else { throw BenchError("Xvfb did not start") }
            let display = ":\(number)"
            started.append(try StartedProcesses.start("/usr/bin/openbox", ["--sm-disable"], environment: ["DISPLAY": display]))
            guard Self.waitUntil(seconds: 10, { Self.rootProperty("_NET_SUPPORTING_WM_CHECK", display: display).contains("window id") })
            else { throw BenchError("openbox did not start on \(display)") }

            let config = directory.appendingPathComponent("bus.conf")
            try Self.busConfig(socketDirectory: directory.path).write(to: config, atomically: true, encoding: .utf8)
            let address = Pipe()
            started.append(try StartedProcesses.start("/usr/bin/dbus-daemon", ["--config-file=\(config.path)", "--nofork",
                                                                                "--print-address=1"], stdout: address))
            guard let line = Self.firstLine(of: address), line.hasPrefix("unix:") else { throw BenchError("dbus-daemon did not start") }
            self.display = display
            busAddress = line
            processes = started
        } catch {
            started.reversed().forEach(StartedProcesses.stop)
            throw error
        }
    }

    /// What a player's process needs to reach this screen and bus (GTK told there is no
    /// accessibility bus, rather than finding out with a warning).
    var environment: [String: String] {
        ["DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": busAddress, "GDK_BACKEND": "x11", "GTK_A11Y": "none"]
    }

    func stop() {
        processes.reversed().forEach(StartedProcesses.stop)
        processes = []
    }

    /// A session bus that listens in `socketDirectory` and knows no services to start.
    private static func busConfig(socketDirectory: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:dir=\(socketDirectory)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
        </busconfig>
        """
    }

    private static func firstLine(of pipe: Pipe) -> String? {
        var line = Data()
        let reader = pipe.fileHandleForReading
        while let byte = try? reader.read(upToCount: 1), let first = byte.first, first != 10 { line.append(first) }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }

    /// `xprop -root NAME` as text.
    private static func rootProperty(_ name: String, display: String) -> String {
        let output = Pipe()
        guard let process = try? StartedProcesses.start("/usr/bin/xprop", ["-root", name], environment: ["DISPLAY": display],
                                                        stdout: output) else { return "" }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        StartedProcesses.stop(process)
        return text
    }

    private static func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }
}
