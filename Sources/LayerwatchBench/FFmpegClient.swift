import Foundation
import StreamKit

/// The `ffmpeg` command-line client against the bench stream, with its defaults or with the
/// low-latency flags. Two shapes of run: `-f null` (what decoding alone costs) and a pipe of one
/// grey row through the clock strip (`rawvideo`, flushed per frame), which the bench reads to get
/// each frame's age as it leaves the decoder.
struct FFmpegClient {
    static let tunedFlags = ["-fflags", "nobuffer", "-flags", "low_delay", "-probesize", "32", "-analyzeduration", "0"]
    let url: String
    let tuned: Bool

    var label: String { tuned ? "ffmpeg tuned" : "ffmpeg defaults" }

    private var input: [String] {
        ["-hide_banner", "-nostdin", "-loglevel", "error"] + (tuned ? Self.tunedFlags : []) + ["-rtsp_transport", "tcp", "-i", url, "-an"]
    }

    /// Rows `y0`, `y0 + 1` (y0 even, for 4:2:0) in grey; the clock's sample row is `y0 + rowOffset`.
    private static let y0 = ClockBlocks.sampleRow(height: BenchServer.height) & ~1
    private static let rowOffset = ClockBlocks.sampleRow(height: BenchServer.height) - y0
    private var pipeOutput: [String] {
        ["-vf", "crop=\(BenchServer.width):2:0:\(Self.y0)", "-pix_fmt", "gray", "-fps_mode", "passthrough",
         "-flush_packets", "1", "-f", "rawvideo", "-"]
    }

    /// `ffmpeg … -c copy -f null -`: keeps the server's shared media running between runs, as a
    /// printer's camera always is, so every measured connect joins a warm stream.
    func startKeeper() throws -> Process {
        try launch(["-hide_banner", "-nostdin", "-loglevel", "error", "-rtsp_transport", "tcp", "-i", url,
                    "-c", "copy", "-f", "null", "-"], stdout: nil)
    }

    /// CPU and peak RSS of `-f null` decoding over `seconds` after `warmup`.
    func measureDecodeOnly(warmup: Double, seconds: Double) throws -> Measurement {
        let process = try launch(input + ["-f", "null", "-"], stdout: nil)
        defer { stop(process) }
        Thread.sleep(forTimeInterval: warmup)
        let before = ProcFS.cpuSeconds(pid: process.processIdentifier) ?? 0
        Thread.sleep(forTimeInterval: seconds)
        var result = Measurement(client: label, view: "-f null", streams: 1)
        if let after = ProcFS.cpuSeconds(pid: process.processIdentifier) {
            result.cpuSecondsPerMinutePerStream = (after - before) / seconds * 60
        }
        result.peakRSSMegabytes = ProcFS.statusMegabytes("VmHWM", pid: "\(process.processIdentifier)")
        return result
    }

    /// Time to first frame, first-frame age and steady latency from the pipe run; `seconds` 0
    /// stops at the first frame (a time-to-first-frame trial).
    func measureLatency(warmup: Double, seconds: Double) throws -> Measurement {
        let pipe = Pipe()
        let started = DispatchTime.now().uptimeNanoseconds
        let process = try launch(input + pipeOutput, stdout: pipe)
        defer {
            try? pipe.fileHandleForReading.close()  // a blocked write ends with EPIPE
            stop(process)
        }
        let fd = pipe.fileHandleForReading.fileDescriptor
        var row = [UInt8](repeating: 0, count: BenchServer.width * 2)
        var result = Measurement(client: label, view: "rawvideo pipe", streams: 1)
        guard readFrame(fd, into: &row) else { throw BenchError("\(label): no frame from \(process.arguments ?? [])") }
        result.firstFrameSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        result.firstFrameWorstSeconds = result.firstFrameSeconds
        result.firstFrameAgeMilliseconds = age(of: row)
        guard seconds > 0 else { return result }

        let warmEnd = DispatchTime.now().uptimeNanoseconds + UInt64(warmup * 1e9)
        while DispatchTime.now().uptimeNanoseconds < warmEnd, readFrame(fd, into: &row) {}
        let windowStart = DispatchTime.now().uptimeNanoseconds
        let cpuBefore = ProcFS.cpuSeconds(pid: process.processIdentifier) ?? 0
        var ages = AgeSeries(), frames = 0
        while readFrame(fd, into: &row) {
            let at = Double(DispatchTime.now().uptimeNanoseconds - windowStart) / 1e9
            if at >= seconds { break }
            ages.add(at: at, milliseconds: age(of: row))
            frames += 1
        }
        if let cpuAfter = ProcFS.cpuSeconds(pid: process.processIdentifier) {
            result.cpuSecondsPerMinutePerStream = (cpuAfter - cpuBefore) / seconds * 60
        }
        result.peakRSSMegabytes = ProcFS.statusMegabytes("VmHWM", pid: "\(process.processIdentifier)")
        ages.summarize(into: &result, seconds: seconds)
        result.decodedPerSecond = Double(frames) / seconds
        result.shownPerSecond = result.decodedPerSecond
        return result
    }

    private func age(of row: [UInt8]) -> Double {
        let offset = Self.rowOffset * BenchServer.width
        return ClockBlocks.age(of: ClockBlocks.read(width: BenchServer.width) { row[offset + $0] })
    }

    private func readFrame(_ fd: Int32, into row: inout [UInt8]) -> Bool {
        var filled = 0
        while filled < row.count {
            let count = row.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count <= 0 { return false }
            filled += count
        }
        return true
    }

    private func launch(_ arguments: [String], stdout: Pipe?) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = arguments
        process.standardOutput = stdout ?? FileHandle.nullDevice
        // ffmpeg names the URL it failed on, access code and all.
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        Thread.detachNewThread { Self.forwardScrubbed(errors.fileHandleForReading) }
        return process
    }

    /// Copies ffmpeg's messages to our standard error line by line, passwords in URLs masked.
    private static func forwardScrubbed(_ reader: FileHandle) {
        var pending = Data()
        func flush(_ line: Data) {
            let text = Redactor.scrubUserInfo(String(decoding: line, as: UTF8.self))
            FileHandle.standardError.write(Data(text.utf8))
        }
        while let chunk = try? reader.read(upToCount: 4096), !chunk.isEmpty {
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 10) {
                flush(pending[...newline])
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { flush(pending) }
    }

    func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
