import ArgumentParser
import Foundation
import JournalKit
import LayerwatchApp
import PrinterKit
import StreamKit

/// `layerwatch [--farm] [--demo] [--background] [URL…]`: opens the viewer with a tab per saved
/// printer plus one per camera URL given (not saved); the welcome page shows when there is neither;
/// `--farm` opens the farm view, `--demo` the demo printer (a simulated print), `--background`
/// starts watching with no window. When Layerwatch already runs, the URLs open in that window instead.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: tr("Open the viewer (the default), with a tab for each camera URL given.")
    )

    @Argument(help: ArgumentHelp(tr("Camera URLs or files to open as tabs (not saved as printers).")))
    var urls: [String] = []

    @Flag(name: .long, help: ArgumentHelp(LayerwatchApplication.LaunchFlag.farm.help))
    var farm = false

    @Flag(name: .long, help: ArgumentHelp(LayerwatchApplication.LaunchFlag.demo.help))
    var demo = false

    @Flag(name: .long, help: ArgumentHelp(LayerwatchApplication.LaunchFlag.background.help))
    var background = false

    func run() throws {
        for url in urls {
            do {
                _ = try StreamSource.parse(url)
            } catch {
                FileHandle.standardError.write(Data((String(format: tr("error: %@"), TerminalText.safe(error.description)) + "\n").utf8))
                throw ExitCode(2)
            }
        }
        let status = MainActor.assumeIsolated {
            let flags: [(Bool, LayerwatchApplication.LaunchFlag)] = [(farm, .farm), (demo, .demo), (background, .background)]
            let application = LayerwatchApplication(store: { ConfigStore.standard() }, journal: JournalStore.defaultURL())
            application.restartsLean = true
            return application.run(urls: urls, flags: Set(flags.filter(\.0).map(\.1)))
        }
        if status != 0 { throw ExitCode(status) }
    }
}
