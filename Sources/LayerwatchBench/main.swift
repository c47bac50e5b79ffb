import Foundation

// `layerwatch-bench [--quick] [--results PATH]` runs the whole benchmark (server, ffmpeg baselines,
// Layerwatch scenarios) and writes the results; `layerwatch-bench scenario …` is the child process
// that measures one Layerwatch scenario in isolation and prints one JSON line.
let benchArguments = Array(CommandLine.arguments.dropFirst())
if benchArguments.first == "scenario" {
    ScenarioChild.run(arguments: Array(benchArguments.dropFirst()))
} else {
    BenchRun.run(arguments: benchArguments)
}
