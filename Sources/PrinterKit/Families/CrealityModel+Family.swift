import StatusKit

/// The family whose camera each Creality model has (`CrealityFamily`, the printer's Model row).
extension CrealityModel {
    public var family: CrealityFamily {
        switch self {
        case .k2, .k2Plus, .k2Pro, .hi: return .k2
        case .k1, .k1Max, .k1C, .k1SE, .ender3V3, .ender3V3Plus, .ender3V3KE: return .k1
        }
    }

    /// The family whose camera a printer that says `identity` has: WebRTC when its firmware says it
    /// streams so (a K1C's firmware may), else its model's; nil when it says neither.
    public static func family(of identity: CrealityIdentity) -> CrealityFamily? {
        identity.webrtcSupport == true ? .k2 : CrealityModel(identity)?.family
    }
}
