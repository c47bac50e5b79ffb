import ArgumentParser
import Foundation
import PrinterKit
import StreamKit

/// `layerwatch discover`: the printers on the network, as the Add Printer dialog finds them but
/// for every family Layerwatch can discover (`PrinterDiscovery` with every discovery's ports and
/// asks): Bambu Lab printers heard announcing themselves, Elegoo, Flashforge and Prusa printers asked.
struct DiscoverCommand: ParsableCommand {
    /// Bambu printers announce themselves every few seconds, and a second round of asks goes out
    /// after two: five seconds hear each at least once.
    static let defaultSeconds = 5
    /// Asks are datagrams, which may be lost: they are sent again this often while listening.
    static let askInterval: TimeInterval = 2

    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: tr("List the printers on the network: Bambu Lab printers announcing themselves, Elegoo, Flashforge and Prusa printers asked."),
        discussion: tr("Exit codes: 0 listed (even none), 1 could neither listen nor ask, 64 invalid options.")
    )

    @Option(name: .long, help: ArgumentHelp(tr("Listen and ask for this many seconds, from 1 to 600.")))
    var seconds = defaultSeconds

    @Flag(name: .long, help: ArgumentHelp(tr("Print the printers as a JSON array.")))
    var json = false

    @Option(name: .long, help: ArgumentHelp(tr("Ask only this IPv4 address (a printer, or a subnet's broadcast address) on each family's usual port.")))
    var to: String?

    func validate() throws {
        guard (1...600).contains(seconds) else {
            throw ValidationError(tr("--seconds takes a number of seconds from 1 to 600."))
        }
        var address = in_addr()
        if let to, inet_pton(AF_INET, to, &address) != 1 {
            throw ValidationError(String(format: tr("--to takes an IPv4 address such as 192.168.1.40, not “%@”."), to))
        }
    }

    func run() throws {
        // Asking this computer (127.x), listen on that address alone: nothing else reaches it.
        let loopback = to?.hasPrefix("127.") == true
        let endpoints = PrinterDiscovery.Endpoint.everyFamily.filter { !loopback || $0.multicastGroup == nil }
        let configuration = PrinterDiscovery.Configuration(bindAddress: loopback ? to! : "0.0.0.0", endpoints: endpoints,
                                                           asks: DiscoveryAsk.everyFamily, askAddress: to,
                                                           askInterval: Self.askInterval)
        let discovery = PrinterDiscovery(configuration: configuration, executor: DispatchQueue(label: "layerwatch.discover")) { _ in }
        discovery.start()
        defer { discovery.stop() }
        let problems: [PrinterDiscovery.BindFailure]
        switch discovery.state {
        case .failed(let failures):
            failures.forEach { printError(DiscoveryReportFormatter.text($0)) }
            printError(tr("Cannot look for printers: nothing could be listened on or asked."))
            throw ExitCode(1)
        case .listening(_, let unavailable):
            problems = unavailable
        case .stopped:
            problems = []
        }
        problems.forEach { printError(DiscoveryReportFormatter.text($0)) }
        Thread.sleep(forTimeInterval: TimeInterval(seconds))
        let printers = discovery.printers
        print(json ? DiscoveryReportFormatter.json(printers) : DiscoveryReportFormatter.text(printers, seconds: seconds))
    }

    private func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
