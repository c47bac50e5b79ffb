#!/usr/bin/env python3
"""Loopback fake of an Elegoo Centauri Carbon: its SDCP V3 websocket and its MJPEG camera.

Why it exists: Layerwatch reads a Centauri Carbon's status and sends it pause/continue/stop and the
light over SDCP V3 (PROTOCOLS.md §11; the SDCP V3.0.0 specification, cbd-tech; the
WalkerFrederick/sdcp-centauri-carbon notes), and plays its camera once SDCP turned it on.  The
websocket side (RFC 6455 server, stdlib only) is creality_ws_server.py's, reused here; on top of it:
    ws://HOST:PORT/websocket (any path) — no login
    every --interval seconds, to every client: {"Status":{…},"MainboardID":…,"TimeStamp":…,
        "Topic":"sdcp/status/<MainboardID>"}; the text "ping" is answered "pong"
    requests {"Id":…,"Data":{"Cmd":N,"Data":{…},"RequestID":R,…},"Topic":"sdcp/request/…"} are
    answered {"Id":…,"Data":{"Cmd":N,"Data":{"Ack":A,…},"RequestID":R,"MainboardID":…},
        "Topic":"sdcp/response/<MainboardID>"}:
        0 status (pushed at once)   1 attributes   129 pause (13 → 5 pausing → 6 paused)
        131 continue (6 → 12 resuming → 13)   130 stop (13 or 6 → 7 stopping → 8 stopped, its
        Filename and TaskId blanked from stopping on, as the firmware does)   386 video {"Enable":1} (answers
        "VideoUrl":"HOST:CAMERA_PORT/video", without a scheme as the printer sends it)
        403 light {"LightStatus":{"SecondLight":B}}
        320 history: {"HistoryData":[task ids]}   321 {"Id":[task ids]}: {"HistoryDetailList":[the
        details of those ids it has]} (the SDCP V3.0.0 specification's "Retrieve Historical Tasks"
        and "Retrieve Task Details")
        128 start {"Filename":"/local/NAME",…}: a file the upload stored starts printing (Status 13,
        CurrentStatus [1], Filename as given); Ack 2 for a file it does not hold, Ack 1 for the
        part of one a transfer left
        255 Terminate File Transfer {"Uuid":U,"FileName":N}: the transfer U ends (later chunks of it
        are refused), what arrived of N stays; Ack 1 when no transfer U is under way
        259 Batch Delete Files {"FileList":["/local/NAME",…]}: those files deleted, a transfer's
        part too; the paths it does not hold are answered in "ErrData"
        A command the state does not allow is answered Ack 1.
    POST http://HOST:PORT/uploadFile/upload (the same port, as on the printer; the SDCP V3.0.0
        specification's file transfer): multipart S-File-MD5, Check, Offset, Uuid, TotalSize, File,
        at most 4 MiB a request; chunks of one Uuid must come in order (Offset -1 / -2 otherwise), and
        once TotalSize bytes are in, the MD5 is checked (Check 1) before the file is kept.  The
        printer writes a transfer's bytes into its storage as they come: its part is a file there
        (listed by "files") until the transfer ends whole, or is refused, or Cmd 259 deletes it.  Answered
        {"code":"000000",…,"success":true} or {"code":"111111","messages":[{"field":"common_field",
        "message":CODE},…],"success":false}
    a client that sends nothing for --idle seconds is closed (the printer waits about 60 s)
    http://HOST:CAMERA_PORT/video: 404 until Cmd 386 turned the video on, then MJPEG with the
        printer's malformed header `Content-Type: multipart/x-mixed-replace; boundary=--foo` and
        its unformatted Expires; the part lines are --body-boundary (default "--foo", as the
        header names it; "----foo" is what RFC 2046 would make of it); --no-length leaves the parts'
        Content-Length out; --video-on streams without Cmd 386

stdin:  {"cmd":"set","fields":{…}}           merged (deep) into Status and pushed at once
        {"cmd":"ack","command":N,"ack":A}    answer command N with Ack A from now on (0 to undo)
        {"cmd":"history","tasks":[…]}        the history's tasks (Cmd 321's details, each with its
                                             TaskId), listed by Cmd 320 in this order
        {"cmd":"raw","text":T}               T sent as one text message to every client
        {"cmd":"corrupt_uploads"}            flip the first byte of every chunk received from now on
        {"cmd":"break_upload","after":N}     the upload request after the next N is cut off: its
                                             connection closed unanswered (a network that broke)
        {"cmd":"files"}                      done lists the files kept, parts too: {name: bytes}
        {"cmd":"mode","mode":M}              creality_ws_server.py's modes: normal | silent | deaf |
                                             garbage | badframe | huge | deep | badutf8 | close
stdout: {"event":"ready","port":N,"camera_port":M}
        {"event":"connected","key_ok":B}   a handshake answered (creality_ws_server's)
        {"event":"opened","clients":K,"total":T,"connection":C}   a websocket opened (K open now,
                                             T ever; C its number, T then, named by its requests
                                             and its close)
        {"event":"request","cmd":N,"data":{…},"request_id":R,"topic":P,"connection":C}
        {"event":"ping"}  the text "ping"          {"event":"idle"} (dropped)
        {"event":"closed","connection":C}          a connection closed (C null for one that never
                                                   opened a websocket: an upload, a bad handshake)
        {"event":"video","clients":K,"total":T}    an MJPEG stream began (K streaming now)
        {"event":"video-refused"}                  /video before the video was turned on
        {"event":"upload-chunk","offset":O,"bytes":K,"total":T,"uuid":U}   a chunk taken
        {"event":"upload-stored","name":N,"bytes":K,"sha256":H}    a whole file kept
        {"event":"upload-refused","reason":"md5"|"offset"}   {"event":"upload-broken"} (break_upload)
        {"event":"done","cmd":C,…}   {"event":"error","cmd":C,"message":M}
"""
import argparse
import copy
import hashlib
import json
import os
import re
import socket
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from creality_ws_server import Client, Printer, frame  # noqa: E402
from servercommon import add_common_args, deep_merge, emit, listen, log, make_jpeg, serve_commands  # noqa: E402

NAME = "elegoo_sdcp_server"
MAINBOARD = "608715130105041800009c0000000000"

DEFAULT_STATUS = {
    "CurrentStatus": [0], "TimeLapseStatus": 0, "PlatFormType": 0,
    "TempOfHotbed": 24.1, "TempOfNozzle": 25.3, "TempOfBox": 26.4,
    "TempTargetHotbed": 0, "TempTargetNozzle": 0, "TempTargetBox": 0,
    "CurrenCoord": "0.00,0.00,0.00", "CurrentFanSpeed": {"ModelFan": 0, "AuxiliaryFan": 0, "BoxFan": 0},
    "ZOffset": 0.0, "LightStatus": {"SecondLight": 0, "RgbLight": [0, 0, 0]},
    "PrintInfo": {"Status": 0, "CurrentLayer": 0, "TotalLayer": 0, "CurrentTicks": 0, "TotalTicks": 0,
                  "Filename": "", "TaskId": "", "PrintSpeedPct": 100, "Progress": 0, "ErrorNumber": 0},
}
ATTRIBUTES = {"Name": "Centauri Carbon", "MachineName": "Centauri Carbon", "BrandName": "ELEGOO",
              "ProtocolVersion": "V3.0.0", "FirmwareVersion": "V1.1.29", "MainboardID": MAINBOARD}
STEP_SECONDS = 0.3  # how long pausing, resuming and stopping last
UPLOAD_LIMIT = 4 * 1024 * 1024  # the most one upload request may carry (the printer's chunks are 1 MiB)


def multipart_parts(body, boundary):
    """{name: (filename or None, bytes)} of a multipart/form-data body."""
    parts = {}
    for piece in body.split(b"--" + boundary.encode())[1:]:
        if piece.startswith(b"--"):
            break
        head, _, content = piece.partition(b"\r\n\r\n")
        disposition = head.decode("latin-1")
        name = re.search(r'name="([^"]*)"', disposition)
        filename = re.search(r'filename="([^"]*)"', disposition)
        if name:
            parts[name.group(1)] = (filename.group(1) if filename else None, content[:-2] if content.endswith(b"\r\n") else content)
    return parts


class Centauri(Printer):
    """creality_ws_server's websocket printer with SDCP's messages and states."""

    def __init__(self, cfg):
        super().__init__(heartbeat=cfg.interval, refuse=cfg.refuse)
        self.status = copy.deepcopy(DEFAULT_STATUS)
        self.video_on = False
        self.acks = {}
        self.history = []
        self.idle = cfg.idle
        self.total = 0
        self.video_url = f"{cfg.bind}:{{port}}/video"
        self.uploads = {}  # Uuid → the bytes received so far (also its file's bytes in `files`)
        self.files = {}  # name → bytes kept, a transfer's part too
        self.corrupt = False
        self.break_after = None  # upload requests still answered before one is cut off

    # ---- the upload (the same port's HTTP) ----
    def handshake(self, client, head=None):
        head = self.read_head(client)
        if head is None:
            return False
        if head.startswith(b"POST /uploadFile/upload"):
            with self.lock:
                broken = self.break_after == 0
                if self.break_after:
                    self.break_after -= 1
            if broken:
                self.break_after = None
                emit(event="upload-broken")
            else:
                self.upload(client.sock, head)
            return False
        return super().handshake(client, head)

    def upload(self, sock, head):
        blob, _, body = head.partition(b"\r\n\r\n")
        fields = {}
        for line in blob.decode("latin-1").split("\r\n")[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        length = int(fields.get("content-length", "0") or 0)
        boundary = re.search(r"boundary=([^;]+)", fields.get("content-type", ""))
        if length > UPLOAD_LIMIT or not boundary:
            sock.sendall(b"HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                return
            body += chunk
        answer = self.take_chunk(multipart_parts(body[:length], boundary.group(1).strip('"')))
        payload = json.dumps(answer).encode()
        sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                     b"Connection: close\r\n\r\n" % len(payload) + payload)

    @staticmethod
    def refusal(*messages):
        return {"code": "111111", "messages": list(messages), "data": None, "success": False}

    def take_chunk(self, parts):
        """One chunk as the printer takes it: its answer."""
        try:
            offset, total = int(parts["Offset"][1]), int(parts["TotalSize"][1])
            uuid, md5 = parts["Uuid"][1].decode(), parts["S-File-MD5"][1].decode().lower()
            check = parts["Check"][1].decode()
            name, data = parts["File"]
        except (KeyError, ValueError):
            return self.refusal({"field": "common_field", "message": -4})
        name = os.path.basename(name)
        with self.lock:
            received = self.uploads.get(uuid, bytearray())
            if offset < 0 or offset != len(received):
                emit(event="upload-refused", reason="offset")
                return self.refusal({"field": "common_field", "message": -1 if offset < 0 else -2})
            if self.corrupt and data:
                data = bytes([data[0] ^ 0xFF]) + data[1:]
            received += data
            self.uploads[uuid] = self.files[name] = received
            emit(event="upload-chunk", offset=offset, bytes=len(data), total=total, uuid=uuid)
            if len(received) < total:
                return {"code": "000000", "messages": None, "data": {}, "success": True}
            del self.uploads[uuid]
            if len(received) > total or (check == "1" and hashlib.md5(received).hexdigest() != md5):
                del self.files[name]
                emit(event="upload-refused", reason="md5")
                return self.refusal({"field": "common_field", "message": -4},
                                    {"field": "S-File-MD5", "message": "the file's MD5 does not match"})
            self.files[name] = bytes(received)
        emit(event="upload-stored", name=os.path.basename(name), bytes=len(received),
             sha256=hashlib.sha256(received).hexdigest())
        return {"code": "000000", "messages": None, "data": {}, "success": True}

    # ---- connections ----
    def serve(self, sock):
        sock.settimeout(self.idle)  # a silent client is dropped, as the printer drops it
        client = Client(sock)
        client.number = None
        try:
            if not self.handshake(client):
                return
            with self.lock:
                self.clients.append(client)
                self.total += 1
                open_now, total = len(self.clients), self.total
                client.number = total
            emit(event="opened", clients=open_now, total=total, connection=total)
            self.read_frames(client)
        except socket.timeout:
            emit(event="idle")
        except (ConnectionError, OSError):
            pass
        finally:
            with self.lock:
                if client in self.clients:
                    self.clients.remove(client)
            try:
                sock.close()
            except OSError:
                pass
            emit(event="closed", connection=client.number)

    def status_message(self):
        with self.lock:
            status = copy.deepcopy(self.status)
        return {"Status": status, "MainboardID": MAINBOARD, "TimeStamp": int(time.time()),
                "Topic": f"sdcp/status/{MAINBOARD}"}

    def heartbeats(self):
        """The status pushed to every client every --interval seconds."""
        while True:
            time.sleep(self.heartbeat)
            with self.lock:
                clients = [] if self.mode == "silent" else list(self.clients)
            message = self.status_message()
            for client in clients:
                client.text(message)

    def push(self, changes):
        with self.lock:
            deep_merge(self.status, changes)
            clients = [] if self.mode == "silent" else list(self.clients)
        message = self.status_message()
        for client in clients:
            client.text(message)

    # ---- requests ----
    def on_message(self, client, data):
        text = data.decode("utf-8", "replace")
        if text == "ping":
            emit(event="ping")
            if self.mode != "silent":
                client.send(frame(0x1, b"pong"))
            return
        try:
            request = json.loads(text)
        except ValueError:
            log(NAME, f"ignoring a message that is not JSON: {text[:100]!r}")
            return
        body = request.get("Data") if isinstance(request, dict) else None
        if not isinstance(body, dict):
            return
        cmd, params = body.get("Cmd"), body.get("Data") or {}
        emit(event="request", cmd=cmd, data=params, request_id=body.get("RequestID"), topic=request.get("Topic"),
             connection=client.number)
        if self.mode in ("silent", "deaf"):
            return
        ack, extra = self.apply(cmd, params)
        if cmd == 0:
            client.text(self.status_message())
        forced = self.acks.get(cmd)
        answer = {"Ack": forced if forced else ack, **extra}
        client.text({"Id": request.get("Id", ""), "Topic": f"sdcp/response/{MAINBOARD}",
                     "Data": {"Cmd": cmd, "Data": answer, "RequestID": body.get("RequestID"),
                              "MainboardID": MAINBOARD, "TimeStamp": int(time.time())}})

    def apply(self, cmd, params):
        """A request as the printer takes it: (Ack, the answer's other fields)."""
        if self.acks.get(cmd):
            return self.acks[cmd], {}
        with self.lock:
            state = self.status["PrintInfo"]["Status"]
        if cmd in (0, 1):
            return 0, ({"Attributes": ATTRIBUTES} if cmd == 1 else {})
        if cmd == 129:
            return self.step(state in (13,), 5, 6)
        if cmd == 131:
            return self.step(state in (6,), 12, 13)
        if cmd == 130:
            return self.step(state in (13, 6), 7, 8, blank=True)
        if cmd == 386:
            self.video_on = bool(params.get("Enable"))
            return 0, {"VideoUrl": self.video_url}
        if cmd == 320:
            return 0, {"HistoryData": [task.get("TaskId") for task in self.history]}
        if cmd == 321:
            wanted = params.get("Id") or []
            return 0, {"HistoryDetailList": [task for task in self.history if task.get("TaskId") in wanted]}
        if cmd == 128:
            path = str(params.get("Filename", ""))
            name = path[len("/local/"):] if path.startswith("/local/") else path
            if state in (5, 6, 12, 13):
                return 1, {}
            if name not in self.files:
                return 2, {}
            if isinstance(self.files[name], bytearray):  # a transfer's part
                return 1, {}
            self.push({"CurrentStatus": [1], "PrintInfo": {"Status": 13, "Filename": path, "TaskId": os.urandom(8).hex(),
                                                           "CurrentLayer": 0, "TotalLayer": 100, "Progress": 0}})
            return 0, {}
        if cmd == 255:
            with self.lock:
                return (0, {}) if self.uploads.pop(str(params.get("Uuid")), None) is not None else (1, {})
        if cmd == 259:
            failed = []
            with self.lock:
                for path in params.get("FileList") or []:
                    name = str(path)[len("/local/"):] if str(path).startswith("/local/") else str(path)
                    part = self.files.pop(name, None)
                    if part is None:
                        failed.append(path)
                    for uuid in [uuid for uuid, received in self.uploads.items() if received is part]:
                        del self.uploads[uuid]
            return 0, ({"ErrData": failed} if failed else {})
        if cmd == 403:
            light = (params.get("LightStatus") or {}).get("SecondLight")
            self.push({"LightStatus": {"SecondLight": 1 if light else 0}})
            return 0, {}
        return 1, {}

    def step(self, allowed, passing, final, blank=False):
        """A command the state allows: its transition state now, its final one a moment later."""
        if not allowed:
            return 1, {}
        changes = {"PrintInfo": {"Status": passing}}
        if blank:
            changes["PrintInfo"].update(Filename="", TaskId="")
        self.push(changes)

        def later():
            time.sleep(STEP_SECONDS)
            self.push({"PrintInfo": {"Status": final}})
        threading.Thread(target=later, daemon=True).start()
        return 0, {}

    def raw(self, text):
        with self.lock:
            clients = list(self.clients)
        for client in clients:
            client.send(frame(0x1, text.encode()))
        return {"clients": len(clients)}


class Camera(BaseHTTPRequestHandler):
    """The printer's MJPEG camera on its own port."""
    protocol_version = "HTTP/1.0"

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        server = self.server
        if self.path.split("?")[0] != "/video" or not server.printer.video_on:
            emit(event="video-refused")
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        with server.lock:
            server.streaming += 1
            server.total += 1
            emit(event="video", clients=server.streaming, total=server.total)
        try:
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=--foo")
            self.send_header("Expires", "Thu, %d %d %d %d:%d:%d GMT")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            line = server.cfg.body_boundary.encode()
            while not server.stopping:
                jpeg = server.jpeg
                length = b"" if server.cfg.no_length else b"Content-Length: %d\r\n" % len(jpeg)
                self.wfile.write(line + b"\r\nContent-Type: image/jpeg\r\n" + length + b"\r\n" + jpeg + b"\r\n")
                self.wfile.flush()
                time.sleep(1.0 / server.cfg.fps)
        except OSError:
            pass
        finally:
            with server.lock:
                server.streaming -= 1


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--camera-port", type=int, default=0, help="the MJPEG camera's port (0 = pick a free one)")
    p.add_argument("--interval", type=float, default=1.0, help="seconds between status pushes")
    p.add_argument("--idle", type=float, default=60.0, help="seconds a silent client is kept")
    p.add_argument("--refuse", type=int, default=0, help="answer every handshake with this HTTP status")
    p.add_argument("--body-boundary", default="--foo", help="the MJPEG part lines")
    p.add_argument("--fps", type=float, default=5)
    p.add_argument("--no-length", action="store_true", help="parts without a Content-Length (read up to the next boundary)")
    p.add_argument("--video-on", action="store_true", help="the camera streams from the start (no Cmd 386 needed)")
    cfg = p.parse_args()
    printer = Centauri(cfg)
    printer.video_on = cfg.video_on
    server = listen(cfg.bind, cfg.port)

    class CameraServer(ThreadingHTTPServer):
        address_family = socket.AF_INET6 if ":" in cfg.bind else socket.AF_INET
        daemon_threads = True

    camera = CameraServer((cfg.bind, cfg.camera_port), Camera)
    with tempfile.TemporaryDirectory(prefix="layerwatch-elegoo-") as tmp:
        camera.jpeg = make_jpeg(os.path.join(tmp, "bars.jpg"), 640, 360)
    camera.cfg, camera.printer, camera.stopping = cfg, printer, False
    camera.lock, camera.streaming, camera.total = threading.Lock(), 0, 0
    printer.video_url = printer.video_url.format(port=camera.server_address[1])
    threading.Thread(target=camera.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()

    def accept():
        while True:
            sock, _ = server.accept()
            threading.Thread(target=printer.serve, args=(sock,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    threading.Thread(target=printer.heartbeats, daemon=True).start()

    def handle(command):
        name = command.get("cmd")
        if name == "set":
            printer.push(command.get("fields") or {})
            emit(event="done", cmd=name)
        elif name == "ack":
            printer.acks[int(command["command"])] = int(command.get("ack", 0))
            emit(event="done", cmd=name)
        elif name == "history":
            printer.history = list(command.get("tasks") or [])
            emit(event="done", cmd=name)
        elif name == "raw":
            emit(event="done", cmd=name, **printer.raw(str(command.get("text", ""))))
        elif name == "corrupt_uploads":
            printer.corrupt = True
            emit(event="done", cmd=name)
        elif name == "break_upload":
            printer.break_after = int(command.get("after", 0))
            emit(event="done", cmd=name)
        elif name == "files":
            with printer.lock:
                files = {n: len(b) for n, b in printer.files.items()}
            emit(event="done", cmd=name, files=files)
        elif name == "mode":
            emit(event="done", cmd=name, **printer.set_mode(command))
        else:
            raise ValueError(f"unknown command {name!r}")

    emit(event="ready", port=server.getsockname()[1], camera_port=camera.server_address[1])
    serve_commands(NAME, handle)
    camera.stopping = True
    return 0


if __name__ == "__main__":
    sys.exit(main())
