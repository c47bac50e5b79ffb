import Foundation
import PrinterKit
import StreamKit

/// What the removal question says will be deleted, written from what the printer holds: its
/// settings always; its access code (Bambu) or API key (Klipper, OctoPrint) only when it has one;
/// its cameras' passwords only when their addresses carry one. A camera without a code is never
/// told its access code goes.
enum RemovalText {
    static func body(for printer: Printer) -> String {
        let passwords = printer.camerasHoldingPasswords.count
        let code: Secret? = switch printer.accessCode.isEmpty ? nil : printer.kind.secretNoun {
        case .accessCode?: .accessCode
        case .apiKey?: .apiKey
        case .password?: .password
        case .checkCode?: .checkCode
        case nil: nil
        }
        switch (code, passwords) {
        case (nil, 0):
            return tr("Its settings will be deleted from this computer.")
        case (.accessCode?, 0):
            return tr("Its settings and access code will be deleted from this computer.")
        case (.apiKey?, 0):
            return tr("Its settings and API key will be deleted from this computer.")
        case (.password?, 0):
            return tr("Its settings and password will be deleted from this computer.")
        case (.checkCode?, 0):
            return tr("Its settings and check code will be deleted from this computer.")
        case (nil, _):
            return trPlural("Its settings and camera password will be deleted from this computer.",
                            "Its settings and camera passwords will be deleted from this computer.", passwords)
        case (.accessCode?, _):
            return trPlural("Its settings, access code and camera password will be deleted from this computer.",
                            "Its settings, access code and camera passwords will be deleted from this computer.", passwords)
        case (.apiKey?, _):
            return trPlural("Its settings, API key and camera password will be deleted from this computer.",
                            "Its settings, API key and camera passwords will be deleted from this computer.", passwords)
        case (.password?, _):
            return trPlural("Its settings, password and camera password will be deleted from this computer.",
                            "Its settings, password and camera passwords will be deleted from this computer.", passwords)
        case (.checkCode?, _):
            return trPlural("Its settings, check code and camera password will be deleted from this computer.",
                            "Its settings, check code and camera passwords will be deleted from this computer.", passwords)
        }
    }

    /// The printer's own secret, by what the user calls it.
    private enum Secret {
        case accessCode, apiKey, password, checkCode
    }
}
