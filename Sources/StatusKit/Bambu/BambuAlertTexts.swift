import Foundation
import StreamKit

/// Bambu's own words for the HMS alerts and print errors users meet most: filament running out or
/// tangling in the AMS or on the external spool, the first-layer and spaghetti checks, heater
/// sensors, the resonance check, cancelled and paused prints. A code missing here has no text
/// (`BambuAlert` then shows its module, severity and link): nothing is worded that no source words.
///
/// Sources, all copies of Bambu's HMS database (e.bambulab.com/query.php, the table Bambu Studio
/// downloads; ha-bambulab's scripts/fetch_hms_errors.py fetches it):
/// - HMS texts: ha-bambulab (github.com/greghesp/ha-bambulab), custom_components/bambu_lab/pybambu/
///   const.py, `HMS_ERRORS` and `HMS_AMS_ERRORS`;
/// - the X and Y resonance checks (0300_1000…, 0300_1100…): bambu-js
///   (github.com/AndrewLemons/bambu-js), src/utilities/hms.ts, `errorCodes`;
/// - print errors: ha-bambulab, pybambu/const_print_errors.py `PRINT_ERROR_ERRORS` and
///   pybambu/hms_error_text/hms_P1S_en.json `device_error` (0300_8004).
/// `0500_0500_0001_0007` is Layerwatch's own sentence: Bambu's ("MQTT Command verification failed,
/// please update Studio or Handy") names a remedy that does not apply to Layerwatch.
enum BambuAlertTexts {
    /// The text of the HMS entry `{attr, code}`, translated; nil when no source gives one.
    static func hms(attr: UInt32, code: UInt32) -> String? {
        if let text = exactHMS(key(attr, code)) { return text }
        return amsHMS(attr: attr, code: code)
    }

    /// The text of print error `value`, translated; nil when no source gives one. Errors of the
    /// first four AMS units (0700…0703) share their words, as Bambu's table gives them.
    static func printError(_ value: UInt32) -> String? {
        let unit = (value >> 16) & 0xFF
        let normalized = value >> 24 == 0x07 && unit <= 3 ? value & 0xFF00_FFFF : value
        return printErrorText(String(format: "%04X_%04X", normalized >> 16, normalized & 0xFFFF))
    }

    private static func key(_ attr: UInt32, _ code: UInt32) -> String {
        String(format: "%04X_%04X_%04X_%04X", attr >> 16, attr & 0xFFFF, code >> 16, code & 0xFFFF)
    }

    private static func exactHMS(_ key: String) -> String? {
        switch key {
        case BambuAlert.authorizationRefusalCode:
            return tr("Turn on Developer Mode (LAN Only) on the printer to control prints from Layerwatch")
        case "0300_0100_0001_0007": return tr("The heatbed temperature is abnormal, the sensor may have an open circuit.")
        case "0300_0200_0001_0007": return tr("The nozzle temperature is abnormal, the sensor may be open circuit.")
        case "0300_1200_0002_0001": return tr("The front cover of the toolhead fell off.")
        case "0300_1000_0002_0001": return tr("The 1st order mechanical resonance mode of X axis is low.")
        case "0300_1100_0002_0001": return tr("The 1st order mechanical resonance mode of Y axis is low.")
        case "0300_1000_0002_0002":
            return tr("The 1st order mechanical resonance mode of X axis differs much from last calibration, please re-run the machine calibration later.")
        case "0300_1100_0002_0002":
            return tr("The 1st order mechanical resonance mode of Y axis differs much from last calibration, please re-run the machine calibration later.")
        case "0500_0100_0003_0004": return tr("Not enough space in SD Card.")
        case "0500_0200_0002_0001": return tr("Failed to connect internet, please check the network connection.")
        case "0700_5100_0003_0001": return tr("AMS is disabled, please load filament from spool holder.")
        case "07FF_2000_0002_0001": return tr("External filament has run out, please load a new filament.")
        case "07FF_2000_0002_0002": return tr("External filament is missing, please load a new filament.")
        case "07FF_2000_0002_0004": return tr("Please pull out the filament on the spool holder from the extruder.")
        case "0C00_0100_0001_0009": return tr("Chamber camera dirty.")
        case "0C00_0300_0003_0006": return tr("Purged filaments may have piled up.")
        case "0C00_0300_0003_0007": return tr("Possible first layer defects.")
        case "0C00_0300_0003_0008": return tr("Possible spaghetti defects were detected.")
        case "0C00_0300_0003_000B": return tr("Inspecting first layer.")
        default: return nil
        }
    }

    /// The AMS codes that name a unit and a slot: `070X_YZxx_…` is AMS X+1 (0-based X, units 0…3)
    /// and, in the slot families 1xxx, 2xxx and 6xxx, slot Z+1 (ha-bambulab's
    /// `get_generic_AMS_HMS_error_code`). Looked up as unit 1, slot 1 and worded with the real ones.
    private static func amsHMS(attr: UInt32, code: UInt32) -> String? {
        let unit = Int((attr >> 16) & 0xFF)
        guard attr >> 24 == 0x07, unit <= 3 else { return nil }
        let group = attr & 0xFFFF
        let slotted = [0x1, 0x2, 0x6].contains(group >> 12)
        let slot = slotted ? Int((group >> 8) & 0x7) : 0
        let generic = key(0x0700_0000 | (slotted ? group & 0xF0FF : group), code)
        let (ams, tray) = (unit + 1, slot + 1)
        switch generic {
        case "0700_0100_0002_0002":
            return String(format: tr("AMS%ld assist motor is overloaded. The filament may be tangled or stuck."), ams)
        case "0700_1000_0002_0002":
            return String(format: tr("AMS%ld slot %ld motor is overloaded. The filament may be tangled or stuck."), ams, tray)
        case "0700_2000_0002_0001":
            return String(format: tr("AMS%ld slot %ld filament has run out."), ams, tray)
        case "0700_2000_0002_0002":
            return String(format: tr("AMS%ld slot %ld is empty."), ams, tray)
        case "0700_2000_0002_0003":
            return String(format: tr("AMS%ld slot %ld filament may be broken in AMS."), ams, tray)
        case "0700_2000_0002_0004":
            return String(format: tr("AMS%ld slot %ld filament may be broken in the tool head."), ams, tray)
        case "0700_2000_0002_0005":
            return String(format: tr("AMS%ld slot %ld filament has run out, and purging the old filament went abnormally, please check whether the filament is stuck in the tool head."), ams, tray)
        case "0700_2000_0003_0001":
            return String(format: tr("AMS%ld slot %ld filament has run out. Please wait while old filament is purged."), ams, tray)
        case "0700_2000_0003_0002":
            return String(format: tr("AMS%ld slot %ld filament has run out and automatically switched to the slot with the same filament."), ams, tray)
        case "0700_6000_0002_0001":
            return String(format: tr("AMS%ld slot %ld is overloaded. The filament may be tangled or the spool may be stuck."), ams, tray)
        default:
            return nil
        }
    }

    private static func printErrorText(_ key: String) -> String? {
        switch key {
        case "0300_4000": return tr("Z axis homing failed; the task has been stopped.")
        case "0300_4002": return tr("Auto Bed Leveling failed; the task has been stopped.")
        case "0300_4005": return tr("The hotend cooling fan speed is abnormal.")
        case "0300_4006": return tr("The nozzle is clogged.")
        case "0300_4008": return tr("The AMS failed to change filament.")
        case "0300_400C": return tr("The task was canceled.")
        case "0300_8000": return tr("Printing was paused for unknown reason. You can select 'Resume' to resume the print job.")
        case "0300_8001": return tr("Printing paused due to the pause command added to the printing file.")
        case "0300_8003":
            return tr("Spaghetti defects were detected by the AI Print Monitoring. Please check the quality of the printed model before continuing your print.")
        case "0300_8004": return tr("Filament ran out. Please load new filament.")
        case "0300_800F": return tr("The door seems to be open, so printing was paused.")
        case "0300_8013": return tr("Printing was paused by the user. You can select 'Resume' to continue printing.")
        case "0500_400E": return tr("Printing was cancelled.")
        case "0700_8003":
            return tr("Failed to pull out the filament from the extruder. This might be caused by clogged extruder or filament broken inside the extruder.")
        case "0700_8004":
            return tr("AMS failed to pull back filament. This could be due to a stuck spool or the end of the filament being stuck in the path.")
        case "0700_8006":
            return tr("Unable to feed filament into the extruder. This could be due to entangled filament or a stuck spool. If not, please check if the AMS PTFE tube is connected.")
        case "0700_8007": return tr("Failed to extrude the filament. Please check if the extruder clogged.")
        case "0700_8010": return tr("The AMS assist motor is overloaded. This could be due to entangled filament or a stuck spool.")
        case "0700_8011": return tr("AMS filament ran out. Please insert a new filament into the same AMS slot.")
        case "0700_8012": return tr("Failed to get AMS mapping table; please select 'Resume' to retry.")
        case "0700_8013": return tr("Timeout purging old filament: Please check if the filament is stuck or the extruder is clogged.")
        default: return nil
        }
    }
}
