import Foundation
import StreamKit

/// One player's run on the bench's screen: started, timed to its first readable picture, given a
/// moment to settle, then watched for a fixed window. A player that shows nothing is a run with a
/// failure, not an error: the bench goes on with the others.
struct ScreenRun {
    var picture: ScreenRect?
    /// Seconds from exec to the first picture with a readable clock on screen.
    var firstPictureSeconds: Double?
    var ages = AgeSeries()
    var framesPerSecond: Double?
    /// CPU seconds a minute over the window: the player's process tree, and the X server.
    var cpu: Double?
    var serverCPU: Double?
    /// CPU seconds a minute of the camera serving the stream over the same window, when the bench
    /// names it (the WebRTC bench: each run has a camera of its own).
    var cameraCPU: Double?
    /// CPU seconds a minute the rest of the machine was busy over the window (`/proc/stat` less the
    /// player, the camera, Xvfb and the bench): anything else that ran then, such as other builds.
    var restCPU: Double?
    /// Polls whose row was unreadable (not black and white) or implausibly old.
    var rejected = 0
    /// CPU seconds a minute of the player's Mesa llvmpipe threads: GL rendering in software (GTK
    /// makes a GL context whatever its renderer, so only this work shows that GL draws).
    var llvmpipeCPU: Double?
    var failure: String?

    /// How a run is timed.
    struct Timing {
        let settle: Double
        let seconds: Double
        static let firstPictureLimit = 30.0
    }

    /// Starts `command`, waits for its picture on `screen`, measures it, and ends it; `label` names
    /// it in messages, `log` keeps its output, `whenShown` runs once its first picture is there;
    /// `camera` is the process serving the stream, whose CPU is read beside.
    static func measure(_ label: String, command: (executable: String, arguments: [String], environment: [String: String]),
                        screen: XScreen, session: XDisplaySession, timing: Timing, log: URL, camera: Int32? = nil,
                        whenShown: () throws -> Void = {}) throws -> ScreenRun {
        var run = ScreenRun()
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw BenchError("cannot write \(log.path)") }
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        let started = DispatchTime.now().uptimeNanoseconds
        let process = try StartedProcesses.start(command.executable, command.arguments,
                                                 environment: session.environment.merging(command.environment) { $1 },
                                                 stdout: output, stderr: output)
        defer { StartedProcesses.stop(process) }

        guard let first = firstPicture(on: screen, of: process) else {
            run.failure = process.isRunning ? "no picture within \(Int(Timing.firstPictureLimit)) s" : "exited (status \(process.terminationStatus))"
            FileHandle.standardError.write(Data("\(label): \(run.failure!); its output ends:\n\(BenchRun.tail(of: log))\n".utf8))
            return run
        }
        run.firstPictureSeconds = Double(first - started) / 1e9
        try whenShown()
        Thread.sleep(forTimeInterval: timing.settle)
        guard let shot = screen.grabAll(), let picture = ScreenMarks.find(in: shot) else {
            run.failure = "picture lost after \(timing.settle) s"
            return run
        }
        run.picture = picture
        let pid = process.processIdentifier
        let cpuBefore = ProcFS.treeCPUSeconds(root: pid), serverBefore = ProcFS.cpuSeconds(pid: session.server.processIdentifier)
        let llvmpipeBefore = ProcFS.threadsCPUSeconds(pid: pid, named: "llvmpipe")
        let cameraBefore = camera.flatMap(ProcFS.cpuSeconds(pid:))
        let machineBefore = FarmProcesses.machineBusySeconds(), benchBefore = ProcFS.selfCPUSeconds()
        let recorded = FramebufferClock(screen: screen, picture: picture).record(seconds: timing.seconds)
        let cpuAfter = ProcFS.treeCPUSeconds(root: pid), serverAfter = ProcFS.cpuSeconds(pid: session.server.processIdentifier)
        run.cpu = (cpuAfter - cpuBefore) / timing.seconds * 60
        run.llvmpipeCPU = (ProcFS.threadsCPUSeconds(pid: pid, named: "llvmpipe") - llvmpipeBefore) / timing.seconds * 60
        if let serverAfter, let serverBefore { run.serverCPU = (serverAfter - serverBefore) / timing.seconds * 60 }
        if let cameraBefore, let cameraAfter = camera.flatMap(ProcFS.cpuSeconds(pid:)) {
            run.cameraCPU = (cameraAfter - cameraBefore) / timing.seconds * 60
        }
        if let machineBefore, let machineAfter = FarmProcesses.machineBusySeconds(), let cpu = run.cpu, let server = run.serverCPU {
            let bench = (ProcFS.selfCPUSeconds() - benchBefore) / timing.seconds * 60
            run.restCPU = (machineAfter - machineBefore) / timing.seconds * 60 - cpu - server - (run.cameraCPU ?? 0) - bench
        }
        run.ages = recorded.ages
        run.framesPerSecond = Double(recorded.ages.samples.count) / timing.seconds
        run.rejected = recorded.rejected
        return run
    }

    /// When (uptime ns) the first picture with a readable, plausible clock was on screen: the end
    /// of the first whole-screen grab that held one.
    private static func firstPicture(on screen: XScreen, of process: Process) -> UInt64? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Timing.firstPictureLimit * 1e9)
        while process.isRunning, DispatchTime.now().uptimeNanoseconds < deadline {
            let shot = screen.grabAll(), grabbed = DispatchTime.now().uptimeNanoseconds
            if let shot, let picture = ScreenMarks.find(in: shot),
               let value = FramebufferClock(screen: screen, picture: picture).read(shot),
               (0...5000).contains(ClockBlocks.age(of: value)) {
                return grabbed
            }
            usleep(10_000)  // a grab and a search take 5–10 ms: about one look every 15–20 ms
        }
        return nil
    }
}
