#!/usr/bin/env python3
"""Loopback fake of a Bambu printer's LAN MQTT side: a real mosquitto broker plus a "printer".

Why it exists: Layerwatch shows live printer status (issue 14).  A Bambu printer runs an MQTT
broker on port 8883 (TLS with a self-signed certificate whose CN is the serial, MQTT 3.1.1, user
`bblp`, password = access code; PROTOCOLS.md §4).  The printer publishes `{"print":{…}}` reports
on device/SERIAL/report and obeys JSON requests on device/SERIAL/request (pushall, ledctrl).  This
script starts /usr/sbin/mosquitto configured that way on 127.0.0.1 and a paho client that plays
the printer, so the Swift tests talk to a real broker.  The test steers the printer through JSON
commands on stdin.  Needs /usr/bin/python3 (python3-paho-mqtt), mosquitto, mosquitto_passwd and
the openssl CLI.

stdin:  {"cmd":"set","print":{…}}          merge fields into the state, publish a report
        {"cmd":"raw","payload":TEXT[,"topic":T]}  publish exactly TEXT (report topic by default)
        {"cmd":"huge","bytes":N}            publish a valid report padded to N bytes
        {"cmd":"flood","rate":R,"seconds":S,"reports":[{…},…][,"fresh_hms":true]}
                                            publish R reports a second for S seconds, cycling
                                            through `reports` (partial `print` objects); with
                                            fresh_hms each carries an HMS code never sent before;
                                            done says how many were published
        {"cmd":"other_serial","print":{…}[,"serial":S]}  a report on another printer's topic
        {"cmd":"disconnect_printer"} / {"cmd":"connect_printer"}   the printer leaves / rejoins
        {"cmd":"kick_clients"}              restart the broker on the same port (all dropped)
        {"cmd":"freeze_broker"} / {"cmd":"thaw_broker"}   SIGSTOP / SIGCONT the broker
        {"cmd":"files"}                      done lists the files its FTPS storage holds: {name: bytes}
        {"cmd":"drop_uploads","after":N}     its FTPS storage breaks each upload off after N bytes (426)
        {"cmd":"slow_uploads","seconds":S}   its FTPS storage waits S seconds before each STOR's 150
        {"cmd":"answers","mode":"normal"|"silent"|"unsigned"|"other_command"|"hollow"}
                                            silent: print commands get no echo and change nothing;
                                            unsigned: every one is refused for want of a signature
                                            though `fun` does not say so; other_command (hostile):
                                            each is answered by a success echo of another command
                                            carrying its sequence_id, and changes nothing; hollow:
                                            each is echoed as a success but changes nothing
Print commands (pause / resume / stop / print_speed on the request topic) are obeyed as firmware
does: the state changes (RUNNING→PAUSE, PAUSE→RUNNING, either→FAILED with print_error 0x0300400C
"task cancelled", spd_lvl) in a report, then
the command is echoed with its sequence_id and "result":"success"; one that does not apply is
echoed with "result":"fail" and a reason.  While the `fun` field (hex) has bit 0x20000000
(signatures required: Developer Mode off) every print command is refused as 2025 firmware does:
echoed with err_code 84033543, and HMS 0500_0500_0001_0007 raised.
Its storage: implicit FTPS on another port of the same address, with the broker's certificate
(bambu_ftps.py: user bblp, the access code, data connections that must resume the control
connection's TLS session).  project_file (`url` "ftp://NAME", PROTOCOLS.md §14) starts a print of
a stored file while the printer is idle, finished or failed: gcode_state RUNNING, subtask_name as
the request gives it, gcode_file NAME; a name not stored is refused ("file not found").
stdout: {"event":"ready","port":P,"serial":S,"ftps_port":F}
        {"event":"done","cmd":C,…}           a command finished (its report handed to the broker)
        {"event":"request","kind":"pushall"|"ledctrl"|"print"|"other","payload":…}
        {"event":"client-connected","id":I,"user":U,"address":A,"protocol":"3.1.1","printer":B}
        {"event":"client-refused","reason":"not authorised"}
        {"event":"client-closed","id":I,"reason":R,"printer":B}
        {"event":"subscribe","id":I,"topic":T,"qos":Q,"printer":B}
        {"event":"error","cmd":C,"message":M}  a command failed
"""
import argparse
import copy
import ctypes
import json
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import deep_merge, emit, log, make_certificate, serve_commands  # noqa: E402
from bambu_ftps import FtpsServer  # noqa: E402

try:
    import paho.mqtt.client as mqtt
except ImportError:
    sys.exit("bambu_mqtt_printer: needs paho-mqtt; run it with /usr/bin/python3 (python3-paho-mqtt)")

NAME = "bambu_mqtt_printer"
USER = "bblp"
MOSQUITTO = "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = "/usr/bin/mosquitto_passwd"
OTHER_SERIAL = "01S00C999999999"
FLAT_TEMPERATURES = ("nozzle_temper", "nozzle_target_temper", "bed_temper", "bed_target_temper", "chamber_temper")
# State fields that only feed the packed temperatures (--packed-temps) and are never published as such.
PSEUDO_TEMPERATURES = ("nozzle2_temper", "nozzle2_target_temper", "chamber_target_temper")
STARTUP_TIMEOUT = 10
ANNOUNCED = threading.Event()  # set with the ready event: broker events come after it, never before

# ~~ the broker


_libc = ctypes.CDLL(None, use_errno=True)  # loaded before any fork: the child only calls prctl
PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid):
    """preexec_fn for the broker: the kernel sends it SIGKILL when this script dies, even by
    kill -9.  (PDEATHSIG follows the thread that forked, so the broker is always started from
    the main thread: startup and stdin commands run there.)"""
    def preexec():
        _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent_pid:  # the parent died before prctl
            os._exit(1)
    return preexec


def free_port(bind):
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.bind((bind, 0))
        return sock.getsockname()[1]


def port_is_free(bind, port):
    """Whether mosquitto will be able to listen there (it uses SO_REUSEADDR too)."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((bind, port))
            sock.listen(1)
        except OSError as error:
            log(NAME, f"cannot listen on {bind}:{port}: {error.strerror or error}")
            return False
    return True


def write_broker_files(directory, cfg):
    """Certificate (CN = serial), password file and mosquitto.conf; returns the conf's path and
    the certificate's and key's."""
    cert, key = make_certificate(directory, cfg.certificate_name or cfg.serial)
    passwords = os.path.join(directory, "passwords")
    subprocess.run([MOSQUITTO_PASSWD, "-b", "-c", passwords, USER, cfg.code], check=True,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    lines = [
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {passwords}",
        "persistence false",
        "log_dest stderr",
        *[f"log_type {kind}" for kind in ("error", "warning", "notice", "information", "subscribe")],
        "connection_messages true",
        f"listener {cfg.port} {cfg.bind}",
        f"certfile {cert}",
        f"keyfile {key}",
    ]
    if cfg.max_connections is not None:
        lines.append(f"max_connections {cfg.max_connections}")
    if os.geteuid() == 0:
        lines.insert(0, "user root")  # else mosquitto drops to user mosquitto and cannot read our 0700 dir
    conf = os.path.join(directory, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write("\n".join(lines) + "\n")
    return conf, cert, key


class BrokerLog:
    """Forwards mosquitto's log (its stderr) to ours and turns connection lines into events."""
    CONNECTED = re.compile(r"New client connected from (\S+) as (.+) \(p(\d+), c\d+, k\d+(?:, u'(.*)')?\)\.$")
    CLOSED = re.compile(r"Client (.+?) (disconnected.*|closed its connection\.|has exceeded timeout, disconnecting\.|"
                        r"already connected, closing old connection\.)$")
    SUBSCRIBED = re.compile(r"(\S+) ([012]) (\S+)$")
    PROTOCOLS = {"1": "3.1", "2": "3.1.1", "5": "5"}

    def __init__(self, stream, printer_id):
        self.printer_id = printer_id
        threading.Thread(target=self.pump, args=(stream,), daemon=True).start()

    def pump(self, stream):
        for raw in iter(stream.readline, b""):
            line = re.sub(r"^\d+: ", "", raw.decode("utf-8", "replace").rstrip("\n"))
            log("mosquitto", line)
            self.parse(line)

    def parse(self, line):
        if not ANNOUNCED.is_set():
            return  # the printer's own startup connection: the first stdout line is always ready
        if match := self.CONNECTED.match(line):
            address, client, protocol, user = match.groups()
            emit(event="client-connected", id=client, user=user, address=address,
                 protocol=self.PROTOCOLS.get(protocol, protocol), printer=client == self.printer_id)
        elif match := self.CLOSED.match(line):
            client, reason = match.groups()
            if "not authorised" in reason:
                emit(event="client-refused", reason="not authorised")
            elif client != "<unknown>":  # <unknown>: TCP without a CONNECT, e.g. the port probe
                emit(event="client-closed", id=client, reason=reason.rstrip("."), printer=client == self.printer_id)
        elif match := self.SUBSCRIBED.match(line):
            client, qos, topic = match.groups()
            emit(event="subscribe", id=client, topic=topic, qos=int(qos), printer=client == self.printer_id)


class Broker:
    """The mosquitto child process on a fixed port; start() returns once the port accepts TCP."""

    def __init__(self, conf, bind, port, printer_id):
        self.conf, self.bind, self.port, self.printer_id = conf, bind, port, printer_id
        self.process = None

    def start(self):
        self.process = subprocess.Popen([MOSQUITTO, "-c", self.conf], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        preexec_fn=die_with_parent(os.getpid()))
        BrokerLog(self.process.stderr, self.printer_id)
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited with status {self.process.returncode}")
            try:
                socket.create_connection((self.bind, self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not accept connections in time")

    def signal(self, signum):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signum)

    def stop(self):
        if not self.process or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGCONT)  # in case it was frozen
        self.process.terminate()
        try:
            self.process.wait(3)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# ~~ the printer's state and reports


def pack(current, target):
    """Newer firmware's packed temperature: current in the low 16 bits, target in the high ones."""
    return (int(round(current or 0)) & 0xFFFF) | ((int(round(target or 0)) & 0xFFFF) << 16)


def initial_state(model):
    lights = [{"node": "chamber_light", "mode": "off"}, {"node": "work_light", "mode": "off"}]
    if model == "H2D":
        lights.insert(1, {"node": "chamber_light2", "mode": "off"})
    return {
        "command": "push_status",
        "gcode_state": "IDLE",
        "print_type": "idle",
        "mc_print_stage": "1",
        "mc_percent": 0,
        "mc_remaining_time": 0,
        "layer_num": 0,
        "total_layer_num": 0,
        "subtask_name": "",
        "gcode_file": "",
        "project_id": "0",
        "task_id": "0",
        "subtask_id": "0",
        "nozzle_temper": 24.0,
        "nozzle_target_temper": 0.0,
        "nozzle2_temper": 24.0,
        "nozzle2_target_temper": 0.0,
        "bed_temper": 23.5,
        "bed_target_temper": 0.0,
        "chamber_temper": 25.0,
        "chamber_target_temper": 0.0,
        "spd_lvl": 2,
        "spd_mag": 100,
        "lights_report": lights,
        "print_error": 0,
        "hms": [],
        "ipcam": {"ipcam_dev": "1", "ipcam_record": "enable", "timelapse": "disable", "resolution": "1080p",
                  "rtsp_url": "disable"},
        "wifi_signal": "-44dBm",
        "sequence_id": "0",
    }


class PrinterState:
    """The `print` object and how it is reported: full (X1) or only what changed (--partial),
    temperatures flat or packed in `device` (--packed-temps)."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.lock = threading.Lock()
        self.state = initial_state(cfg.model)
        self.sequence = 0
        self.refuse_unsigned = False
        self.storage = None  # the FtpsServer whose files project_file prints

    def report(self, changed=None, full=False, extra=None):
        """The JSON text of a report: everything when `full` or not --partial, else only the
        top-level fields in `changed` (plus command and sequence_id).  `extra` is added last."""
        with self.lock:
            self.sequence += 1
            self.state["sequence_id"] = str(self.sequence)
            names = None if full or not self.cfg.partial else set(changed or ()) | {"command", "sequence_id"}
            body = {k: copy.deepcopy(v) for k, v in self.state.items() if names is None or k in names}
            self.shape_temperatures(body, names)
        body.update(extra or {})
        return json.dumps({"print": body})

    def shape_temperatures(self, body, names):
        for key in PSEUDO_TEMPERATURES:
            body.pop(key, None)
        if not self.cfg.packed_temps:
            return
        for key in FLAT_TEMPERATURES:
            body.pop(key, None)
        if names is None or names & set(FLAT_TEMPERATURES + PSEUDO_TEMPERATURES):
            body["device"] = deep_merge(copy.deepcopy(self.state.get("device", {})), self.device_block())

    def device_block(self):
        s = self.state
        extruders = [{"id": 0, "temp": pack(s["nozzle_temper"], s["nozzle_target_temper"])}]
        if self.cfg.model == "H2D":
            extruders.append({"id": 1, "temp": pack(s["nozzle2_temper"], s["nozzle2_target_temper"])})
        return {"bed": {"info": {"temp": pack(s["bed_temper"], s["bed_target_temper"])}},
                "extruder": {"info": extruders},
                "ctc": {"info": {"temp": pack(s["chamber_temper"], s["chamber_target_temper"])}}}

    def merge(self, fields):
        with self.lock:
            deep_merge(self.state, fields)

    def set_light(self, node, mode):
        """ledctrl: True when `node` is one of this model's lights."""
        with self.lock:
            for light in self.state["lights_report"]:
                if light.get("node") == node:
                    light["mode"] = mode
                    return True
        return False

    def obey(self, request):
        """A print command: (changed field names, echo fields)."""
        command, param = request.get("command"), str(request.get("param", ""))
        with self.lock:
            fun = self.state.get("fun", "0")
            try:
                locked = int(str(fun), 16) & SIGNATURE_REQUIRED
            except ValueError:
                locked = 0
            if locked or self.refuse_unsigned:
                self.state.setdefault("hms", []).append(dict(VERIFY_FAILED_HMS))
                return ["hms"], {"result": "fail", "reason": "mqtt message verify failed", "err_code": SIGNATURE_REFUSAL}
            state = self.state["gcode_state"]
            if command == "pause" and state == "RUNNING":
                self.state["gcode_state"] = "PAUSE"
            elif command == "resume" and state == "PAUSE":
                self.state["gcode_state"] = "RUNNING"
            elif command == "stop" and state in ("RUNNING", "PAUSE"):
                self.state["gcode_state"] = "FAILED"
                self.state["print_error"] = TASK_CANCELLED
                return ["gcode_state", "print_error"], {"result": "success", "reason": ""}
            elif command == "print_speed" and state in ("RUNNING", "PAUSE") and param in ("1", "2", "3", "4"):
                self.state["spd_lvl"] = int(param)
                return ["spd_lvl"], {"result": "success", "reason": ""}
            elif command == "project_file" and state in ("IDLE", "FINISH", "FAILED"):
                name = str(request.get("url", ""))
                name = name[len("ftp://"):].lstrip("/") if name.startswith("ftp://") else name
                if not (self.storage and self.storage.has(name)):
                    return [], {"result": "fail", "reason": f"file not found: {name}"}
                self.state.update(gcode_state="RUNNING", subtask_name=str(request.get("subtask_name", "")),
                                  gcode_file=name, mc_percent=0, print_error=0, print_type="local")
                return ["gcode_state", "subtask_name", "gcode_file", "mc_percent", "print_error", "print_type"], \
                    {"result": "success", "reason": ""}
            else:
                return [], {"result": "fail", "reason": f"the printer is {state.lower()}: {command} does not apply"}
            return ["gcode_state"], {"result": "success", "reason": ""}

    def snapshot(self):
        with self.lock:
            return copy.deepcopy(self.state)


# ~~ the printer's MQTT client


def classify(payload):
    if isinstance(payload, dict):
        if isinstance(payload.get("pushing"), dict) and payload["pushing"].get("command") == "pushall":
            return "pushall"
        if isinstance(payload.get("system"), dict) and payload["system"].get("command") == "ledctrl":
            return "ledctrl"
        if isinstance(payload.get("print"), dict) and payload["print"].get("command") in PRINT_COMMANDS:
            return "print"
    return "other"


PRINT_COMMANDS = ("pause", "resume", "stop", "print_speed", "project_file")
SIGNATURE_REQUIRED = 0x20000000
TASK_CANCELLED = 0x0300400C  # print_error of a stopped print (50348044, "The task was canceled.")
SIGNATURE_REFUSAL = 84033543  # err_code of an unsigned command (0x05024007, "mqtt message verify failed")
VERIFY_FAILED_HMS = {"attr": 0x05000500, "code": 0x00010007}  # HMS 0500_0500_0001_0007


class Printer:
    """A paho client logged in as bblp that answers requests and publishes reports."""

    def __init__(self, cfg, state):
        self.cfg, self.state = cfg, state
        self.client_id = f"bambu-printer-{cfg.serial}"
        self.report_topic = f"device/{cfg.serial}/report"
        self.request_topic = f"device/{cfg.serial}/request"
        self.client = None
        self.subscribed = threading.Event()
        self.answers = "normal"  # {"cmd":"answers","mode":…}: how print commands are answered

    @property
    def connected(self):
        return self.client is not None

    def start(self):
        """Connects and subscribes; returns once the broker acknowledged the subscription."""
        if self.client:
            return
        self.subscribed.clear()
        client = mqtt.Client(client_id=self.client_id, clean_session=True, protocol=mqtt.MQTTv311)
        client.username_pw_set(USER, self.cfg.code)
        client.tls_set(cert_reqs=ssl.CERT_NONE)
        client.tls_insecure_set(True)
        client.reconnect_delay_set(min_delay=1, max_delay=2)
        client.on_connect = self.on_connect
        client.on_subscribe = lambda *_: self.subscribed.set()
        client.on_message = self.on_message
        client.connect(self.cfg.bind, self.cfg.port, keepalive=30)
        client.loop_start()
        self.client = client
        if not self.subscribed.wait(STARTUP_TIMEOUT):
            self.stop()
            raise RuntimeError("the printer client did not connect and subscribe in time")

    def stop(self):
        if not self.client:
            return
        client, self.client = self.client, None
        client.disconnect()
        client.loop_stop()

    def on_connect(self, client, _userdata, _flags, rc):
        if rc != 0:
            log(NAME, f"printer client refused: {mqtt.connack_string(rc)}")
            return
        client.subscribe(self.request_topic, qos=0)

    def on_message(self, _client, _userdata, message):
        text = message.payload.decode("utf-8", "replace")
        try:
            payload = json.loads(text)
        except ValueError:
            payload = text
        kind = classify(payload)
        # Told before it is obeyed: a test that sees the printer's answer finds the request logged.
        emit(event="request", kind=kind, payload=payload)
        if kind == "pushall":
            self.publish(self.state.report(full=True))
        elif kind == "ledctrl":
            system = payload["system"]
            if self.state.set_light(system.get("led_node"), system.get("led_mode")):
                self.publish(self.state.report(changed=["lights_report"]))
        elif kind == "print" and self.answers != "silent":
            request = payload["print"]
            command = request.get("command")
            if self.answers in ("other_command", "hollow"):
                if self.answers == "other_command":
                    command = next(other for other in PRINT_COMMANDS if other != command)
                echo = {"result": "success", "reason": ""}
            else:
                changed, echo = self.state.obey(request)
                if changed:
                    self.publish(self.state.report(changed=changed))
            self.publish(json.dumps({"print": {"command": command, "param": request.get("param", ""),
                                               "sequence_id": request.get("sequence_id"), **echo}}))

    def publish(self, payload, topic=None, wait=False):
        """Publishes at QoS 0; with `wait`, returns whether it was written to the broker."""
        client = self.client
        if client is None:
            return False
        info = client.publish(topic or self.report_topic, payload, qos=0)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            return False
        if wait:
            info.wait_for_publish(5)
            return info.is_published()
        return True


# ~~ stdin commands


class Commands:
    def __init__(self, cfg, state, printer, broker):
        self.cfg, self.state, self.printer, self.broker = cfg, state, printer, broker

    def __call__(self, command):
        name = command.get("cmd")
        action = getattr(self, f"cmd_{name}", None) if isinstance(name, str) else None
        if action is None:
            raise ValueError(f"unknown command {name!r}")
        emit(event="done", cmd=name, **(action(command) or {}))

    def cmd_set(self, command):
        fields = command.get("print") or {}
        self.state.merge(fields)
        return {"published": self.printer.publish(self.state.report(changed=fields.keys()), wait=True)}

    def cmd_raw(self, command):
        payload = str(command.get("payload", "")).encode("utf-8")
        return {"published": self.printer.publish(payload, topic=command.get("topic"), wait=True), "bytes": len(payload)}

    def cmd_huge(self, command):
        size = int(command.get("bytes", 1_000_000))
        base = self.state.report(extra={"pad": ""})
        padding = max(0, size - len(base.encode()))
        payload = base[:-3] + "x" * padding + base[-3:]  # base ends with the empty pad's `""}}`
        return {"published": self.printer.publish(payload, wait=True), "bytes": len(payload.encode())}

    def cmd_flood(self, command):
        rate = max(1, min(int(command.get("rate", 1000)), 20_000))
        seconds = max(0.0, min(float(command.get("seconds", 1)), 60.0))
        reports = command.get("reports") or [{}]
        fresh_hms = bool(command.get("fresh_hms"))
        started = time.monotonic()
        count = 0
        while count < rate * seconds:
            body = dict(reports[count % len(reports)], command="push_status", sequence_id=str(count))
            if fresh_hms:
                body["hms"] = [{"attr": 0x0300_0000 + count, "code": 0x0001_0007}]
            if not self.printer.publish(json.dumps({"print": body})):
                break
            count += 1
            ahead = started + count / rate - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
        if reports:
            self.state.merge(dict(reports[(count - 1) % len(reports)]) if count else {})
        return {"published": count, "seconds": round(time.monotonic() - started, 3)}

    def cmd_other_serial(self, command):
        serial = command.get("serial", OTHER_SERIAL)
        body = deep_merge(self.state.snapshot(), command.get("print") or {})
        for key in PSEUDO_TEMPERATURES:
            body.pop(key, None)
        topic = f"device/{serial}/report"
        return {"published": self.printer.publish(json.dumps({"print": body}), topic=topic, wait=True), "topic": topic}

    def cmd_disconnect_printer(self, _command):
        self.printer.stop()

    def cmd_connect_printer(self, _command):
        self.printer.start()

    def cmd_kick_clients(self, _command):
        was_connected = self.printer.connected
        self.printer.stop()
        self.broker.stop()
        self.broker.start()
        if was_connected:
            self.printer.start()

    def cmd_drop_uploads(self, command):
        self.state.storage.drop_after = int(command.get("after", 0))

    def cmd_slow_uploads(self, command):
        self.state.storage.open_delay = float(command.get("seconds", 0))

    def cmd_files(self, _command):
        return {"files": self.state.storage.listing()}

    def cmd_answers(self, command):
        mode = command.get("mode")
        if mode not in ("normal", "silent", "unsigned", "other_command", "hollow"):
            raise ValueError(f"unknown answers mode {mode!r}")
        self.printer.answers = mode
        self.state.refuse_unsigned = mode == "unsigned"

    def cmd_freeze_broker(self, _command):
        self.broker.signal(signal.SIGSTOP)

    def cmd_thaw_broker(self, _command):
        self.broker.signal(signal.SIGCONT)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bind", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="0 = pick a free port")
    p.add_argument("--serial", default="01S00C123456789", help="the certificate's CN and the topics' serial")
    p.add_argument("--certificate-name", help="the certificate's CN when it should not be the serial")
    p.add_argument("--code", default="12345678", help="access code = MQTT password of user bblp")
    p.add_argument("--model", default="X1C", choices=("X1C", "P1S", "H2D"))
    p.add_argument("--partial", action="store_true", help="P1/A1 style: reports after a pushall carry only changes")
    p.add_argument("--packed-temps", action="store_true", help="newer firmware: temperatures packed in print.device")
    p.add_argument("--no-printer", action="store_true", help="start only the broker (connect_printer starts it later)")
    p.add_argument("--max-connections", type=int, help="mosquitto's max_connections (the printer counts as one)")
    return p.parse_args()


def main():
    cfg = parse_args()
    cfg.port = cfg.port or free_port(cfg.bind)
    if not port_is_free(cfg.bind, cfg.port):
        return 1
    state = PrinterState(cfg)
    printer = Printer(cfg, state)
    with tempfile.TemporaryDirectory(prefix="layerwatch-bambu-mqtt-") as tmp:
        conf, cert, key = write_broker_files(tmp, cfg)
        broker = Broker(conf, cfg.bind, cfg.port, printer.client_id)
        storage_dir = os.path.join(tmp, "storage")
        os.mkdir(storage_dir)
        state.storage = FtpsServer(cfg.bind, cert, key, USER, cfg.code, storage_dir)
        state.storage.start()
        try:
            broker.start()
            if not cfg.no_printer:
                printer.start()
            emit(event="ready", port=cfg.port, serial=cfg.serial, ftps_port=state.storage.port)
            ANNOUNCED.set()
            serve_commands(NAME, Commands(cfg, state, printer, broker))
        except RuntimeError as error:
            log(NAME, str(error))
            return 1
        finally:
            printer.stop()
            broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
