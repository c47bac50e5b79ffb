#!/usr/bin/python3
"""What following a printer's status costs: Layerwatch's status client (`layerwatch status --watch`)
beside peers measured in the same run, against the loopback test printers.

Why it exists: the status clients run for every saved printer all day; their CPU and memory must be
small beside the camera's. Bambu: a fake X1 (Tests/Servers/bambu_mqtt_printer.py, a real mosquitto
broker over TLS) publishes a full report every second, as X1 printers do while printing; the peers
are `mosquitto_sub` (Debian's C client on the same libmosquitto, printing payloads without parsing
them: the floor) and a paho subscriber that parses and merges every report (what Home Assistant's
integration does). Moonraker: the loopback Moonraker, polled every 2 s by Layerwatch and by a
curl-in-a-shell-loop peer. Reports CPU seconds per hour and peak RSS of each process tree. Prints a
Markdown table and writes it to bench/STATUS.md. It asserts nothing.

Usage: bench/status.sh [--seconds N]   (builds the release binary first)
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
TICKS = os.sysconf("SC_CLK_TCK")
CODE = "31415926"

PAHO_PEER = r"""
import json, ssl, sys
import paho.mqtt.client as mqtt
state = {}
def merge(base, update):
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merge(base[key], value)
        else:
            base[key] = value
def on_connect(client, userdata, flags, rc):
    client.subscribe(f"device/{sys.argv[3]}/report")
    client.publish(f"device/{sys.argv[3]}/request", json.dumps({"pushing": {"sequence_id": "0", "command": "pushall"}}))
def on_message(client, userdata, message):
    merge(state, json.loads(message.payload).get("print", {}))
client = mqtt.Client()
client.username_pw_set("bblp", sys.argv[4])
client.tls_set(cert_reqs=ssl.CERT_NONE)
client.tls_insecure_set(True)
client.on_connect = on_connect
client.on_message = on_message
client.connect(sys.argv[1], int(sys.argv[2]), 20)
client.loop_forever()
"""


class Server:
    """A test server from Tests/Servers with a pipe on its stdin for commands."""

    def __init__(self, script, *arguments):
        self.process = subprocess.Popen(["/usr/bin/python3", os.path.join(SERVERS, script), *arguments],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        self.ready = json.loads(self.process.stdout.readline())
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for _ in self.process.stdout:
            pass

    def send(self, command):
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def tree(pid):
    """The pid and its descendants."""
    pids, frontier = [pid], [pid]
    while frontier:
        parent = frontier.pop()
        try:
            children = open(f"/proc/{parent}/task/{parent}/children").read().split()
        except OSError:
            children = []
        pids += [int(c) for c in children]
        frontier += [int(c) for c in children]
    return pids


def cpu_seconds(pids):
    total = 0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            # utime, stime, and cutime, cstime: what exited children (a loop's curl runs) used.
            total += sum(int(field) for field in fields[11:15])
        except OSError:
            pass
    return total / TICKS


def peak_rss_mib(pids):
    total = 0
    for pid in pids:
        try:
            for line in open(f"/proc/{pid}/status"):
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def measure(clients, seconds, feed=None):
    """Starts every client, lets them run `seconds` (calling `feed` every second), and returns
    {name: (cpu s/hour, peak RSS MiB)} measured on their process trees."""
    started = {name: subprocess.Popen(command, shell=isinstance(command, str), stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, start_new_session=True)
               for name, command in clients.items()}
    time.sleep(3)  # connected, first answers in
    before = {name: cpu_seconds(tree(p.pid)) for name, p in started.items()}
    begin = time.monotonic()
    while time.monotonic() - begin < seconds:
        if feed:
            feed(time.monotonic() - begin)
        time.sleep(1)
    elapsed = time.monotonic() - begin
    results = {}
    for name, process in started.items():
        pids = tree(process.pid)
        results[name] = ((cpu_seconds(pids) - before[name]) / elapsed * 3600, peak_rss_mib(pids))
        os.killpg(process.pid, 15)
        process.wait(timeout=10)
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=120)
    parser.add_argument("--layerwatch", default=os.path.join(ROOT, ".build-bench/release/layerwatch"))
    args = parser.parse_args()
    rows = []

    printer = Server("bambu_mqtt_printer.py", "--code", CODE, "--model", "X1C")
    port, serial = printer.ready["port"], printer.ready["serial"]
    # mosquitto_sub verifies certificates whatever it is told: it gets the printer's self-signed one as its CA.
    shown = subprocess.run(["openssl", "s_client", "-connect", f"127.0.0.1:{port}"], input="", capture_output=True,
                           text=True, timeout=20).stdout
    certificate = tempfile.NamedTemporaryFile("w", suffix=".pem", delete=False)
    certificate.write(shown[shown.index("-----BEGIN CERTIFICATE-----"):shown.index("-----END CERTIFICATE-----") + 25] + "\n")
    certificate.close()
    peer = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
    peer.write(PAHO_PEER)
    peer.close()
    clients = {
        "Layerwatch (`layerwatch status --watch`)":
            [args.layerwatch, "status", "--watch", "--json", f"bambu://bblp:{CODE}@127.0.0.1:{port}?serial={serial}"],
        "mosquitto_sub (C, no parsing)":
            ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-u", "bblp", "-P", CODE, "--insecure",
             "--cafile", certificate.name, "-t", f"device/{serial}/report"],
        "paho-mqtt (Python, parses and merges)": ["/usr/bin/python3", peer.name, "127.0.0.1", str(port), serial, CODE],
    }

    def report(second):
        # A printing X1: a full report a second, its figures moving.
        step = int(second)
        printer.send({"cmd": "set", "print": {"gcode_state": "RUNNING", "subtask_name": "Benchy", "mc_percent": step % 100,
                                              "layer_num": step, "total_layer_num": 400, "mc_remaining_time": 400 - step,
                                              "nozzle_temper": 219.5 + step % 3, "nozzle_target_temper": 220,
                                              "bed_temper": 55 + step % 2, "bed_target_temper": 55}})
    for name, (cpu, rss) in measure(clients, args.seconds, feed=report).items():
        rows.append(("Bambu MQTT, a full report a second", name, cpu, rss))
    printer.stop()
    os.unlink(peer.name)
    os.unlink(certificate.name)

    moonraker = Server("moonraker_server.py")
    query = "/printer/objects/query?print_stats&display_status&virtual_sdcard&heater_bed&extruder"
    clients = {
        "Layerwatch (`layerwatch status --watch`)":
            [args.layerwatch, "status", "--watch", "--json", f"moonraker://127.0.0.1:{moonraker.ready['port']}"],
        "curl every 2 s (shell loop)":
            f"while true; do curl -s 'http://127.0.0.1:{moonraker.ready['port']}{query}' > /dev/null; sleep 2; done",
    }
    for name, (cpu, rss) in measure(clients, args.seconds).items():
        rows.append(("Moonraker, a poll every 2 s", name, cpu, rss))
    moonraker.stop()

    lines = [f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} over {args.seconds} s per scenario "
             f"on this machine ({os.cpu_count()} cores); CPU of each client's process tree, scaled to an hour.", "",
             "| scenario | client | CPU s/hour | peak RSS MiB |", "|---|---|---|---|"]
    lines += [f"| {scenario} | {client} | {cpu:.1f} | {rss:.1f} |" for scenario, client, cpu, rss in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    with open(os.path.join(ROOT, "bench", "STATUS.md"), "w") as out:
        out.write("# Status clients: what following a printer costs\n\n`bench/status.sh` (see bench/README.md).\n\n" + text)


if __name__ == "__main__":
    sys.exit(main())
