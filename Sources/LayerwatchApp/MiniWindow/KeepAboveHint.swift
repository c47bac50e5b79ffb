import Foundation
import StreamKit

/// The mini window's side of keep-above on Wayland, where no app can keep itself on top: a title
/// that desktop rules and GNOME's PiP extension match ("<printer> - PiP"), and the sentence that
/// tells the user how their desktop keeps a window on top.
enum KeepAboveHint {
    /// The mini window's title for printer `name`.
    static func title(of name: String) -> String {
        "\(name) - PiP"
    }

    /// How to keep a window on top by hand on the desktop named by `XDG_CURRENT_DESKTOP`.
    static func text(desktop: String? = ProcessInfo.processInfo.environment["XDG_CURRENT_DESKTOP"]) -> String {
        let names = (desktop ?? "").lowercased().split(separator: ":").map(String.init)
        if names.contains("gnome") {
            return tr("To keep this window on top, right-click its title and choose Always on Top.")
        }
        if names.contains("kde") {
            return tr("To keep this window on top, press Alt+F3, then More Actions → Keep Above Others.")
        }
        if names.contains("sway") {
            return tr("To keep this window on top in sway, add a rule: for_window [title=\" - PiP$\"] floating enable, sticky enable.")
        }
        if names.contains("hyprland") {
            return tr("To keep this window on top in Hyprland, add a rule: windowrulev2 = pin, title:( - PiP)$")
        }
        return tr("Wayland lets no app keep itself on top: use your desktop's window menu or a window rule matching \" - PiP\".")
    }
}
