import CFFmpeg
import Foundation

/// A recording of one camera, from the session that already shows it (printers take one camera
/// client): its compressed pictures copied into Matroska files as they arrive, never decoded for it
/// nor re-encoded. It starts at the next keyframe. After a reconnect it waits for a keyframe again
/// and the same file continues, its clock running on (the gap plays as a still picture), unless the
/// camera came back with another codec or size: then a new part begins ("… (part 2).mkv"). Writing
/// happens on its own queue, so a slow disk never holds up the picture; a full disk, a failed write
/// or a disk that falls too far behind stops it, and what was written plays. Every file is one it
/// made itself (`ExclusiveFile`): a name already taken, even by a symbolic link, is passed over for
/// "name (2).mkv" (a part's for "name (part 2) (2).mkv"), and a file left without a whole picture
/// is removed.
public final class StreamRecording: @unchecked Sendable {
    /// Where it is, as the UI shows it.
    public struct Status: Sendable, Equatable {
        /// Seconds since its first picture while it runs (0 before it); once finished, the time of
        /// its last picture written: the file's length.
        public var seconds: Double = 0
        /// Bytes written, over all its files.
        public var bytes: Int64 = 0
        /// Its files so far, the first one first (once it has stopped, those holding pictures).
        public var files: [URL] = []
        /// Why it stopped on its own, if it did.
        public var failure: RecordingFailure?
        /// True once it has stopped, asked to or not, and its files are closed.
        public var isFinished = false

        /// Why it stopped on its own and where what was recorded is kept, in words for the user.
        public var failureMessage: String? {
            guard let failure else { return nil }
            let kept = files.last.map { String(format: tr("What was recorded is kept in “%@”."), $0.path) } ?? tr("Nothing was recorded.")
            return failure.description + " " + kept
        }
    }

    /// The name asked for the first file (taken, the next free name like it is used); parts
    /// after it are named from the first file.
    public let url: URL
    /// At most this many bytes wait for the disk before the recording gives up (`diskTooSlow`).
    static let backlogLimit = 64 << 20
    /// The least time between the last picture before a reconnect and the first after it.
    static let gapMilliseconds: Int64 = 100

    private let lock = NSLock()
    private let queue = DispatchQueue(label: "layerwatch.recording")
    private var status = Status()
    private var backlog = 0
    private var stopping = false
    private var startedAt: UInt64?
    // The session thread's state (only `take` touches it).
    private var connection: Int?
    private var collector = AccessUnitCollector()
    private var waitingForKeyframe = true
    /// Milliseconds added to the camera's timestamps of this connection to continue the file's clock.
    private var anchor: Int64?
    private var lastMilliseconds: Int64 = 0
    // The queue's state.
    private var writer: MatroskaWriter?
    /// The files begun, one a part, the first one first.
    private var begun: [URL] = []
    private var finishedBytes: Int64 = 0
    /// The newest picture written, in milliseconds of the recording.
    private var writtenMilliseconds: Int64 = 0
    private var onFinish: [@Sendable (Status) -> Void] = []

    init(url: URL) {
        self.url = url
    }

    /// Where it is now: while it runs, the time since its first picture; once finished, the time
    /// of its last picture written (the file's length).
    public var current: Status {
        lock.withLock {
            var shown = status
            if !shown.isFinished, let startedAt { shown.seconds = Double(DispatchTime.now().uptimeNanoseconds - startedAt) / 1e9 }
            return shown
        }
    }

    /// Stops: the pictures waiting are written and the file closed; `completion` then runs (on the
    /// recording's queue) with the final status. Safe to call more than once.
    public func stop(completion: (@Sendable (Status) -> Void)? = nil) {
        lock.withLock { stopping = true }
        if let completion { whenFinished(completion) }
        queue.async { [self] in finish(failure: nil) }
    }

    /// Runs `callback` (on the recording's queue, or at once if it has finished) with the final
    /// status, once the recording has stopped, asked to or on its own.
    public func whenFinished(_ callback: @escaping @Sendable (Status) -> Void) {
        let finished = lock.withLock { () -> Status? in
            if status.isFinished { return status }
            onFinish.append(callback)
            return nil
        }
        if let finished { callback(finished) }
    }

    /// Blocks until the recording has stopped and its file is closed (the command-line recorder).
    public func waitUntilFinished() {
        queue.sync {}
    }

    // MARK: The session's thread

    /// Takes one packet the session read from `stream` on its connection number `connection`,
    /// after decoding it; `size` gives the stream's picture size as decoded (asked once a picture
    /// is complete, not for every NAL unit).
    func take(_ packet: UnsafeMutablePointer<AVPacket>, stream: RecordedStream, connection number: Int, size: @autoclosure () -> PixelSize?) {
        guard lock.withLock({ !stopping }), let data = packet.pointee.data, packet.pointee.size > 0 else { return }
        if connection != number {
            connection = number
            collector = AccessUnitCollector()
            waitingForKeyframe = true
            anchor = nil
        }
        let bytes = UnsafeBufferPointer(start: data, count: Int(packet.pointee.size))
        let pts = packet.pointee.pts != Int64.min ? packet.pointee.pts : packet.pointee.dts
        switch stream.packets {
        case .h264NALUnits:
            guard let unit = collector.add(bytes, pts: pts) else { return }
            let extradata = collector.extradata ?? Self.extradata(of: stream)
            picture(unit.bytes, pts: unit.pts, isKeyframe: unit.isKeyframe, stream: stream, extradata: extradata, size: size())
        case .wholePictures:
            let key = packet.pointee.flags & AV_PKT_FLAG_KEY != 0 || stream.codecID == AV_CODEC_ID_MJPEG
            picture(Array(bytes), pts: pts, isKeyframe: key, stream: stream, extradata: Self.extradata(of: stream), size: size())
        }
    }

    private func picture(_ bytes: [UInt8], pts: Int64, isKeyframe: Bool, stream: RecordedStream, extradata: [UInt8], size: PixelSize?) {
        guard let size, size.width > 0, size.height > 0 else { return }
        if waitingForKeyframe {
            guard isKeyframe else { return }
            waitingForKeyframe = false
        }
        let now = DispatchTime.now().uptimeNanoseconds
        let began = lock.withLock { () -> UInt64 in
            if startedAt == nil { startedAt = now }
            return startedAt!
        }
        let elapsed = Int64((now - began) / 1_000_000)
        let cameraTime = pts == Int64.min ? elapsed : av_rescale_q(pts, stream.timeBase, AVRational(num: 1, den: 1000))
        // A new connection, or a file that looped back: the camera's clock is laid onto the file's.
        // The first picture after a gap comes at least `gapMilliseconds` after the last: a camera's
        // clock can run ahead of the wall clock (a burst at connect), and a picture a millisecond
        // after the one before would share its frame slot in a player.
        if anchor == nil || cameraTime + anchor! < lastMilliseconds - 1000 {
            anchor = max(elapsed, lastMilliseconds + (lastMilliseconds > 0 ? Self.gapMilliseconds : 0)) - cameraTime
        }
        let milliseconds = max(cameraTime + anchor!, lastMilliseconds + 1)
        lastMilliseconds = milliseconds
        let format = MatroskaWriter.Format(codecID: stream.codecID, width: size.width, height: size.height, extradata: extradata)
        let queued = lock.withLock { () -> Bool in
            guard !stopping, backlog + bytes.count <= Self.backlogLimit else { return false }
            backlog += bytes.count
            return true
        }
        guard queued else {
            if lock.withLock({ !stopping }) { queue.async { [self] in finish(failure: .diskTooSlow) } }
            return
        }
        queue.async { [self] in write(bytes, milliseconds: milliseconds, isKeyframe: isKeyframe, format: format) }
    }

    /// The demuxer's extradata for `stream`, if it has any.
    private static func extradata(of stream: RecordedStream) -> [UInt8] {
        guard let parameters = stream.parameters?.pointee, let data = parameters.extradata, parameters.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(parameters.extradata_size)))
    }

    // MARK: The queue

    private func write(_ bytes: [UInt8], milliseconds: Int64, isKeyframe: Bool, format: MatroskaWriter.Format) {
        lock.withLock { backlog -= bytes.count }
        guard !lock.withLock({ status.isFinished }) else { return }
        do throws(RecordingFailure) {
            if writer?.format != format {
                try closeWriter()
                guard isKeyframe else { return }  // a new part starts at a keyframe
                let opened = try MatroskaWriter(url: begun.first.map { Self.url(of: $0, part: begun.count + 1) } ?? url, format: format)
                writer = opened
                begun.append(opened.url)
                lock.withLock { status.files.append(opened.url) }
            }
            let failure = bytes.withUnsafeBytes { buffer -> RecordingFailure? in
                do throws(RecordingFailure) {
                    try writer?.write(buffer, milliseconds: milliseconds, isKeyframe: isKeyframe)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
            writtenMilliseconds = milliseconds
            let total = finishedBytes + (writer?.byteCount ?? 0)
            lock.withLock { status.bytes = total }
        } catch {
            finish(failure: error)
        }
    }

    /// Finishes the file being written; one left without a picture is removed, and no longer listed.
    private func closeWriter() throws(RecordingFailure) {
        guard let writer else { return }
        self.writer = nil
        defer {
            finishedBytes += writer.byteCount
            if !writer.holdsPicture { lock.withLock { status.files.removeAll { $0 == writer.url } } }
        }
        try writer.finish()
    }

    /// Closes the file and marks the recording finished (once), with `failure` if it failed.
    private func finish(failure: RecordingFailure?) {
        guard !lock.withLock({ status.isFinished }) else { return }
        var failure = failure
        do throws(RecordingFailure) { try closeWriter() } catch { if failure == nil { failure = error } }
        let (final, callbacks) = lock.withLock { () -> (Status, [@Sendable (Status) -> Void]) in
            stopping = true
            status.failure = failure
            status.isFinished = true
            status.bytes = finishedBytes
            status.seconds = Double(writtenMilliseconds) / 1000
            defer { onFinish = [] }
            return (status, onFinish)
        }
        if let failure { StreamLog.log(.info, failure.description) }
        callbacks.forEach { $0(final) }
    }

    /// The path of part `part` of a recording that starts at `url`: "name.mkv", "name (part 2).mkv".
    public static func url(of url: URL, part: Int) -> URL {
        guard part > 1 else { return url }
        let stem = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent("\(stem) (part \(part)).\(url.pathExtension.isEmpty ? "mkv" : url.pathExtension)")
    }
}
