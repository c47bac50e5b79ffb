import Foundation

/// Where the CPU went over one measured window of the farm and background benches, read at its
/// start and split at its end: the process trees measured, the camera server's, the X server's,
/// this bench's own, and the rest of the machine's busy time (the keeper client, the kernel, and
/// whatever else ran then). In seconds a minute.
struct CPUWindow {
    private let trees: FarmProcesses
    private let serverPIDs: [Int32]
    private let xvfb: Int32
    private let treesBefore: Double, serverBefore: Double, xvfbBefore: Double, benchBefore: Double
    private let machineBefore: Double?

    /// Starts the window now.
    init(trees: FarmProcesses, serverPIDs: [Int32], xvfb: Int32) {
        (self.trees, self.serverPIDs, self.xvfb) = (trees, serverPIDs, xvfb)
        treesBefore = trees.cpuSeconds
        serverBefore = Self.cpuSeconds(of: serverPIDs)
        xvfbBefore = ProcFS.cpuSeconds(pid: xvfb) ?? 0
        benchBefore = ProcFS.selfCPUSeconds()
        machineBefore = FarmProcesses.machineBusySeconds()
    }

    /// The split over the window's `seconds`, written into `run`. `beside`: seconds a minute that
    /// processes the run counts on their own took (the status servers), left out of the rest.
    func split(over seconds: Double, beside: Double = 0, into run: inout some CPUSplitFigures) {
        let perMinute = 60 / seconds
        let cpu = (trees.cpuSeconds - treesBefore) * perMinute
        let server = (Self.cpuSeconds(of: serverPIDs) - serverBefore) * perMinute
        let xvfbCPU = ((ProcFS.cpuSeconds(pid: xvfb) ?? 0) - xvfbBefore) * perMinute
        let bench = (ProcFS.selfCPUSeconds() - benchBefore) * perMinute
        (run.cpu, run.serverCPU, run.xvfbCPU, run.benchCPU) = (cpu, server, xvfbCPU, bench)
        if let machineBefore, let machineAfter = FarmProcesses.machineBusySeconds() {
            run.otherCPU = (machineAfter - machineBefore) * perMinute - cpu - server - beside - xvfbCPU - bench
        }
    }

    private static func cpuSeconds(of roots: [Int32]) -> Double { roots.map(ProcFS.treeCPUSeconds(root:)).reduce(0, +) }
}

/// A run's figures a `CPUWindow` splits its CPU into.
protocol CPUSplitFigures {
    var cpu: Double? { get set }
    var serverCPU: Double? { get set }
    var xvfbCPU: Double? { get set }
    var benchCPU: Double? { get set }
    var otherCPU: Double? { get set }
}
