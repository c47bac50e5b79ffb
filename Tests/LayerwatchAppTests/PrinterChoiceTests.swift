import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import XCTest

/// The printer dialog's "Type" choices are declared once: the table says what each choice shows and
/// says (a plain camera has no access code, the X1 and P1 forms differ, only the X1 family's speaks
/// of LAN Only Liveview), and the real dialog shows exactly that for each choice.
final class PrinterChoiceTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testEveryChoiceHasATitleAndMakesItsKindInTheDropDownsOrder() {
        XCTAssertEqual(PrinterChoice.all.map(\.title), ["Bambu Lab with RTSPS (X1, P2S, H2, X2D)", "Bambu Lab P1 / A1 (port 6000)",
                                                        "Creality (K1, K2, Hi…)", "Flashforge (Adventurer 5M, AD5X)", "Klipper (Moonraker)", "OctoPrint", "go2rtc restreamer",
                                                        "Other camera (RTSP, MJPEG, WebRTC or snapshot URL)"])
        XCTAssertEqual(PrinterChoice.all.map(\.kind), [.bambuRTSPS(nil), .bambuJPEG(nil), .creality(.k1), .flashforge, .klipper, .octoprint, .generic, .generic])
        XCTAssertEqual(PrinterChoice.all.map(\.isGo2RTC), [false, false, false, false, false, false, true, false])
        for kind: Printer.Kind in [.bambuRTSPS(nil), .bambuJPEG(nil), .creality(.k1), .flashforge, .klipper, .octoprint, .generic] {
            XCTAssertEqual(PrinterChoice.making(kind).kind, kind, "every kind has its choice")
        }
        for choice in PrinterChoice.all where !choice.isGo2RTC {
            XCTAssertEqual(PrinterChoice.making(choice.kind), choice)
        }
        XCTAssertEqual(PrinterChoice.making(.bambuRTSPS(.x1c)), .bambuRTSPS)
        XCTAssertEqual(PrinterChoice.making(.bambuJPEG(.a1mini)), .bambuJPEG)
        XCTAssertEqual(PrinterChoice.making(.creality(.k2)), .creality, "whatever the family")
        XCTAssertEqual(PrinterChoice.bambuJPEG.kind(variant: BambuModel.p1s.rawValue), .bambuJPEG(.p1s), "a discovered model is kept")
        XCTAssertEqual(PrinterChoice.bambuRTSPS.kind(variant: BambuModel.p1s.rawValue), .bambuRTSPS(nil), "a model of the other camera is not")
        XCTAssertEqual(PrinterChoice.bambuJPEG.kind(variant: CrealityFamily.k2.rawValue), .bambuJPEG(nil), "another family's variant is not")
        XCTAssertEqual(PrinterChoice.klipper.kind(variant: BambuModel.x1c.rawValue), .klipper)
        XCTAssertEqual(PrinterChoice.creality.kind(variant: CrealityFamily.k2.rawValue), .creality(.k2), "the Model row's family")
        XCTAssertEqual(PrinterChoice.creality.kind(variant: nil), .creality(.k1), "a new printer's: the first family")
        XCTAssertEqual(PrinterChoice.creality.variants.map(\.raw), CrealityFamily.allCases.map(\.rawValue), "the Model row offers every family")
    }

    func testEachChoiceShowsItsOwnFields() {
        let fields = PrinterChoice.all.map { choice in PrinterChoice.Field.allCases.filter(choice.shows) }
        XCTAssertEqual(fields, [[.name, .host, .accessCode, .serial, .timelapse],
                                [.name, .host, .accessCode, .serial, .timelapse],
                                [.name, .host, .model, .url, .timelapse],
                                [.name, .host, .apiPort, .accessCode, .serial, .url, .cameras, .timelapse],
                                [.name, .host, .apiPort, .accessCode, .url, .cameras, .timelapse],
                                [.name, .host, .apiPort, .accessCode, .url, .cameras, .timelapse],
                                [.name, .host, .apiPort, .apiUser, .accessCode, .cameras],
                                [.name, .url]])
        XCTAssertEqual(PrinterChoice.all.map { $0.fields[.accessCode]?.title },
                       ["Access code", "Access code", nil, "Check code", "API key", "API key", "API password", nil])
    }

    func testTheX1AndP1FormsSayWhatTheirOwnPrinterHas() {
        let x1 = PrinterChoice.bambuRTSPS, p1 = PrinterChoice.bambuJPEG
        for field in [PrinterChoice.Field.name, .serial] {
            XCTAssertNotEqual(x1.fields[field]?.placeholder, p1.fields[field]?.placeholder, "\(field)")
        }
        XCTAssertEqual(x1.fields[.serial]?.placeholder?.prefix(3), "00M", "an X1 Carbon's serial")
        XCTAssertEqual(p1.fields[.serial]?.placeholder?.prefix(3), "01S", "a P1P's serial")
        XCTAssertNotEqual(x1.fields[.accessCode]?.hint, p1.fields[.accessCode]?.hint)
        XCTAssertNotEqual(x1.fields[.host]?.hint, p1.fields[.host]?.hint)
    }

    func testOnlyTheX1FamilySpeaksOfLANOnlyLiveviewAndOnlyBambuOfAccessCodes() {
        for choice in PrinterChoice.all {
            let texts = choice.fields.values.flatMap { [$0.title, $0.placeholder, $0.hint].compactMap { $0?.lowercased() } }
            XCTAssertEqual(texts.contains { $0.contains("liveview") }, choice == .bambuRTSPS, choice.title)
            XCTAssertEqual(texts.contains { $0.contains("access code") }, choice.kind.isBambu, choice.title)
        }
    }

    func testTheDialogShowsEachChoiceAsTheTableSays() throws {
        try MainActor.assumeIsolated {
            let dialog = PrinterDialog(parent: nil, editing: nil, secretsPlace: .noKeyring(path: "/kept/somewhere"))
            defer { gtk_window_destroy(gcast(dialog.window)) }
            dialog.present()
            let items = try XCTUnwrap(adw_combo_row_get_model(gcast(dialog.kind.entry)))
            XCTAssertEqual((0..<g_list_model_get_n_items(items)).map { String(cString: gtk_string_list_get_string(gcast(items), $0)) },
                           PrinterChoice.all.map(\.title))
            for choice in PrinterChoice.all.reversed() {
                if choice.isGo2RTC { dialog.select(choice) } else { dialog.selectKind(choice.kind) }
                XCTAssertEqual(dialog.choice, choice)
                XCTAssertEqual(dialog.kind.selected, PrinterChoice.all.firstIndex(of: choice))
                for field in PrinterChoice.Field.allCases {
                    let formField = dialog.formField(field), text = choice.fields[field]
                    let shown = field == .url ? choice.kind == .generic && !choice.isGo2RTC : text != nil
                    XCTAssertEqual(gtk_widget_get_visible(formField.widget) != 0, shown, "\(choice.title): \(field)")
                    guard shown, let text else { continue }
                    if let title = text.title { XCTAssertEqual(formField.titleText, title) }
                    if let placeholder = text.placeholder {
                        XCTAssertEqual(formField.placeholderText, placeholder, "\(choice.title): \(field)")
                    }
                    let noun: SecretsPlace.Noun? = choice.kind.isBambu ? .accessCode : choice.kind == .flashforge ? .checkCode : choice.kind.hasStatusAPI ? .apiKey : nil
                    let note = field == .accessCode ? noun.map { " " + SecretsPlace.noKeyring(path: "/kept/somewhere").sentence(for: $0) } ?? "" : ""
                    let camera = field == .model ? "K1, K1 Max, K1C, K1 SE and Ender-3 V3: its camera is MJPEG on port 8080. " : ""  // the first family's
                    XCTAssertEqual(formField.hintText, text.hint.map { camera + $0 + note }, "\(choice.title): \(field)")
                }
            }
        }
    }

    func testABambuAccessCodeNeverBecomesAnotherHostsKey() throws {
        let printer = Printer(name: "X1C", kind: .bambuRTSPS(.x1c), host: "192.168.1.20", accessCode: "12345678")
        try MainActor.assumeIsolated {
            let dialog = PrinterDialog(parent: nil, editing: printer)
            defer { gtk_window_destroy(gcast(dialog.window)) }
            XCTAssertEqual(dialog.accessCode.text, "12345678")
            dialog.selectKind(.klipper)
            XCTAssertEqual(dialog.accessCode.text, "", "an API key field of its own")
            XCTAssertEqual(dialog.draft.accessCode, "")
            dialog.accessCode.text = "m00nr4k3r"
            dialog.selectKind(.octoprint)
            XCTAssertEqual(dialog.accessCode.text, "m00nr4k3r", "Klipper and OctoPrint share the API key")
            dialog.selectKind(.generic)
            dialog.selectKind(.bambuJPEG(nil))
            XCTAssertEqual(dialog.accessCode.text, "12345678", "the access code is back")
            XCTAssertEqual(try dialog.draft.printers().get().first?.accessCode, "12345678")
        }
    }
}
