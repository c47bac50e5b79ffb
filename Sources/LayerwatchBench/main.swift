import Foundation

// `layerwatch-bench [--quick] [--results PATH]` runs the whole benchmark (server, ffmpeg baselines,
// Layerwatch scenarios) and writes the results; `layerwatch-bench scenario …` is the child process
// that measures one Layerwatch scenario in isolation and prints one JSON line; `layerwatch-bench
// screen …` measures what reaches the screen, against GStreamer and mpv (bench/screen.sh);
// `layerwatch-bench farm …` what the farm view costs with 1 to 16 printers (bench/farm.sh);
// `layerwatch-bench zoom …` what a zoomed view costs against a fitted one (bench/zoom.sh);
// `layerwatch-bench record …` what recording costs against decoding (bench/record.sh);
// `layerwatch-bench background …` what the app costs with its window closed (bench/background.sh);
// `layerwatch-bench webrtc …` a WebRTC camera on screen, against Chromium and RTSP (bench/webrtc.sh);
// `layerwatch-bench mixed-farm …` the background watching 8 printers of 4 families (bench/mixed-farm.sh);
// `layerwatch-bench history-page …` the History page of 10 000 prints (bench/history-page.sh).
let benchArguments = Array(CommandLine.arguments.dropFirst())
switch benchArguments.first {
case "scenario": ScenarioChild.run(arguments: Array(benchArguments.dropFirst()))
case "screen": ScreenBench.run(arguments: Array(benchArguments.dropFirst()))
case "farm": FarmBench.run(arguments: Array(benchArguments.dropFirst()))
case "zoom": ZoomBench.run(arguments: Array(benchArguments.dropFirst()))
case "record": RecordBench.run(arguments: Array(benchArguments.dropFirst()))
case "background": BackgroundBench.run(arguments: Array(benchArguments.dropFirst()))
case "mixed-farm": MixedFarmBench.run(arguments: Array(benchArguments.dropFirst()))
case "history-page": HistoryBench.run(arguments: Array(benchArguments.dropFirst()))
case "webrtc": WebRTCBench.run(arguments: Array(benchArguments.dropFirst()))
default: BenchRun.run(arguments: benchArguments)
}
