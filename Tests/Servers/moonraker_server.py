#!/usr/bin/env python3
"""Loopback fake of Moonraker (Klipper's API server) for printer status and camera discovery.

Why it exists: Layerwatch reads a Klipper printer's job, progress and temperatures from
`/printer/objects/query` and finds its cameras with `/server/webcams/list` (PROTOCOLS.md §5).
This server answers those with Moonraker's documented JSON, `{"result": …}`, over HTTP/1.1 with
keep-alive and Content-Length, optionally behind an API key, and misbehaves on request (garbage,
huge bodies, stalls, closed connections, 500s).  The test changes the printer's state through
JSON commands on stdin.  Stdlib only; any python3 works.

Endpoints: GET /printer/objects/query?OBJ[=attr,attr]&…   result.status of the asked objects
           GET /server/webcams/list                        result.webcams
           GET /server/info, GET /printer/info
           GET /server/files/metadata?filename=F         result: the file's metadata (Moonraker's
                                                   docs' example), its `thumbnails` list (width,
                                                   height, size, relative_path beside the file) for
                                                   a file given one; 404 for another file
           GET /server/files/gcodes/PATH                   a thumbnail's bytes (image/png)
           POST /printer/print/pause|resume|cancel   change print_stats.state as Klipper would
                                                   (printing→paused, paused→printing, either→
                                                   cancelled), else 400 with Klipper's words
           with --spoolman (Moonraker's [spoolman] component, PROTOCOLS.md and Moonraker's
           integrations docs): GET /server/spoolman/spool_id   result.spool_id (the active spool)
           POST /server/spoolman/proxy {"request_method":"GET","path":"/v1/spool/ID"[,"use_v2_response":true]}
                                                           the spool as Spoolman answers (v2: result.response /
                                                           result.error; v1: result is Spoolman's answer)
           GET /server/history/list[?limit=N&order=desc]  result.count, result.jobs (the stdin "history" jobs)
           POST /server/files/upload (multipart: root, print, then file)  the file received and
                                                   stored (its hash, servercommon.Uploads); print=true
                                                   starts it when the printer is free
           DELETE /server/files/gcodes/NAME                deletes a stored (or partial) upload
           anything else                                   404 (Moonraker's error JSON)
stdin:  {"cmd":"set","status":{OBJ:{…},…}}   deep-merged into the printer objects
        {"cmd":"webcams","list":[…]}          replaces the webcam list
        {"cmd":"spoolman","spool_id":N|null[,"spools":{"ID":{…spool…},…}]}   the active spool and
                                              spools added to (or replacing) Spoolman's
        {"cmd":"thumbnail","filename":F,"width":W,"height":H[,"garbage":true]}   file F (a job) gets a
                                              W x H PNG thumbnail and a 32 x 32 one beside it, in
                                              .thumbs/ (garbage: the large one's bytes are no picture)
        {"cmd":"history","jobs":[…]}          replaces the job history (GET /server/history/list?limit=N:
                                              result.count and the first N jobs, newest first as given)
        {"cmd":"mode","mode":M[,"path":P][,"bytes":N]}   see servercommon.FaultModes
        {"cmd":"upload_rate","bytes_per_second":N|null}   uploads read that slowly (servercommon.Uploads)
        {"cmd":"print_start","starts":B}      false: an upload with print=true is answered
                                              print_started but the printer stays as it is (a
                                              Klipper refusing to start the file); true again by default
stdout: {"event":"ready","port":N}
        {"event":"request","method":"GET"|"POST","path":P,"authorized":B[,"body":…]}   every request,
                                              before answering
        {"event":"upload","name":N,"fields":{…},"size":S,"sha256":H,"complete":B}   an upload received
        {"event":"deleted","name":N}          a stored file deleted
        {"event":"done","cmd":C,…}   {"event":"error","cmd":C,"message":M}
"""
import argparse
import copy
import json
import os
import sys
import threading
import time
from urllib.parse import parse_qs, parse_qsl, unquote, urlsplit

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import (GARBAGE_PICTURE, JsonApiHandler, add_common_args, deep_merge, emit,  # noqa: E402
                          serve_http_commands, start_http_server, thumbnail_png)

NAME = "moonraker_server"
REASONS = {401: "Unauthorized", 404: "Not Found", 405: "Method Not Allowed", 500: "Internal Server Error"}
# POST path → (states it applies in, the state it leads to, Klipper's words when it does not apply).
PRINT_COMMANDS = {
    "/printer/print/pause": (("printing",), "paused", "Print not in progress"),
    "/printer/print/resume": (("paused",), "printing", "Print is not paused, resume aborted"),
    "/printer/print/cancel": (("printing", "paused"), "cancelled", "Print not in progress"),
}

DEFAULT_STATUS = {
    "print_stats": {
        "filename": "",
        "total_duration": 0.0,
        "print_duration": 0.0,
        "filament_used": 0.0,
        "state": "standby",
        "message": "",
        "info": {"total_layer": None, "current_layer": None},
    },
    "display_status": {"progress": 0.0, "message": None},
    "virtual_sdcard": {"file_path": None, "progress": 0.0, "is_active": False, "file_position": 0, "file_size": 0},
    "heater_bed": {"temperature": 21.5, "target": 0.0, "power": 0.0},
    "extruder": {"temperature": 22.1, "target": 0.0, "power": 0.0, "can_extrude": False,
                 "pressure_advance": 0.04, "smooth_time": 0.04},
    "webhooks": {"state": "ready", "state_message": "Printer is ready"},
}

DEFAULT_WEBCAM = {
    "name": "Camera",
    "location": "printer",
    "service": "mjpegstreamer-adaptive",
    "enabled": True,
    "icon": "mdiWebcam",
    "target_fps": 15,
    "target_fps_idle": 5,
    "stream_url": "/webcam/?action=stream",
    "snapshot_url": "/webcam/?action=snapshot",
    "flip_horizontal": False,
    "flip_vertical": False,
    "rotation": 0,
    "aspect_ratio": "4:3",
    "extra_data": {},
    "source": "database",
    "uid": "8d4e2b6c-1f3a-4c5e-9b7d-2a6f0e1c3b5d",
}

SERVER_INFO = {
    "klippy_connected": True,
    "klippy_state": "ready",
    "components": ["secrets", "template", "klippy_connection", "jsonrpc", "internal_transport",
                   "application", "websockets", "database", "dbus_manager", "file_manager",
                   "authorization", "klippy_apis", "shell_command", "machine", "data_store",
                   "proc_stats", "job_state", "job_queue", "history", "octoprint_compat",
                   "update_manager", "webcam", "extensions"],
    "failed_components": [],
    "registered_directories": ["config", "logs", "gcodes", "config_examples", "docs"],
    "warnings": [],
    "websocket_count": 0,
    "moonraker_version": "v0.9.3-0-gfe4bd5a",
    "missing_klippy_requirements": [],
    "api_version": [1, 5, 0],
    "api_version_string": "1.5.0",
}

# Spoolman's spool as its API (and Moonraker's proxy) returns it: the example of Moonraker's docs.
DEFAULT_SPOOL = {
    "id": 2,
    "registered": "2023-11-23T12:18:31Z",
    "first_used": "2023-11-22T12:17:56.123000Z",
    "last_used": "2023-11-23T10:17:59.900000Z",
    "filament": {
        "id": 2, "registered": "2023-11-23T12:17:44Z", "name": "Reactor Red",
        "vendor": {"id": 2, "registered": "2023-06-26T21:00:42Z", "name": "Fusion"},
        "material": "PLA", "price": 25, "density": 1.24, "diameter": 1.75, "weight": 1000, "color_hex": "BD0B0B",
    },
    "remaining_weight": 950,
    "used_weight": 50,
    "remaining_length": 318519.4384459262,
    "used_length": 16764.18097083822,
    "archived": False,
}

PRINTER_INFO = {
    "state": "ready",
    "state_message": "Printer is ready",
    "hostname": "voron",
    "klipper_path": "/home/pi/klipper",
    "python_path": "/home/pi/klippy-env/bin/python",
    "process_id": 1234,
    "user_id": 1000,
    "group_id": 1000,
    "log_file": "/home/pi/printer_data/logs/klippy.log",
    "config_file": "/home/pi/printer_data/config/printer.cfg",
    "software_version": "v0.12.0-302-g87ac69363",
    "cpu_info": "4 core ARMv7 Processor rev 4 (v7l)",
}


class Printer:
    """The printer objects, the webcam list and Spoolman's spools (None: no Spoolman), shared by
    the request threads and stdin."""

    def __init__(self, webcams, spoolman):
        self.lock = threading.Lock()
        self.status = copy.deepcopy(DEFAULT_STATUS)
        self.webcams = webcams
        self.spools = {"2": copy.deepcopy(DEFAULT_SPOOL)} if spoolman else None
        self.spool_id = 2 if spoolman else None
        self.metadata = {}  # file name → its metadata
        self.files = {}  # path under gcodes/ → bytes
        self.history = []  # Moonraker's job history, newest first
        self.starts_prints = True  # False: print=true is answered print_started, and nothing starts

    def add_thumbnail(self, command):
        """Gives file `filename` a W x H thumbnail and a 32 x 32 one, as a slicer embeds them and
        Moonraker extracts them to .thumbs/ beside the file."""
        filename = str(command["filename"])
        width, height = int(command["width"]), int(command["height"])
        folder, _, name = filename.rpartition("/")
        stem = name.rsplit(".", 1)[0]
        thumbnails = []
        for w, h, garbage in ((32, 32, False), (width, height, bool(command.get("garbage")))):
            relative = f".thumbs/{stem}-{w}x{h}.png"
            data = GARBAGE_PICTURE if garbage else thumbnail_png(w, h)
            thumbnails.append({"width": w, "height": h, "size": len(data), "relative_path": relative})
            with self.lock:
                self.files[f"{folder}/{relative}" if folder else relative] = data
        with self.lock:
            self.metadata[filename] = {
                "print_start_time": None, "job_id": None, "size": 4926481, "modified": 1615077020.2025201,
                "slicer": "PrusaSlicer", "slicer_version": "2.7.1", "layer_height": 0.15, "first_layer_height": 0.2,
                "object_height": 48.05, "filament_total": 4056.4, "estimated_time": 7569, "thumbnails": thumbnails,
                "first_layer_bed_temp": 60, "first_layer_extr_temp": 215, "gcode_start_byte": 79451,
                "gcode_end_byte": 4915668, "filename": filename}

    def file_metadata(self, query):
        filename = (parse_qs(query).get("filename") or [""])[0]
        with self.lock:
            metadata = copy.deepcopy(self.metadata.get(filename))
        return (200, {"result": metadata}) if metadata else (404, moonraker_error(404))

    def file(self, path):
        with self.lock:
            return self.files.get(path)

    def query(self, query):
        """Klipper's objects/query: each asked object (all its attributes, or only those listed);
        an unknown object is {} and an unknown attribute null, as Klipper answers."""
        result = {}
        with self.lock:
            for name, attributes in parse_qsl(query, keep_blank_values=True):
                values = self.status.get(name, {})
                if attributes:
                    values = {a: values.get(a) for a in attributes.split(",") if a}
                result[name] = copy.deepcopy(values)
        return {"eventtime": round(time.monotonic(), 6), "status": result}

    def set(self, status):
        with self.lock:
            deep_merge(self.status, status)

    def command(self, path):
        """A print command: (status, body) as Moonraker answers it."""
        applies, leads_to, refusal = PRINT_COMMANDS[path]
        with self.lock:
            stats = self.status["print_stats"]
            if stats["state"] not in applies:
                return 400, {"error": {"code": 400, "message": refusal, "traceback": ""}}
            stats["state"] = leads_to
        return 200, {"result": "ok"}

    def start(self, name):
        """Starts printing file `name` when the printer is free; False when it is not.  A printer
        that does not start prints (the stdin "print_start" command) says True and stays as it is."""
        with self.lock:
            stats = self.status["print_stats"]
            if stats["state"] in ("printing", "paused"):
                return False
            if not self.starts_prints:
                return True
            stats.update(state="printing", filename=name, print_duration=0.0, total_duration=0.0)
            self.status["virtual_sdcard"].update(file_path=name, is_active=True, progress=0.0)
            return True

    def history_list(self, query):
        limit = int((parse_qs(query).get("limit") or ["50"])[0])
        with self.lock:
            return {"count": len(self.history), "jobs": copy.deepcopy(self.history[:limit])}

    def replace_history(self, jobs):
        with self.lock:
            self.history = copy.deepcopy(jobs)

    def webcam_list(self):
        with self.lock:
            return copy.deepcopy(self.webcams)

    def replace_webcams(self, webcams):
        with self.lock:
            self.webcams = copy.deepcopy(webcams)

    def set_spoolman(self, command):
        with self.lock:
            if self.spools is None:
                raise ValueError("start with --spoolman for a host with Spoolman")
            self.spools.update(copy.deepcopy(command.get("spools") or {}))
            if "spool_id" in command:
                self.spool_id = command["spool_id"]

    def spoolman(self, path, body):
        """Moonraker's Spoolman endpoints: (status, body), or None without Spoolman."""
        with self.lock:
            if self.spools is None:
                return None
            if path == "/server/spoolman/spool_id":
                return 200, {"result": {"spool_id": self.spool_id}}
            request = body if isinstance(body, dict) else {}
            target = str(request.get("path", ""))
            spool = self.spools.get(target.removeprefix("/v1/spool/")) if target.startswith("/v1/spool/") else None
            if request.get("request_method") != "GET" or spool is None:
                error = {"status_code": 404, "message": f"No spool found at {target}."}
                if request.get("use_v2_response"):
                    return 200, {"result": {"response": None, "error": error}}
                return 404, {"message": error["message"]}
            if request.get("use_v2_response"):
                return 200, {"result": {"response": copy.deepcopy(spool), "error": None}}
            return 200, {"result": copy.deepcopy(spool)}


def moonraker_error(status):
    return {"error": {"code": status, "message": REASONS.get(status, "Error"), "traceback": ""}}


class Handler(JsonApiHandler):
    name = NAME
    garbage = b'{"result": {nonsense'

    def authorized(self):
        key = self.server.cfg.api_key
        return key is None or self.header_matches("X-Api-Key", key)

    def unauthorized(self):
        return 401, moonraker_error(401)

    def error_body(self, status):
        return moonraker_error(status)

    def answer(self, path, query):
        printer = self.server.printer
        if path == "/server/spoolman/spool_id":
            return printer.spoolman(path, None) or (404, moonraker_error(404))
        if path == "/printer/objects/query":
            return 200, {"result": printer.query(query)}
        if path == "/server/history/list":
            return 200, {"result": printer.history_list(query)}
        if path == "/server/webcams/list":
            return 200, {"result": {"webcams": printer.webcam_list()}}
        if path == "/server/info":
            return 200, {"result": SERVER_INFO}
        if path == "/printer/info":
            return 200, {"result": PRINTER_INFO}
        if path == "/server/files/metadata":
            return printer.file_metadata(query)
        return 404, moonraker_error(404)

    def respond(self, mode, size, authorized, url):
        prefix = "/server/files/gcodes/"
        data = self.server.printer.file(unquote(url.path[len(prefix):])) if url.path.startswith(prefix) else None
        if mode == "normal" and authorized and self.command == "GET" and data is not None:
            self.send_picture(data)
        else:
            super().respond(mode, size, authorized, url)

    def upload_field(self, path):
        return "file" if path == "/server/files/upload" else None

    def uploaded(self, _path, fields, name, record):
        """Moonraker's answer to an upload: the file stored under gcodes/, and printed at once
        with print=true when the printer is free (as its file manager does)."""
        started = fields.get("print") == "true" and self.server.printer.start(name)
        return 201, {"result": {"item": {"path": name, "root": fields.get("root", "gcodes"), "size": record["size"]},
                                "print_started": started, "print_queued": False, "action": "create_file"}}

    def do_DELETE(self):
        authorized = self.authorized()
        emit(event="request", method="DELETE", path=self.path, authorized=authorized)
        prefix = "/server/files/gcodes/"
        url = urlsplit(self.path)
        if not authorized:
            self.send_json(*self.unauthorized())
        elif url.path.startswith(prefix) and self.server.uploads.delete(unquote(url.path[len(prefix):])):
            emit(event="deleted", name=unquote(url.path[len(prefix):]))
            self.send_json(200, {"result": {"item": {"path": unquote(url.path[len(prefix):]), "root": "gcodes"},
                                            "action": "delete_file"}})
        else:
            self.send_json(404, moonraker_error(404))

    def answer_post(self, path, body):
        if path in PRINT_COMMANDS:
            return self.server.printer.command(path)
        if path == "/server/spoolman/proxy":
            return self.server.printer.spoolman(path, body) or (404, moonraker_error(404))
        return 404, moonraker_error(404)


def handle_command(server, command):
    name = command.get("cmd")
    if name == "set":
        server.printer.set(command.get("status") or {})
        emit(event="done", cmd=name)
    elif name == "spoolman":
        server.printer.set_spoolman(command)
        emit(event="done", cmd=name)
    elif name == "webcams":
        server.printer.replace_webcams(command.get("list") or [])
        emit(event="done", cmd=name)
    elif name == "history":
        server.printer.replace_history(command.get("jobs") or [])
        emit(event="done", cmd=name)
    elif name == "thumbnail":
        server.printer.add_thumbnail(command)
        emit(event="done", cmd=name)
    elif name == "print_start":
        with server.printer.lock:
            server.printer.starts_prints = bool(command.get("starts"))
        emit(event="done", cmd=name)
    elif name == "mode":
        emit(event="done", cmd=name, **server.faults.apply(command))
    else:
        raise ValueError(f"unknown command {name!r}")


def load_webcams(path):
    if path is None:
        return [copy.deepcopy(DEFAULT_WEBCAM)]
    with open(path) as f:
        webcams = json.load(f)
    if not isinstance(webcams, list):
        raise SystemExit(f"{NAME}: {path} must hold a JSON list of webcam entries")
    return webcams


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--api-key", help="require X-Api-Key: KEY on every request (else 401)")
    p.add_argument("--webcams", metavar="FILE.json", help="the webcam list (default: one mjpegstreamer-adaptive camera)")
    p.add_argument("--spoolman", action="store_true",
                   help="a host with Spoolman: its endpoints answer, spool 2 (Moonraker's docs' example) active")
    cfg = p.parse_args()

    printer = Printer(load_webcams(cfg.webcams), cfg.spoolman)
    server = start_http_server(NAME, cfg, Handler)
    server.printer = printer
    serve_http_commands(NAME, server, handle_command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
