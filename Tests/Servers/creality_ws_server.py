#!/usr/bin/env python3
"""Loopback fake of a Creality printer's LAN status websocket (K1, K2, Hi: ws://HOST:9999).

Why it exists: Layerwatch reads a Creality printer's print status from the websocket Creality
Print reads (PROTOCOLS.md; ha_creality_ws, Connect3Dp's Research/Creality/CrealityK1C.md,
Erinell/Creality-K2-websocket API.md).  This server speaks the server side of RFC 6455 itself
(stdlib only, any python3: no websockets package is installed): the Upgrade handshake with its
Sec-WebSocket-Accept, masked client frames required, text/ping/pong/close, fragments.  On connect
it sends the whole state as one JSON object, then only the fields that change (as the printer
does), a {"ModeCode":"heart_beat"} every --heartbeat seconds (answered "ok" by clients), and it
takes the requests Creality Print sends:
    {"method":"get","params":{…}}            answered with the whole state
    {"method":"set","params":{"pause":1}}    printing (state 1) → paused (5)
    {"method":"set","params":{"pause":0}}    paused → printing
    {"method":"set","params":{"stop":1}}     printing or paused → stopped (4)
    {"method":"set","params":{"lightSw":0|1}}  the light
    {"method":"set","params":{"opGcodeFile":"printprt:/usr/data/printer_data/gcodes/NAME"}}
                                             a whole file the upload stored starts printing (state 1,
                                             printFileName its path) when the printer is not busy
    {"method":"set","params":{"opGcodeFile":"deleteprt:/usr/data/printer_data/gcodes/NAME"}}
                                             the file deleted, whole or a part (the firmware's
                                             opGcodeFileProc removes a path within its storage only)
and, on the same port and on --upload-port when given (the printer's web server is on port 80), the
upload OrcaSlicer's CrealityPrint host sends: POST /upload/NAME, multipart, the file in part "file"
(servercommon.Uploads: streamed, its hash kept, never its bytes), stored as NAME from its first
byte (a broken-off upload leaves its part there), answered 200.
The state numbers are the public integrations' (0 idle, 1 printing, 2 complete, 3 failed,
4 stopped, 5 paused).

stdin:  {"cmd":"set","fields":{…}}    merged into the state and pushed as one delta
        {"cmd":"mode","mode":M[,"bytes":N]}   persistent: normal | silent (no frame at all, no pong,
                                      no heartbeat, requests ignored) | deaf (requests read and
                                      reported, never acted on); once, to every client now
                                      connected: garbage (a text message that is not JSON) |
                                      badframe (a frame with reserved bits) | huge (a text frame
                                      of N bytes, default 8 MiB) | deep (JSON nested 100 000 deep)
                                      | badutf8 (a text message that is not UTF-8)
                                      | fragmented (the whole state in three fragments, a ping
                                      between them) | close (a close frame, then the socket closed)
        {"cmd":"interleave","deltas":[{…},…]}   the deltas merged and pushed in one write, each
                                      followed by bad messages (not UTF-8, not JSON, nested 100 000
                                      deep): garbage between good frames
        {"cmd":"break_upload","after":N}   the next upload's connection is closed after N bytes of
                                      its body, unanswered (a network that broke)
        {"cmd":"files"}               done lists the files stored, parts too: {name: {"size","complete"}}
        {"cmd":"pingflood","seconds":S}   pings as fast as the client takes them for S seconds, a
                                      state delta ({"printProgress":N}, N counting from 1) pushed
                                      between them every 0.25 s; pongs are counted, not reported one by one
stdout: {"event":"ready","port":N}
        {"event":"connected","key_ok":B}       a handshake answered (B: a 16-byte base64 key)
        {"event":"request","method":M,"params":{…}}   every JSON request, before acting on it
        {"event":"heartbeat_ack"}  {"event":"pong"}  {"event":"ping"}
        {"event":"unmasked"}  a client frame without a mask (the connection is then closed)
        {"event":"closed"}    a client's connection ended
        {"event":"flooded","pings":N,"pongs":N,"progress":N}   a ping flood's end: pings sent, pongs
                                      read during it, the last printProgress pushed
        {"event":"upload","name":N,"fields":{…},"size":S,"sha256":H,"complete":B}   an upload's end
                                      (N the name in its URL; a broken-off one gets no answer)
        {"event":"print-started","name":N,"sha256":H}   {"event":"print-refused","path":P}   opGcodeFile
        {"event":"deleted","path":P,"existed":B}   {"event":"delete-refused","path":P}   opGcodeFile deleteprt
        {"event":"done","cmd":C,…}   {"event":"error","cmd":C,"message":M}
--refuse CODE answers every handshake with that HTTP status (401: a login asked for).
"""
import argparse
import base64
import hashlib
from http import HTTPStatus
import json
import os
import struct
import sys
import threading
import time

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import Uploads, add_common_args, emit, listen, log, serve_commands  # noqa: E402
from urllib.parse import unquote  # noqa: E402

NAME = "creality_ws_server"
GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
HUGE_BYTES = 8 * 1024 * 1024
PERSISTENT = ("normal", "silent", "deaf")
ONCE = ("garbage", "badframe", "huge", "deep", "badutf8", "fragmented", "close")
GCODE_FOLDER = "/usr/data/printer_data/gcodes/"  # where a K1 keeps the files sent to it
BAD_MESSAGES = (b"{\"state\":3,\"printFileName\":\"\xc3(\xff.gcode\"}", b"\x00\x01 this is not JSON {{{", b"[" * 100000 + b"]" * 100000)

DEFAULT_STATE = {
    "model": "K1C", "hostname": "K1C-TEST", "state": 0, "deviceState": 0, "withSelfTest": 0,
    "printFileName": "", "printProgress": 0, "dProgress": 0, "layer": 0, "TotalLayer": 0,
    "printJobTime": 0, "printLeftTime": 0,
    "nozzleTemp": "24.300000", "targetNozzleTemp": 0, "bedTemp0": "23.900000", "targetBedTemp0": 0,
    "boxTemp": 25, "lightSw": 0, "err": {"errcode": 0, "key": 0},
    "maxNozzleTemp": 300, "maxBedTemp": 100, "webrtcSupport": 0,
}


def frame(opcode, payload, final=True, rsv=0):
    """A server frame (never masked)."""
    head = bytes([(0x80 if final else 0) | rsv | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([n])
    elif n < 65536:
        head += bytes([126]) + struct.pack("!H", n)
    else:
        head += bytes([127]) + struct.pack("!Q", n)
    return head + payload


class Client:
    """One websocket connection: its socket and a lock so frames never interleave."""

    def __init__(self, sock):
        self.sock = sock
        self.lock = threading.Lock()
        self.alive = True
        self.flooding = False
        self.pongs = 0

    def send(self, data):
        with self.lock:
            try:
                self.sock.sendall(data)
            except OSError:
                self.alive = False

    def text(self, obj):
        self.send(frame(0x1, json.dumps(obj, separators=(",", ":")).encode()))

    def read_exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data


class PrefixedReader:
    """A socket's bytes as a file, the ones already read with the request's head first; at most
    `limit` bytes in all (then it reads as if the peer had gone), when given."""

    def __init__(self, sock, first, limit=None):
        self.file = sock.makefile("rb")
        self.first = first
        self.left = limit

    def read(self, n):
        if self.left is not None:
            n = min(n, self.left)
            if n <= 0:
                return b""
        if self.first:
            data, self.first = self.first[:n], self.first[n:]
        else:
            data = self.file.read(n)
        if self.left is not None:
            self.left -= len(data)
        return data


class Printer:
    def __init__(self, heartbeat, refuse):
        self.refuse = refuse
        self.stored = Uploads()
        self.break_after = None  # body bytes the next upload is cut off after
        self.lock = threading.Lock()
        self.state = json.loads(json.dumps(DEFAULT_STATE))
        self.clients = []
        self.mode = "normal"
        self.heartbeat = heartbeat

    # ---- the connection's life ----
    def serve(self, sock):
        client = Client(sock)
        try:
            if not self.handshake(client):
                return
            with self.lock:
                self.clients.append(client)
                snapshot = dict(self.state)
            if self.mode != "silent":
                client.text(snapshot)
            self.read_frames(client)
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
            emit(event="closed")

    @staticmethod
    def read_head(client):
        """The request's head (and whatever followed it in the same reads); None when the client
        closed first or sent more than 16 KiB without one."""
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.sock.recv(4096)
            if not chunk or len(head) > 16384:
                return None
            head += chunk
        return head

    def handshake(self, client, head=None):
        head = head if head is not None else self.read_head(client)
        if head is None:
            return False
        if head.startswith(b"POST /upload/"):
            self.upload(client.sock, head)
            return False
        lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
        fields = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        key = fields.get("sec-websocket-key", "")
        try:
            key_ok = len(base64.b64decode(key, validate=True)) == 16
        except ValueError:
            key_ok = False
        if self.refuse:
            client.send(f"HTTP/1.1 {self.refuse} {HTTPStatus(self.refuse).phrase}\r\nContent-Length: 0\r\n\r\n".encode())
            emit(event="refused", status=self.refuse)
            return False
        if fields.get("upgrade", "").lower() != "websocket" or not key:
            client.send(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            return False
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        client.send(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode())
        emit(event="connected", key_ok=key_ok)
        return True

    def read_frames(self, client):
        message = None
        while True:
            b0, b1 = client.read_exact(2)
            opcode, final = b0 & 0x0F, bool(b0 & 0x80)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", client.read_exact(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", client.read_exact(8))[0]
            if not b1 & 0x80:
                emit(event="unmasked")
                return
            if n > 1 << 20:
                return
            mask = client.read_exact(4)
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(client.read_exact(n)))
            if opcode == 0x8:
                client.send(frame(0x8, payload[:2]))
                return
            if opcode == 0x9:
                emit(event="ping")
                if self.mode != "silent":
                    client.send(frame(0xA, payload))
                continue
            if opcode == 0xA:
                if client.flooding:
                    client.pongs += 1
                else:
                    emit(event="pong")
                continue
            message = payload if opcode in (0x1, 0x2) else (message or b"") + payload
            if final:
                self.on_message(client, message)
                message = None

    def on_message(self, client, data):
        text = data.decode("utf-8", "replace")
        if text == "ok":
            emit(event="heartbeat_ack")
            return
        try:
            request = json.loads(text)
        except ValueError:
            log(NAME, f"ignoring a message that is not JSON: {text[:100]!r}")
            return
        if not isinstance(request, dict):
            return
        method, params = request.get("method"), request.get("params") or {}
        emit(event="request", method=method, params=params)
        if self.mode in ("silent", "deaf"):
            return
        if method == "get":
            with self.lock:
                snapshot = dict(self.state)
            client.text(snapshot)
        elif method == "set":
            self.apply(params)

    # ---- the web server's upload ----
    def upload(self, sock, head):
        """POST /upload/NAME: the multipart file streamed into `stored` as NAME, answered 200."""
        blob, _, rest = head.partition(b"\r\n\r\n")
        lines = blob.decode("latin-1").split("\r\n")
        name = unquote(lines[0].split(" ")[1][len("/upload/"):])
        fields = {}
        for line in lines[1:]:
            key, _, value = line.partition(":")
            fields[key.strip().lower()] = value.strip()
        with self.lock:
            limit, self.break_after = self.break_after, None
        try:
            form, _, record = self.stored.receive(PrefixedReader(sock, rest, limit), int(fields.get("content-length") or 0),
                                                  fields.get("content-type"), "file", stored_as=name)
        except ValueError as error:
            sock.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            log(NAME, f"a bad upload: {error}")
            return
        with self.stored.lock:
            record = dict(record)
        emit(event="upload", name=name, fields=form, **record)
        if record["complete"]:
            payload = json.dumps({"code": 0}).encode()
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                         b"Connection: close\r\n\r\n" % len(payload) + payload)

    def print_file(self, target, state):
        """opGcodeFile "printprt:PATH": the changes that start a stored file, or none."""
        path = target[len("printprt:"):] if isinstance(target, str) and target.startswith("printprt:") else ""
        folder, _, name = path.rpartition("/")
        with self.stored.lock:
            record = dict(self.stored.files.get(name) or {})
        if folder + "/" != GCODE_FOLDER or not record.get("complete") or state not in (0, 2, 3, 4):
            emit(event="print-refused", path=path)
            return {}
        emit(event="print-started", name=name, sha256=record["sha256"])
        return {"state": 1, "printFileName": path, "printProgress": 0, "layer": 0, "printJobTime": 0, "printLeftTime": 3600}

    def delete_file(self, path):
        """opGcodeFile "deleteprt:PATH": the file at PATH deleted when PATH is within the storage."""
        folder, _, name = path.rpartition("/")
        if folder + "/" != GCODE_FOLDER:
            emit(event="delete-refused", path=path)
            return
        emit(event="deleted", path=path, existed=self.stored.delete(name))

    # ---- the printer's state ----
    def apply(self, params):
        """A set request, as the printer takes it: only what its state allows."""
        with self.lock:
            state = self.state["state"]
        changes = {}
        if params.get("pause") == 1 and state == 1:
            changes["state"] = 5
        elif params.get("pause") == 0 and state == 5:
            changes["state"] = 1
        if params.get("stop") == 1 and state in (1, 5):
            changes.update(state=4, printLeftTime=0)
        if "lightSw" in params:
            changes["lightSw"] = 1 if params["lightSw"] else 0
        target = params.get("opGcodeFile")
        if isinstance(target, str) and target.startswith("deleteprt:"):
            self.delete_file(target[len("deleteprt:"):])
        elif "opGcodeFile" in params:
            changes.update(self.print_file(target, state))
        if changes:
            self.push(changes)

    def push(self, changes):
        """Merges `changes` and sends them (only them) to every client."""
        with self.lock:
            self.state.update(changes)
            clients = list(self.clients)
            silent = self.mode == "silent"
        if not silent:
            for client in clients:
                client.text(changes)

    def interleave(self, deltas):
        """Each delta merged and sent, bad messages after it, all in one write."""
        data = b""
        for delta in deltas:
            with self.lock:
                self.state.update(delta)
            data += frame(0x1, json.dumps(delta, separators=(",", ":")).encode())
            data += b"".join(frame(0x1, bad) for bad in BAD_MESSAGES)
        with self.lock:
            clients = list(self.clients)
        for client in clients:
            client.send(data)
        return {"clients": len(clients)}

    def ping_flood(self, seconds):
        """Pings as fast as each client takes them, a progress delta every 0.25 s between them."""
        with self.lock:
            clients = list(self.clients)
        batch = b"".join(frame(0x9, struct.pack("!I", n)) for n in range(1000))
        for client in clients:
            client.flooding, client.pongs = True, 0
        pings, progress, start = 0, 0, time.monotonic()
        next_delta = start
        while time.monotonic() - start < seconds and all(c.alive for c in clients):
            if time.monotonic() >= next_delta:
                progress += 1
                next_delta += 0.25
                self.push({"printProgress": progress})
            for client in clients:
                client.send(batch)
            pings += 1000
        for client in clients:
            client.flooding = False
        emit(event="flooded", pings=pings, pongs=sum(c.pongs for c in clients), progress=progress)

    def heartbeats(self):
        while True:
            time.sleep(self.heartbeat)
            with self.lock:
                clients = [] if self.mode == "silent" else list(self.clients)
            for client in clients:
                client.text({"ModeCode": "heart_beat"})

    # ---- faults ----
    def set_mode(self, command):
        mode = str(command.get("mode"))
        if mode in PERSISTENT:
            with self.lock:
                self.mode = mode
            return {"mode": mode}
        if mode not in ONCE:
            raise ValueError(f"unknown mode {mode!r}; one of {', '.join(PERSISTENT + ONCE)}")
        with self.lock:
            clients = list(self.clients)
            snapshot = dict(self.state)
        for client in clients:
            self.fault(client, mode, int(command.get("bytes", HUGE_BYTES)), snapshot)
        return {"mode": mode, "clients": len(clients)}

    def fault(self, client, mode, size, snapshot):
        if mode == "garbage":
            client.send(frame(0x1, BAD_MESSAGES[1]))
        elif mode == "badframe":
            client.send(frame(0x1, b"{}", rsv=0x40))
        elif mode == "huge":
            block = b" " * 65536
            client.send(bytes([0x81, 127]) + struct.pack("!Q", size))
            sent = 0
            while sent < size and client.alive:
                client.send(block[:min(len(block), size - sent)])
                sent += len(block)
        elif mode == "deep":
            client.send(frame(0x1, BAD_MESSAGES[2]))
        elif mode == "badutf8":
            client.send(frame(0x1, BAD_MESSAGES[0]))
        elif mode == "fragmented":
            data = json.dumps(snapshot, separators=(",", ":")).encode()
            third = len(data) // 3
            client.send(frame(0x1, data[:third], final=False))
            client.send(frame(0x9, b"mid"))
            client.send(frame(0x0, data[third:2 * third], final=False))
            client.send(frame(0x0, data[2 * third:], final=True))
        elif mode == "close":
            client.send(frame(0x8, struct.pack("!H", 1001)))
            try:
                client.sock.shutdown(2)
            except OSError:
                pass


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--heartbeat", type=float, default=10.0, help="seconds between heart_beat messages")
    p.add_argument("--refuse", type=int, default=0, help="answer every handshake with this HTTP status")
    p.add_argument("--upload-port", type=int, default=0, help="a second port taking the upload (the printer's 80)")
    cfg = p.parse_args()
    printer = Printer(cfg.heartbeat, cfg.refuse)
    server = listen(cfg.bind, cfg.port)

    def accept(listener):
        while True:
            sock, _ = listener.accept()
            threading.Thread(target=printer.serve, args=(sock,), daemon=True).start()

    threading.Thread(target=accept, args=(server,), daemon=True).start()
    if cfg.upload_port:
        threading.Thread(target=accept, args=(listen(cfg.bind, cfg.upload_port),), daemon=True).start()
    threading.Thread(target=printer.heartbeats, daemon=True).start()

    def handle(command):
        name = command.get("cmd")
        if name == "set":
            printer.push(command.get("fields") or {})
            emit(event="done", cmd=name)
        elif name == "mode":
            emit(event="done", cmd=name, **printer.set_mode(command))
        elif name == "interleave":
            emit(event="done", cmd=name, **printer.interleave(command.get("deltas") or []))
        elif name == "break_upload":
            with printer.lock:
                printer.break_after = int(command.get("after", 0))
            emit(event="done", cmd=name)
        elif name == "files":
            with printer.stored.lock:
                files = {n: {"size": r["size"], "complete": r["complete"]} for n, r in printer.stored.files.items()}
            emit(event="done", cmd=name, files=files)
        elif name == "pingflood":
            seconds = float(command.get("seconds", 5))
            threading.Thread(target=printer.ping_flood, args=(seconds,), daemon=True).start()
            emit(event="done", cmd=name)
        else:
            raise ValueError(f"unknown command {name!r}")

    emit(event="ready", port=server.getsockname()[1])
    serve_commands(NAME, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
