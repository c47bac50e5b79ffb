#!/usr/bin/env python3
"""Loopback fake of a Flashforge Adventurer 5M / 5M Pro / AD5X's HTTP API (port 8898 on a printer).

Why it exists: Layerwatch reads a Flashforge printer's status from `POST /detail` and sends
pause / continue / cancel and the light through `POST /control` (PROTOCOLS.md §13;
Parallel-7/flashforge-api-docs endpoints_5m_3.2.7.yaml; GhostTypes/ff-5mp-api).  Every request is
a POST of JSON {"serialNumber","checkCode"[,"payload"]}; every answer is HTTP 200 with
{"code":N,"message":M[,…]}: 0 success, 1001 a wrong serial number or check code, 2 busy.  The
camera is wherever `cameraStreamUrl` points (empty: no camera, an AD5X without one); a test sets
it to an mjpeg_server.py of its own.  Stdlib only; any python3 works.

Endpoints: POST /detail     {"code":0,"message":"Success","detail":{…}}
           POST /product    {"code":0,"message":"Success","product":{…}}
           POST /checkCode  {"code":0,"message":"Success"}
           POST /control    payload {"cmd":"jobCtl_cmd","args":{"jobID":"","action":"pause"|"continue"|"cancel"}}
                            (pause while printing: `pausing` for a moment, then `paused`; continue
                            while paused; cancel while printing or paused: `cancel`; else code 1),
                            {"cmd":"lightControl_cmd","args":{"status":"open"|"close"}}
                            code 2 for every command while busy (stdin "busy")
           POST /uploadGcode  multipart part gcodeFile, headers serialNumber, checkCode, fileSize,
                            printNow, levelingBeforePrint: the file stored (its hash,
                            servercommon.Uploads); printNow: true starts it when ready (else code 2)
           GET anything     404
stdin:  {"cmd":"set","detail":{…}}     deep-merged into /detail's `detail`
        {"cmd":"busy","on":B}          /control answers code 2 while on
        {"cmd":"mode","mode":M[,"path":P][,"bytes":N]}   see servercommon.FaultModes
        {"cmd":"upload_rate","bytes_per_second":N|null}   uploads read that slowly
stdout: {"event":"ready","port":N}
        {"event":"upload","name":N,"fields":{},"size":S,"sha256":H,"complete":B}   an upload received
        {"event":"request","method":"POST","path":P,"authorized":B,"serial":S,"payload":…}   every
            request before it is answered; the check code never, only whether it matched
        {"event":"done","cmd":C,…}   {"event":"error","cmd":C,"message":M}
"""
import argparse
import copy
import hmac
import json
import os
import sys
import threading
from urllib.parse import urlsplit

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import JsonApiHandler, add_common_args, deep_merge, emit, serve_http_commands, start_http_server  # noqa: E402

NAME = "flashforge_server"
PAUSING_SECONDS = 0.5


def initial_detail():
    """An idle Adventurer 5M Pro as firmware 3.2.7 reports it (the fields Layerwatch reads and a few more)."""
    return {
        "status": "ready", "printFileName": "", "printProgress": 0.0, "printLayer": 0, "targetPrintLayer": 0,
        "estimatedTime": 0, "printDuration": 0, "rightTemp": 24.5, "rightTargetTemp": 0.0, "platTemp": 23.9,
        "platTargetTemp": 0.0, "chamberTemp": 25.0, "chamberTargetTemp": 0.0, "lightStatus": "close",
        "cameraStreamUrl": "", "errorCode": "", "name": "Adventurer 5M Pro", "pid": "0024",
        "firmwareVersion": "3.2.7", "ipAddr": "127.0.0.1", "macAddr": "88:A9:A7:00:00:01", "doorStatus": "close",
        "nozzleModel": "0.4mm", "printFileThumbUrl": "", "tvoc": 0, "measure": "220X220X220",
    }


class Printer:
    """The printer's detail and busy flag, shared by requests and stdin."""

    def __init__(self):
        self.lock = threading.Lock()
        self.detail = initial_detail()
        self.busy = False

    def snapshot(self):
        with self.lock:
            return copy.deepcopy(self.detail)

    def set(self, changes):
        with self.lock:
            deep_merge(self.detail, changes)

    def start(self, name):
        """Prints the uploaded file `name` when the printer is ready; False when it is not."""
        with self.lock:
            if self.busy or self.detail["status"] not in ("ready", "completed", "cancel"):
                return False
            self.detail.update(status="printing", printFileName=name, printProgress=0.0)
            return True

    def control(self, payload):
        cmd = payload.get("cmd") if isinstance(payload, dict) else None
        args = payload.get("args") if isinstance(payload, dict) and isinstance(payload.get("args"), dict) else {}
        with self.lock:
            if self.busy:
                return {"code": 2, "message": "Printer busy"}
            if cmd == "lightControl_cmd" and args.get("status") in ("open", "close"):
                self.detail["lightStatus"] = args["status"]
                return {"code": 0, "message": "Success"}
            if cmd != "jobCtl_cmd":
                return {"code": 1, "message": "Unknown command"}
            action, state = args.get("action"), self.detail["status"]
            if action == "pause" and state == "printing":
                self.detail["status"] = "pausing"
                threading.Timer(PAUSING_SECONDS, self.set, args=({"status": "paused"},)).start()
            elif action == "continue" and state == "paused":
                self.detail["status"] = "printing"
            elif action == "cancel" and state in ("printing", "paused", "pausing"):
                self.detail["status"] = "cancel"
            else:
                return {"code": 1, "message": f"Cannot {action} while {state}"}
            return {"code": 0, "message": "Success"}


class Handler(JsonApiHandler):
    name = NAME
    server_version = "Flashforge"
    garbage = b'{"code":0,"detail": {nonsense'

    def do_POST(self):
        if urlsplit(self.path).path == "/uploadGcode":
            # The upload's serial number and check code come as headers (ff-5mp-api's UploadFile).
            self.body = {"serialNumber": self.headers.get("serialNumber", ""), "checkCode": self.headers.get("checkCode", "")}
            self.receive_upload("/uploadGcode", "gcodeFile")
            return
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(min(length, self.MAX_POST)) if length > 0 else b""
        try:
            self.body = json.loads(raw) if raw else None
        except ValueError:
            self.body = None
        body = self.body if isinstance(self.body, dict) else {}
        authorized = self.authorized()
        emit(event="request", method="POST", path=self.path, authorized=authorized,
             serial=body.get("serialNumber"), payload=body.get("payload"))
        url = urlsplit(self.path)
        mode, size = self.server.faults.for_path(url.path)
        try:
            self.respond(mode, size, authorized, url)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def uploaded(self, _path, _fields, name, record):
        """The printer's answer to an upload: code 0, and with printNow: true the print started
        when the printer is ready; its fileSize header must be the size received."""
        if self.headers.get("fileSize") != str(record["size"]):
            return 200, {"code": 1, "message": "File size mismatch"}
        if self.headers.get("printNow") == "true" and not self.server.printer.start(name):
            return 200, {"code": 2, "message": "Printer busy"}
        return 200, {"code": 0, "message": "Success"}

    def authorized(self):
        body = self.body if isinstance(self.body, dict) else {}
        serial, code = str(body.get("serialNumber", "")), str(body.get("checkCode", ""))
        return (hmac.compare_digest(serial.encode(), self.server.cfg.serial.encode())
                and hmac.compare_digest(code.encode(), self.server.cfg.check_code.encode()))

    def unauthorized(self):
        return 200, {"code": 1001, "message": "Verification failed"}

    def error_body(self, status):
        return {"code": status, "message": "Error"}

    def answer(self, _path, _query):
        return 404, self.error_body(404)

    def answer_post(self, path, body):
        printer = self.server.printer
        if path == "/detail":
            return 200, {"code": 0, "message": "Success", "detail": printer.snapshot()}
        if path == "/product":
            return 200, {"code": 0, "message": "Success",
                         "product": {"lightCtrlState": 1, "chamberTempCtrlState": 0, "nozzleTempCtrlState": 1}}
        if path == "/checkCode":
            return 200, {"code": 0, "message": "Success"}
        if path == "/control":
            return 200, printer.control(body.get("payload") if isinstance(body, dict) else None)
        return 404, self.error_body(404)


def handle_command(server, command):
    name = command.get("cmd")
    if name == "set":
        server.printer.set(command.get("detail") or {})
        emit(event="done", cmd=name)
    elif name == "busy":
        with server.printer.lock:
            server.printer.busy = bool(command.get("on"))
        emit(event="done", cmd=name)
    elif name == "mode":
        emit(event="done", cmd=name, **server.faults.apply(command))
    else:
        raise ValueError(f"unknown command {name!r}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--serial", default="SNMOMC9900001", help="the serialNumber every request must carry")
    p.add_argument("--check-code", default="12345678", help="the checkCode every request must carry (else code 1001)")
    cfg = p.parse_args()

    server = start_http_server(NAME, cfg, Handler)
    server.printer = Printer()
    serve_http_commands(NAME, server, handle_command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
