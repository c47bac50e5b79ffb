import Foundation
import TestSupport
import XCTest

/// The gettext pipeline (po/, scripts/update-pot.sh): the committed template is current, every file
/// with translatable strings is in po/POTFILES, each translation compiles, and the real `layerwatch`
/// speaks German with the German catalogue. The meson install of the catalogue is checked by
/// DesktopDataTests.testMesonInstallGivesTheDesktopTreeAndABinaryThatFindsItsData.
final class TranslationTests: XCTestCase {
    static let repository = TestPaths.repository
    static let po = repository.appendingPathComponent("po")
    static let template = po.appendingPathComponent("layerwatch.pot")

    func testCommittedTemplateIsCurrent() throws {
        let fresh = try makeTemporaryDirectory().appendingPathComponent("layerwatch.pot")
        let run = try Tool.run(Self.repository.appendingPathComponent("scripts/update-pot.sh").path, [fresh.path])
        XCTAssertEqual(run.status, 0, run.output)
        let committed = try Catalogue(contentsOf: Self.template).messages
        let regenerated = try Catalogue(contentsOf: fresh).messages
        XCTAssertGreaterThan(committed.count, 50)
        XCTAssertEqual(regenerated.subtracting(committed).sorted(), [],
                       "strings missing from po/layerwatch.pot: run scripts/update-pot.sh")
        XCTAssertEqual(committed.subtracting(regenerated).sorted(), [],
                       "strings no longer in the sources are in po/layerwatch.pot: run scripts/update-pot.sh")
        // The strings users meet first are there, extracted whole.
        XCTAssertTrue(committed.contains("Access code rejected — check it on the printer's screen."))
        XCTAssertTrue(committed.contains("\"%@\" is not a URL: start it with rtsps://, rtsp://, http://, https:// or bambu-jpeg://, or give a file path starting with /."))
    }

    func testEverySwiftFileWithTranslatableStringsIsInPOTFILES() throws {
        let listed = Set(try String(contentsOf: Self.po.appendingPathComponent("POTFILES"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") })
        for path in listed {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent(path).path),
                          "po/POTFILES lists \(path), which does not exist")
        }
        // A call: `tr(` not part of a longer name; the declaration in Localization.swift is no call.
        let call = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.])tr\("#)
        let literalCall = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.])tr\("((?:[^"\\]|\\.)*)"\)"#)
        var withStrings: [String] = []
        let sources = Self.repository.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        for file in files.sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            var calls = false
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line)
                guard !code.trimmingCharacters(in: .whitespaces).hasPrefix("//"), !code.contains("func tr(") else { continue }
                let range = NSRange(code.startIndex..., in: code)
                let found = call.numberOfMatches(in: code, range: range)
                guard found > 0 else { continue }
                calls = true
                // xgettext reads only a plain one-line literal, and a runtime lookup finds only what it read.
                let place = "Sources/\(file):\(number + 1)"
                let literals = literalCall.matches(in: code, range: range).compactMap { Range($0.range(at: 1), in: code) }
                XCTAssertEqual(literals.count, found, "\(place): tr() takes one plain \"…\" literal: \(code)")
                XCTAssertFalse(literals.contains { code[$0].contains(#"\("#) },
                               "\(place): use String(format: tr(\"…%@…\"), value), not interpolation")
            }
            if calls { withStrings.append("Sources/\(file)") }
        }
        XCTAssertGreaterThan(withStrings.count, 10)
        for file in withStrings {
            XCTAssertTrue(listed.contains(file), "\(file) has tr(\"…\") strings but is not in po/POTFILES")
        }
    }

    func testEveryTranslationCompiles() throws {
        let languages = try String(contentsOf: Self.po.appendingPathComponent("LINGUAS"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        XCTAssertTrue(languages.contains("de"))
        let template = try Catalogue(contentsOf: Self.template).messages
        for language in languages {
            let po = Self.po.appendingPathComponent("\(language).po")
            let run = try Tool.run("msgfmt", ["--check", "--statistics", "-o", "/dev/null", po.path])
            XCTAssertEqual(run.status, 0, "\(language).po: \(run.output)")
            // Every translated message belongs to the template (else it was never merged: msgmerge).
            let stale = try Catalogue(contentsOf: po).messages.subtracting(template)
            XCTAssertEqual(stale.sorted(), [], "\(language).po has messages the template lacks: run msgmerge")
        }
    }

    /// The German catalogue, compiled into a temporary locale folder the binary is pointed at with
    /// LAYERWATCH_LOCALE_DIR, turns the real `layerwatch`'s errors and help German; English stays
    /// the default.
    func testLayerwatchSpeaksGermanWithTheGermanCatalogue() throws {
        let locale = try makeTemporaryDirectory()
        let messages = locale.appendingPathComponent("de/LC_MESSAGES")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        let compile = try Tool.run("msgfmt", ["--check", "-o", messages.appendingPathComponent("layerwatch.mo").path,
                                              Self.po.appendingPathComponent("de.po").path])
        XCTAssertEqual(compile.status, 0, compile.output)
        let base = ["LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "LAYERWATCH_LOCALE_DIR": locale.path]

        var environment = base
        environment["LANGUAGE"] = "de"
        let german = try CommandRun.product("layerwatch", ["probe", "not a url"], timeout: 30, environment: environment)
        XCTAssertEqual(german.status, 2, german.stdout + german.stderr)
        XCTAssertTrue(german.stderr.contains("Fehler: „not a url“ ist keine URL: Beginnen Sie sie mit rtsps://"), german.stderr)

        let port = try CommandRun.product("layerwatch", ["rtsp://printer:99999/live"], timeout: 30, environment: environment)
        XCTAssertEqual(port.status, 2)
        XCTAssertTrue(port.stderr.contains("Port 99999 ist ungültig: Verwenden Sie eine Zahl von 1 bis 65535"), port.stderr)

        let help = try CommandRun.product("layerwatch", ["probe", "--help"], timeout: 30, environment: environment)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("Nach so vielen Sekunden aufgeben."), help.stdout)

        environment["LANGUAGE"] = ""
        let english = try CommandRun.product("layerwatch", ["probe", "not a url"], timeout: 30, environment: environment)
        XCTAssertEqual(english.status, 2)
        XCTAssertTrue(english.stderr.contains("error: \"not a url\" is not a URL"), english.stderr)
    }
}

/// The messages of a .po or .pot file, each as `context\u{4}msgid` (gettext's own key) or the msgid;
/// the header's empty msgid left out.
private struct Catalogue {
    let messages: Set<String>

    init(contentsOf file: URL) throws {
        var messages = Set<String>()
        var context: String?, id: String?, field: String?
        func finish() {
            if let id, !id.isEmpty { messages.insert(context.map { "\($0)\u{4}\(id)" } ?? id) }
            context = nil
            id = nil
        }
        for rawLine in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("msgctxt ") {
                finish()
                context = Self.unquote(line.dropFirst(8))
                field = "msgctxt"
            } else if line.hasPrefix("msgid ") {
                if id != nil { finish() }
                id = Self.unquote(line.dropFirst(6))
                field = "msgid"
            } else if line.hasPrefix("msgstr") || line.hasPrefix("msgid_plural") {
                field = "msgstr"
            } else if line.hasPrefix("\"") {
                switch field {
                case "msgid": id = (id ?? "") + Self.unquote(Substring(line))
                case "msgctxt": context = (context ?? "") + Self.unquote(Substring(line))
                default: break
                }
            }
        }
        finish()
        self.messages = messages
    }

    /// A C string literal's text: without its quotes, escapes resolved.
    private static func unquote(_ literal: Substring) -> String {
        let text = literal.trimmingCharacters(in: .whitespaces).dropFirst().dropLast()
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
