#!/usr/bin/python3
"""What sending a file to print costs: `layerwatch print FILE moonraker://… --yes` beside
`curl -F file=@FILE` sending the same file to the same loopback Moonraker (Tests/Servers/
moonraker_server.py, which stores what arrives as its hash and times it from the body's first byte
to its last).

Why it exists: a sliced file can be hundreds of megabytes; Layerwatch streams it from disk in
256 KiB chunks, so it should go about as fast as curl's and in bounded memory (issue 39: at least
0.8x curl's throughput, at most 120 MiB peak RSS for a 300 MB file). For each round, each client
sends the file once to an idle printer; the figures are the server's throughput (file bytes over
the body's receiving time), the client's wall time (Layerwatch's includes connecting to the
printer's status and the answer), and the client's peak RSS (its rusage). The peer is in Python:
both clients wait on it the same, so the ratio says whether Layerwatch keeps up with curl. Prints
a Markdown table and writes it to bench/UPLOAD.md. It asserts nothing.

Usage: bench/upload.sh [--megabytes N] [--rounds N]   (builds the release binary first)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVERS = os.path.join(ROOT, "Tests", "Servers")


class Moonraker:
    """The loopback Moonraker, its upload events collected."""

    def __init__(self):
        self.process = subprocess.Popen(["/usr/bin/python3", os.path.join(SERVERS, "moonraker_server.py")],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        self.port = json.loads(self.process.stdout.readline())["port"]
        self.uploads = []
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            event = json.loads(line)
            if event.get("event") == "upload":
                with self.lock:
                    self.uploads.append(event)
                    self.lock.notify_all()

    def idle(self):
        """Back to standby, so the next upload prints."""
        self.process.stdin.write(json.dumps({"cmd": "set", "status": {"print_stats": {"state": "standby"}}}) + "\n")
        self.process.stdin.flush()
        time.sleep(0.3)

    def next_upload(self, seen):
        with self.lock:
            self.lock.wait_for(lambda: len(self.uploads) > seen, timeout=120)
            return self.uploads[seen] if len(self.uploads) > seen else None

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def run(command):
    """(wall seconds, peak RSS in MiB, exit status) of `command`."""
    began = time.monotonic()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    return time.monotonic() - began, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--megabytes", type=int, default=300)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--app", default=os.path.join(ROOT, ".build-bench", "release", "layerwatch"))
    cfg = p.parse_args()

    folder = tempfile.mkdtemp(prefix="layerwatch-upload-bench-")
    path = os.path.join(folder, "bench.gcode")
    with open(path, "wb") as f:
        for _ in range(cfg.megabytes):
            f.write(os.urandom(1_000_000))
    size = os.path.getsize(path)
    printer = Moonraker()
    url = f"http://127.0.0.1:{printer.port}/server/files/upload"
    clients = {
        "layerwatch print": [cfg.app, "print", path, f"moonraker://127.0.0.1:{printer.port}", "--yes"],
        "curl -F": ["curl", "-s", "-o", "/dev/null", "-F", "root=gcodes", "-F", "print=true", "-F", f"file=@{path}", url],
    }
    figures = {name: [] for name in clients}
    try:
        for _ in range(cfg.rounds):
            for name, command in clients.items():
                printer.idle()
                seen = len(printer.uploads)
                wall, rss, status = run(command)
                upload = printer.next_upload(seen)
                if status != 0 or not upload or not upload.get("complete") or upload.get("size") != size:
                    print(f"{name}: failed (exit {status}, {upload})", file=sys.stderr)
                    continue
                figures[name].append((size / upload["seconds"] / 1e6, wall, rss))
    finally:
        printer.stop()
        os.remove(path)
        os.rmdir(folder)

    def median(values):
        values = sorted(values)
        return values[len(values) // 2] if values else float("nan")

    floor = run([cfg.app, "status", "--help"])[1]  # the binary and its libraries, sending nothing
    rows = {name: tuple(median([f[i] for f in got]) for i in range(3)) for name, got in figures.items()}
    ours, curl = rows["layerwatch print"], rows["curl -F"]
    lines = [
        "# Sending a file to print",
        "",
        f"`bench/upload.sh --megabytes {cfg.megabytes} --rounds {cfg.rounds}` on {time.strftime('%Y-%m-%d')}: a "
        f"{size / 1e6:.0f} MB file to the loopback Moonraker (Tests/Servers/moonraker_server.py), each client once a "
        f"round, medians of {cfg.rounds} rounds. Throughput is the server's (file bytes over the time from the body's "
        "first byte to its last); wall time is the client's whole run (Layerwatch's includes connecting to the "
        "printer's status); peak RSS is the client process's (rusage).",
        "",
        "| client | throughput (MB/s) | wall (s) | peak RSS (MiB) |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name, (speed, wall, rss) in rows.items():
        lines.append(f"| {name} | {speed:.0f} | {wall:.2f} | {rss:.1f} |")
    lines += [
        "",
        f"Targets (issue 39): throughput at least 0.8x curl's: **{ours[0] / curl[0]:.2f}x**; peak RSS at most "
        f"120 MiB for a 300 MB file: **{ours[2]:.1f} MiB**, of which {floor:.1f} MiB is the binary and its "
        "libraries (GTK, FFmpeg) loaded, as `layerwatch status --help` shows.",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(ROOT, "bench", "UPLOAD.md"), "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
