import Foundation
import Glibc

/// The project's one gettext lookup: every user-visible string goes through it, in every module, so
/// xgettext finds them all by the `tr` keyword. glibc's own gettext keeps StreamKit free of GLib.
/// Strings with values use printf-style placeholders: `String(format: tr("… “%@” …"), name)`.
public func tr(_ message: String) -> String {
    guard let dgettext = GlibcGettext.dgettext else { return message }
    return message.withCString { original in
        // Untranslated, gettext hands back the pointer it was given: only valid inside this closure.
        guard let translated = dgettext(Localization.domain, original), translated != original else { return message }
        return String(cString: translated)
    }
}

/// The plural lookup beside `tr`, for a count in the text: `String(format: trPlural("%d printer",
/// "%d printers", n), n)`. xgettext finds it by the `trPlural:1,2` keyword.
public func trPlural(_ singular: String, _ plural: String, _ count: Int) -> String {
    let english = count == 1 ? singular : plural
    guard let dngettext = GlibcGettext.dngettext else { return english }
    return singular.withCString { one in
        plural.withCString { many in
            guard let translated = dngettext(Localization.domain, one, many, UInt(max(count, 0))),
                  translated != one, translated != many else { return english }
            return String(cString: translated)
        }
    }
}

/// Where the translations live and which text domain they use.
public enum Localization {
    public static let domain = "layerwatch"

    /// Binds the domain to `directory` (…/share/locale) with UTF-8 output; call once at start.
    /// It also becomes the default domain, the one GtkBuilder translates `translatable="yes"` with.
    public static func bind(localeDirectory: String) {
        // Without a locale from the environment gettext only answers in English. Messages only:
        // LC_NUMERIC stays as it was so numbers handed to FFmpeg keep their decimal point.
        setlocale(LC_MESSAGES, "")
        setlocale(LC_CTYPE, "")
        _ = GlibcGettext.bindtextdomain?(domain, localeDirectory)
        _ = GlibcGettext.bindTextdomainCodeset?(domain, "UTF-8")
        _ = GlibcGettext.textdomain?(domain)
    }

    /// The folder of compiled translations (`de/LC_MESSAGES/layerwatch.mo`): `PREFIX/share/locale`
    /// next to the installed binary. `LAYERWATCH_LOCALE_DIR` overrides it (tests, uninstalled runs).
    public static func folder() -> URL {
        if let override = ProcessInfo.processInfo.environment["LAYERWATCH_LOCALE_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return Installation.shareFolder.appendingPathComponent("locale")
    }
}

/// glibc's gettext functions, looked up in libc itself: Swift's Glibc module leaves out libintl.h.
private enum GlibcGettext {
    typealias Lookup = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> UnsafePointer<CChar>?
    typealias Binding = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?

    static let dgettext: Lookup? = symbol("dgettext")
    static let dngettext: (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UInt) -> UnsafePointer<CChar>?)? =
        symbol("dngettext")
    static let bindtextdomain: Binding? = symbol("bindtextdomain")
    static let bindTextdomainCodeset: Binding? = symbol("bind_textdomain_codeset")
    static let textdomain: (@convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?)? = symbol("textdomain")

    /// `dlsym(RTLD_DEFAULT, …)`; RTLD_DEFAULT is a null handle in glibc.
    private static func symbol<Function>(_ name: String) -> Function? {
        guard let address = dlsym(nil, name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }
}
