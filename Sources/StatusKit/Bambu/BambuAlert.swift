import Foundation
import StreamKit

/// A Bambu printer's HMS alert or `print_error` code in words, so that a failed print says what
/// went wrong instead of "HMS 0300_1000_0002_0002": the code as Bambu's wiki spells it, the module
/// and the severity its structure gives, the text from `BambuAlertTexts` where a public source has
/// one (nil otherwise: never a made-up text), and Bambu's page for it.
///
/// Structure (ha-bambulab, pybambu/utils.py `get_HMS_module`, `get_HMS_severity`; Bambu Studio's
/// HMS items read the same levels): an HMS entry `{attr, code}` is `AAAA_BBBB_CCCC_DDDD` from
/// attr >> 16, attr & 0xFFFF, code >> 16 and code & 0xFFFF; attr >> 24 is the module and
/// code >> 16 the severity (1 fatal, 2 serious, 3 common, 4 info). A `print_error` is one 32-bit
/// value shown as `XXXX_YYYY`; its top byte names the module as an HMS attr's does (0700_8011 is
/// the AMS's, 0300_400C the motion controller's). No public source gives a print error's severity,
/// so it has none.
public struct BambuAlert: Equatable, Hashable, Sendable {
    /// Where the code comes from: an entry of `print.hms`, or `print.print_error`.
    public enum Kind: String, Sendable {
        case hms
        case printError
    }

    /// How bad it is, as the HMS code's high half says.
    public enum Severity: String, Sendable, CaseIterable {
        case fatal, serious, common, info
    }

    /// The part of the printer that raised it (attr >> 24; ha-bambulab's HMS_MODULES).
    public enum Module: String, Sendable, CaseIterable {
        case motionController = "motion_controller"
        case mainboard
        case ams
        case toolhead
        case camera
    }

    public let kind: Kind
    /// `AAAA_BBBB_CCCC_DDDD` for HMS, `XXXX_YYYY` for a print error.
    public let code: String
    /// Nil for a module no public source names.
    public let module: Module?
    /// Nil for print errors and for levels outside 1...4.
    public let severity: Severity?
    /// Bambu's words for it (translated where a translation exists); nil where no source gives any.
    public let text: String?
    /// Bambu's page about it: what "Learn More" opens.
    public let url: String

    /// The HMS entry `{attr, code}` as a printer reports it.
    public init(attr: UInt32, code: UInt32) {
        kind = .hms
        self.code = Self.hex(attr) + "_" + Self.hex(code)
        module = Self.module(attr >> 24)
        severity = switch code >> 16 {
        case 1: .fatal
        case 2: .serious
        case 3: .common
        case 4: .info
        default: nil
        }
        text = BambuAlertTexts.hms(attr: attr, code: code)
        url = Self.hmsURL(attr: attr, code: code)
    }

    /// The HMS alert of a code as `code` spells it (`0300_0100_0001_0007`, what notification
    /// marks keep); nil for anything else.
    public init?(hmsCode: String) {
        let groups = hmsCode.split(separator: "_", omittingEmptySubsequences: false)
        guard groups.count == 4, groups.allSatisfy({ $0.count == 4 }) else { return nil }
        let numbers = groups.compactMap { UInt32($0, radix: 16) }
        guard numbers.count == 4 else { return nil }
        self.init(attr: numbers[0] << 16 | numbers[1], code: numbers[2] << 16 | numbers[3])
    }

    /// The `print_error` value a printer reports (non-zero).
    public init(printError: UInt32) {
        kind = .printError
        code = Self.hex(printError)
        module = Self.module(printError >> 24)
        severity = nil
        text = BambuAlertTexts.printError(printError)
        url = Self.printErrorURL
    }

    /// The alert a printer raises when it refuses an unsigned control command (pause, stop…)
    /// because LAN Only mode's Developer Mode is off, since Bambu's 2025 authorization control:
    /// "MQTT command verification failed", `0500_0500_0001_0007` in ha-bambulab's, Bambuddy's and
    /// other public integrations' reports. Not a printer fault: it says how to allow Layerwatch's
    /// commands, and is never notified as a failure.
    public var isAuthorizationRefusal: Bool {
        kind == .hms && code == Self.authorizationRefusalCode
    }

    static let authorizationRefusalCode = "0500_0500_0001_0007"

    /// Whether the alert may stop or spoil the print: a fatal or serious HMS alert, or a print
    /// error (no public source gives those a severity), but not the authorization refusal.
    public var isGrave: Bool {
        switch kind {
        case .hms: !isAuthorizationRefusal && (severity == .fatal || severity == .serious)
        case .printError: true
        }
    }

    /// The alert in a sentence with its code: the text, or (unknown) the module and the severity.
    public var summary: String {
        if isAuthorizationRefusal, let text { return text }
        if let text { return String(format: tr("%@ (%@)"), text, code) }
        switch kind {
        case .hms:
            // TRANSLATORS: an HMS alert without a known text: its code, the module, the severity.
            return String(format: tr("HMS %@ — %@, %@"), code, moduleName, severityName)
        case .printError:
            // TRANSLATORS: a print error without a known text: its code and the module.
            return String(format: tr("Printer error %@ — %@"), code, moduleName)
        }
    }

    /// A few words for a farm tile: "AMS · Serious", "AMS error", "Developer Mode is off".
    public var shortSummary: String {
        if isAuthorizationRefusal { return tr("Developer Mode is off") }
        switch kind {
        case .hms: return String(format: tr("%@ · %@"), moduleName, severityName)
        case .printError: return String(format: tr("%@ error"), moduleName)
        }
    }

    public var moduleName: String {
        switch module {
        case .motionController?: tr("Motion controller")
        case .mainboard?: tr("Mainboard")
        case .ams?: tr("AMS")
        case .toolhead?: tr("Toolhead")
        case .camera?: tr("Camera")
        case nil: tr("Unknown module")
        }
    }

    public var severityName: String {
        switch severity {
        case .fatal?: tr("Fatal")
        case .serious?: tr("Serious")
        case .common?: tr("Common")
        case .info?: tr("Info")
        case nil: tr("Unknown severity")
        }
    }

    private static func module(_ byte: UInt32) -> Module? {
        switch byte {
        case 0x03: .motionController
        case 0x05: .mainboard
        case 0x07: .ams
        case 0x08: .toolhead
        case 0x0C: .camera
        default: nil
        }
    }

    private static func hex(_ value: UInt32) -> String {
        String(format: "%04X_%04X", value >> 16, value & 0xFFFF)
    }

    /// The page Bambu's own apps open for an HMS code: Bambu Studio's `get_hms_wiki_url`
    /// (src/slic3r/GUI/HMS.cpp) builds `https://<hms host>/index.php?e=<16 hex digits>&s=device_hms
    /// &lang=<language>`, its HMS host being e.bambulab.com, which forwards to the code's page on
    /// wiki.bambulab.com (ha-bambulab links that page directly:
    /// `https://wiki.bambulab.com/en/x1/troubleshooting/hmscode/AAAA_BBBB_CCCC_DDDD`). Studio
    /// adds the printer's serial (`d=`) when it has one; Layerwatch leaves it out, so no serial
    /// leaves the machine in a link.
    static func hmsURL(attr: UInt32, code: UInt32) -> String {
        String(format: "https://e.bambulab.com/index.php?e=%08X%08X&s=device_hms&lang=en", attr, code)
    }

    /// Bambu publishes no page per print error: its wiki lists them all on one page
    /// (wiki.bambulab.com/en/hms/error-code), which integrations such as Bambuddy link for them.
    static let printErrorURL = "https://wiki.bambulab.com/en/hms/error-code"

    /// Whether `url` is one of the pages above (an https page of Bambu's): what the app agrees to
    /// open when asked from outside (a notification's button names it).
    public static func isHelpPage(_ url: String) -> Bool {
        guard let components = URLComponents(string: url), components.scheme == "https",
              components.user == nil, components.password == nil, components.port == nil else { return false }
        return ["e.bambulab.com", "wiki.bambulab.com"].contains(components.host)
    }
}
