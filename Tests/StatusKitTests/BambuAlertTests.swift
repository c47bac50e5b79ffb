import StatusKit
import XCTest

/// Bambu's codes in words: the module and the severity from the code's structure, Bambu's text
/// where a source gives one and none where it does not, the page Bambu's apps open, and the refusal
/// of an unsigned command read as advice.
final class BambuAlertTests: XCTestCase {
    func testAnHMSCodeGivesItsModuleSeverityTextAndPage() {
        let resonance = BambuAlert(attr: 0x0300_1000, code: 0x0002_0002)
        XCTAssertEqual(resonance.kind, .hms)
        XCTAssertEqual(resonance.code, "0300_1000_0002_0002")
        XCTAssertEqual(resonance.module, .motionController)
        XCTAssertEqual(resonance.severity, .serious)
        XCTAssertEqual(resonance.text, "The 1st order mechanical resonance mode of X axis differs much from last calibration, "
                       + "please re-run the machine calibration later.")
        XCTAssertEqual(resonance.url, "https://e.bambulab.com/index.php?e=0300100000020002&s=device_hms&lang=en")
        XCTAssertEqual(resonance.summary, resonance.text! + " (0300_1000_0002_0002)")
        XCTAssertEqual(resonance.shortSummary, "Motion controller · Serious")
        XCTAssertFalse(resonance.isAuthorizationRefusal)

        XCTAssertEqual(BambuAlert(attr: 0x0C00_0300, code: 0x0003_0008).module, .camera)
        XCTAssertEqual(BambuAlert(attr: 0x0C00_0300, code: 0x0003_0008).severity, .common)
        XCTAssertEqual(BambuAlert(attr: 0x0C00_0300, code: 0x0003_0008).text, "Possible spaghetti defects were detected.")
        XCTAssertEqual(BambuAlert(attr: 0x0800_0100, code: 0x0004_0001).module, .toolhead)
        XCTAssertEqual(BambuAlert(attr: 0x0800_0100, code: 0x0004_0001).severity, .info)
        XCTAssertEqual(BambuAlert(attr: 0x0300_0100, code: 0x0001_0007).severity, .fatal)
    }

    func testAnAMSCodeNamesItsUnitAndSlot() {
        let third = BambuAlert(attr: 0x0702_2300, code: 0x0002_0001)
        XCTAssertEqual(third.module, .ams)
        XCTAssertEqual(third.text, "AMS3 slot 4 filament has run out.")
        XCTAssertEqual(BambuAlert(attr: 0x0700_2000, code: 0x0003_0001).text,
                       "AMS1 slot 1 filament has run out. Please wait while old filament is purged.")
        XCTAssertEqual(BambuAlert(attr: 0x0701_6100, code: 0x0002_0001).text,
                       "AMS2 slot 2 is overloaded. The filament may be tangled or the spool may be stuck.")
        XCTAssertEqual(BambuAlert(attr: 0x0701_0100, code: 0x0002_0002).text,
                       "AMS2 assist motor is overloaded. The filament may be tangled or stuck.")
        XCTAssertEqual(BambuAlert(attr: 0x07FF_2000, code: 0x0002_0001).text, "External filament has run out, please load a new filament.")
        XCTAssertNil(BambuAlert(attr: 0x0780_2000, code: 0x0002_0001).text, "no AMS unit 129 in the table's family")
    }

    func testAnUnknownCodeHasNoTextButItsModuleSeverityAndPage() {
        let unknown = BambuAlert(attr: 0x0700_4300, code: 0x0002_0099)
        XCTAssertNil(unknown.text, "no source words it: nothing is made up")
        XCTAssertEqual(unknown.module, .ams)
        XCTAssertEqual(unknown.severity, .serious)
        XCTAssertEqual(unknown.summary, "HMS 0700_4300_0002_0099 — AMS, Serious")
        XCTAssertEqual(unknown.url, "https://e.bambulab.com/index.php?e=0700430000020099&s=device_hms&lang=en")

        let odd = BambuAlert(attr: 0x1200_0100, code: 0x0009_0001)
        XCTAssertNil(odd.module)
        XCTAssertNil(odd.severity)
        XCTAssertEqual(odd.summary, "HMS 1200_0100_0009_0001 — Unknown module, Unknown severity")
    }

    func testAPrintErrorGivesItsModuleTextAndTheErrorPage() {
        let runout = BambuAlert(printError: 0x0700_8011)
        XCTAssertEqual(runout.kind, .printError)
        XCTAssertEqual(runout.code, "0700_8011")
        XCTAssertEqual(runout.module, .ams)
        XCTAssertNil(runout.severity, "no source gives a print error's severity")
        XCTAssertEqual(runout.text, "AMS filament ran out. Please insert a new filament into the same AMS slot.")
        XCTAssertEqual(runout.summary, "AMS filament ran out. Please insert a new filament into the same AMS slot. (0700_8011)")
        XCTAssertEqual(runout.shortSummary, "AMS error")
        XCTAssertEqual(runout.url, "https://wiki.bambulab.com/en/hms/error-code")
        XCTAssertEqual(BambuAlert(printError: 0x0701_8011).text, runout.text, "the second AMS's run-out reads the same")
        XCTAssertEqual(BambuAlert(printError: 0x0500_400E).module, .mainboard)

        let unknown = BambuAlert(printError: 0x0C00_8099)
        XCTAssertNil(unknown.text)
        XCTAssertEqual(unknown.summary, "Printer error 0C00_8099 — Camera")
    }

    func testARefusedUnsignedCommandReadsAsAdvice() {
        let refusal = BambuAlert(attr: 0x0500_0500, code: 0x0001_0007)
        XCTAssertEqual(refusal.code, "0500_0500_0001_0007")
        XCTAssertTrue(refusal.isAuthorizationRefusal)
        XCTAssertEqual(refusal.summary, "Turn on Developer Mode (LAN Only) on the printer to control prints from Layerwatch")
        XCTAssertEqual(refusal.shortSummary, "Developer Mode is off")
        XCTAssertFalse(BambuAlert(attr: 0x0500_0500, code: 0x0001_0008).isAuthorizationRefusal)
        XCTAssertFalse(BambuAlert(printError: 0x0500_0500).isAuthorizationRefusal)

        let status = PrinterStatus(state: .printing, alerts: [refusal, BambuAlert(attr: 0x0700_2000, code: 0x0002_0001)])
        XCTAssertEqual(status.notifiedAlertCodes, ["0700_2000_0002_0001"], "the refusal is no fault to notify")
    }

    func testCodesAsMarksSpellThemReadBack() {
        XCTAssertEqual(BambuAlert(hmsCode: "0C00_0300_0003_0008"), BambuAlert(attr: 0x0C00_0300, code: 0x0003_0008))
        for bad in ["", "0C00_0300_0003", "0C00_0300_0003_00080", "0C00_0300_0003_00G8", "0C00_0300__0003_0008"] {
            XCTAssertNil(BambuAlert(hmsCode: bad), bad)
        }
    }

    func testOnlyBambusHelpPagesAreOpened() {
        XCTAssertTrue(BambuAlert.isHelpPage(BambuAlert(attr: 0x0300_1000, code: 0x0002_0002).url))
        XCTAssertTrue(BambuAlert.isHelpPage(BambuAlert(printError: 0x0700_8011).url))
        for url in ["http://e.bambulab.com/index.php", "https://e.bambulab.com.evil.example/", "file:///etc/passwd",
                    "https://user@wiki.bambulab.com/", "https://wiki.bambulab.com:8443/", "javascript:alert(1)", ""] {
            XCTAssertFalse(BambuAlert.isHelpPage(url), url)
        }
    }
}
