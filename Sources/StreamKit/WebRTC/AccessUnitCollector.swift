/// Puts an RTSP camera's H.264 NAL units (one a packet, with start codes, as the session reads them
/// to decode each picture as soon as its last slice arrives) back into whole pictures for a
/// recording: units with the same timestamp are one access unit, complete when a unit with another
/// timestamp arrives. Keeps the newest sequence and picture parameter sets, which a Matroska file
/// needs in its header.
struct AccessUnitCollector {
    /// One picture's NAL units, start codes included.
    struct AccessUnit {
        var bytes: [UInt8]
        var pts: Int64
        var isKeyframe: Bool
    }

    private var pending: AccessUnit?
    private(set) var sequenceParameterSet: [UInt8]?
    private(set) var pictureParameterSet: [UInt8]?
    /// At most this many bytes in one access unit (a 4K keyframe is a few MB): a stream that never
    /// changes its timestamp cannot grow one without end.
    static let maximumBytes = 32 << 20

    /// Adds one packet's NAL units; returns the access unit this packet completed, if any.
    mutating func add(_ packet: UnsafeBufferPointer<UInt8>, pts: Int64) -> AccessUnit? {
        var completed: AccessUnit?
        if let current = pending, current.pts != pts || current.bytes.count + packet.count > Self.maximumBytes {
            completed = current
            pending = nil
        }
        var unit = pending ?? AccessUnit(bytes: [], pts: pts, isKeyframe: false)
        for nal in Self.units(in: packet) {
            switch nal.first.map({ $0 & 0x1F }) {
            case 5: unit.isKeyframe = true
            case 7: sequenceParameterSet = Array(nal)
            case 8: pictureParameterSet = Array(nal)
            default: break
            }
        }
        unit.bytes.append(contentsOf: packet)
        pending = unit
        return completed
    }

    /// The parameter sets as Annex B extradata (start code, SPS, start code, PPS), once both were seen.
    var extradata: [UInt8]? {
        guard let sequenceParameterSet, let pictureParameterSet else { return nil }
        return [0, 0, 0, 1] + sequenceParameterSet + [0, 0, 0, 1] + pictureParameterSet
    }

    /// The NAL units in Annex B `bytes`, each without its start code.
    static func units(in bytes: UnsafeBufferPointer<UInt8>) -> [Slice<UnsafeBufferPointer<UInt8>>] {
        var starts: [(code: Int, payload: Int)] = []
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                starts.append((index > 0 && bytes[index - 1] == 0 ? index - 1 : index, index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().map { number, start in
            let end = number + 1 < starts.count ? starts[number + 1].code : bytes.count
            return bytes[start.payload..<max(start.payload, end)]
        }
    }
}
