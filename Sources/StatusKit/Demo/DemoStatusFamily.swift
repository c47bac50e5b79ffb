import Foundation
import StreamKit

/// The demo printer's status side: `DemoConnection`'s simulated print, no network, no URL.
struct DemoStatusFamily: StatusFamily {
    let declared = StatusDeclaration(scheme: "demo", usualPort: 0, traits: .cancelsPrints)

    func description(of endpoint: StatusEndpoint, host: String) -> String { "demo:" }

    func makeConnection(to endpoint: StatusEndpoint, log: StatusLog) -> StatusConnection { DemoConnection() }
}

extension StatusEndpoint {
    /// The demo printer's simulated print: nothing to configure.
    public static let demo = StatusEndpoint(family: DemoStatusFamily(), host: "demo", port: 0)
}
