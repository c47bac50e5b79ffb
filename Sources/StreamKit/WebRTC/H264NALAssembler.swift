import CFFmpeg

/// Puts H.264 NAL units back together from what FFmpeg's RTP depacketiser hands out when no parser
/// runs, and says when one is complete without waiting for the next to begin. A NAL unit too large
/// for one RTP packet comes as FU-A fragments, one AVPacket each: the first with a start code and
/// the NAL header, the rest bare. FFmpeg drops the fragments' end bit and the RTP marker, so the end
/// is told the way every payloader cuts (GStreamer, live555, FFmpeg, pion): all fragments but the
/// last fill the packet, so the first shorter one is the last. A packet that begins a NAL unit and is
/// not a full-sized first fragment is whole (a single NAL unit or an aggregate). A camera that cuts
/// differently is caught the first time a fragment turns up after its NAL unit was called complete;
/// from then on a NAL unit is complete only when the next one begins, as with FFmpeg's parser.
final class H264NALAssembler {
    /// FFmpeg's RTP depacketiser puts this before every NAL unit it writes (`start_sequence`).
    private static let startCode: [UInt8] = [0, 0, 0, 1]
    /// A start code and the NAL header a first fragment carries beyond its share of the NAL unit.
    private static let firstFragmentExtra = 5

    /// The NAL unit being put together.
    private var open: UnsafeMutablePointer<AVPacket>?
    /// Its fragment size (the first fragment's share), known once a second fragment shows it was split.
    private var openFragmentSize: Int?
    /// The fragment size this camera uses, learnt from the first split NAL unit.
    private var fragmentSize: Int?
    /// Whether the last NAL unit handed out was called complete before the next one began.
    private var lastCompletedEarly = false
    /// Whether this camera's fragments broke the rule, so completion waits for the next NAL unit.
    private(set) var waitsForNextNALUnit = false
    /// Complete NAL units not yet taken.
    private var complete: [UnsafeMutablePointer<AVPacket>] = []

    deinit {
        for held in complete + (open.map { [$0] } ?? []) {
            var packet: UnsafeMutablePointer<AVPacket>? = held
            av_packet_free(&packet)
        }
    }

    /// Moves the oldest complete NAL unit into `packet`; false when none is complete yet.
    func take(into packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        guard !complete.isEmpty else { return false }
        var first: UnsafeMutablePointer<AVPacket>? = complete.removeFirst()
        av_packet_move_ref(packet, first!)
        av_packet_free(&first)
        return true
    }

    /// Takes one packet from the depacketiser (its data moves out of `packet`).
    func add(_ packet: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        let size = Int(packet.pointee.size)
        if Self.beginsNALUnit(packet) {
            finishOpen(early: false)
            guard let copy = av_packet_alloc() else { throw FFmpegError(code: lw_averror(ENOMEM), stage: .read) }
            av_packet_move_ref(copy, packet)
            open = copy
            openFragmentSize = nil
            if !waitsForNextNALUnit, let fragmentSize, size != fragmentSize + Self.firstFragmentExtra {
                finishOpen(early: true)  // not a full first fragment: nothing more belongs to it
            }
            return
        }
        defer { av_packet_unref(packet) }
        guard let current = open else {
            // A fragment whose start is gone: lost, or its NAL unit was called complete too soon.
            if lastCompletedEarly { waitsForNextNALUnit = true }
            return
        }
        let firstShare = openFragmentSize ?? Int(current.pointee.size) - Self.firstFragmentExtra
        openFragmentSize = firstShare
        if fragmentSize == nil { fragmentSize = firstShare }
        guard Int(current.pointee.size) + size <= FrameLimits.maximumBytes else {
            dropOpen()  // no picture is this large: a broken or hostile stream
            return
        }
        let end = Int(current.pointee.size)
        guard av_grow_packet(current, Int32(size)) >= 0 else { throw FFmpegError(code: lw_averror(ENOMEM), stage: .read) }
        (current.pointee.data! + end).update(from: packet.pointee.data!, count: size)
        if !waitsForNextNALUnit, size < firstShare { finishOpen(early: true) }
        if size > firstShare { waitsForNextNALUnit = true }  // fragments of no fixed size: cannot tell
    }

    private func finishOpen(early: Bool) {
        guard let current = open else { return }
        complete.append(current)
        open = nil
        lastCompletedEarly = early
    }

    private func dropOpen() {
        av_packet_free(&open)
        lastCompletedEarly = false
    }

    private static func beginsNALUnit(_ packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        guard packet.pointee.size > Int32(startCode.count), let data = packet.pointee.data else { return false }
        return startCode.indices.allSatisfy { data[$0] == startCode[$0] }
    }
}
