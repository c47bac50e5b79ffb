import CFFmpeg
import Foundation

/// A Bambu P1/A1 camera (TCP port 6000) as a packet source. TLS goes through FFmpeg's own `tls`
/// protocol and AVIO, so the session's interrupt gate governs every blocking call — stop within its
/// poll period, connect and stall deadlines — exactly as it does for the demuxer path. After the auth
/// packet each 16-byte header announces one JPEG, which becomes one packet for the MJPEG decoder.
final class BambuJPEGInput: ArrivalTimedSource {
    let isStillImage = false
    private let bytes: AVIOBytes
    /// Whether a byte arrived since the auth packet went out: a printer rejects a wrong access code by
    /// closing the connection before the first one.
    private var heardBack = false

    /// Connects to `address` (`tls://HOST:PORT`) and sends the auth packet.
    init(address: String, accessCode: String, gate: InterruptGate, socketTimeout: String) throws(FFmpegError) {
        // The certificate is self-signed with the serial number as its name: there is nothing to
        // verify it against. (5.1's tls protocol does not verify by default; this keeps it so.)
        // The timeout is passed on to the tcp protocol underneath: a backstop behind the gate's deadlines.
        bytes = try AVIOBytes.open(address, flags: AVIO_FLAG_READ_WRITE | AVIO_FLAG_DIRECT,
                                   options: [("tls_verify", "0"), ("timeout", socketTimeout)],
                                   interrupting: gate, stage: .connect)
        try bytes.send(BambuJPEGWire.authPacket(accessCode: accessCode), stage: .connect)
    }

    func makeDecoder(threads: Int) throws(FFmpegError) -> VideoDecoder {
        try VideoDecoder.mjpeg(timeBase: timeBase, threads: threads)
    }

    /// Reads the next frame into `packet`: its header, then its JPEG, each reassembled from however
    /// many reads it arrives in.
    func read(into packet: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        let size = try readHeader()
        let data = try packet.allocateData(count: size)
        do {
            try readPayload(into: data, size: size)
        } catch {
            av_packet_unref(packet)
            throw error
        }
        stampArrival(packet)
    }

    /// The payload size the next header announces, checked before anything is allocated for it.
    private func readHeader() throws(FFmpegError) -> Int {
        var header = [UInt8](repeating: 0, count: BambuJPEGWire.headerSize)
        let received = header.withUnsafeMutableBufferPointer { bytes.receive(into: $0.baseAddress!, count: $0.count) }
        if received == 0 && !heardBack {
            throw FFmpegError(code: lw_averror_eof(), stage: .open,
                              detail: "the printer closed the connection right after the access code was sent")
        }
        heardBack = true
        if received == 0 { throw bytes.ending }
        guard received == header.count else {
            throw bytes.ending(inside: String(format: tr("the connection ended inside a frame header (%ld of %ld bytes)"),
                                              received, header.count))
        }
        return try BambuJPEGWire.payloadSize(header: header)
    }

    /// Reads a whole JPEG of `size` bytes into `data`. Its first two bytes are checked as soon as they
    /// arrive, so garbage whose first word happens to be a plausible size is caught at once.
    private func readPayload(into data: UnsafeMutablePointer<UInt8>, size: Int) throws(FFmpegError) {
        var received = bytes.receive(into: data, count: 2)
        guard received < 2 || BambuJPEGWire.startsLikeJPEG(UnsafeRawBufferPointer(start: data, count: 2)) else {
            throw FFmpegError.protocolViolation(tr("a frame does not start like a JPEG"))
        }
        if received == 2 { received += bytes.receive(into: data + 2, count: size - 2) }
        guard received == size else {
            throw bytes.ending(inside: String(format: tr("the connection ended after %ld of %ld bytes of a frame"), received, size))
        }
        guard BambuJPEGWire.endsLikeJPEG(UnsafeRawBufferPointer(start: data, count: size)) else {
            throw FFmpegError.protocolViolation(tr("a frame does not end like a JPEG"))
        }
    }
}
