"""A WebRTC camera for the WebRTC source's tests: a real aiortc peer (Debian's python3-aiortc)
sending H.264 (or VP8 with --codec vp8) of a known picture — four solid quadrants, red, green, blue, white — over one of the
signalling styles Layerwatch speaks: WHEP, go2rtc's /api/webrtc, camera-streamer, Creality.

Why it exists: the source must be tested against a real ICE/DTLS/SRTP stack, on loopback only.
aioice leaves 127.0.0.1 out of its host addresses, so they are patched to the loopback address it
listens on alone (127.0.0.1 unless --bind says another), and no STUN server is set (aiortc would otherwise ask Google's): no candidate, STUN or media packet leaves
the loopback interface.

Events: ready(port); offer(candidates) with the addresses of the candidates Layerwatch's offer or
answer carried; answer(candidates) with this peer's; ice(state); delete(path) for a WHEP DELETE.
--hostile makes the answer not SDP, without video, with its only candidate at 10.0.0.1, over 64 kB,
with 800 candidates at other hosts before its own, with its candidates at a dead port, or
(own-candidates) with a candidate at its own address for each of --decoy-ports before its own, of
the same priority (ports the test listens on, to count those that draw STUN).
--clock-blocks sends rtsp_server.py's clock picture instead (clockblocks.py; --screen-marks,
--width/--height/--fps, --preset), for bench/webrtc.sh; --page FILE serves FILE at GET / (a WHEP
player page on the camera's own origin, as MediaMTX serves its reader page).
"""
import argparse
import asyncio
import base64
import fractions
import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler

import aioice.ice
import aiortc.codecs.h264
import av
import numpy
from aiortc import RTCConfiguration, RTCPeerConnection, RTCRtpSender, RTCSessionDescription, VideoStreamTrack
from av import VideoFrame

from clockblocks import ClockBlocks
from servercommon import add_common_args, emit, listen, log, wait_for_stop

NAME = "webrtc_camera"
WIDTH, HEIGHT = 320, 240


def quadrants():
    picture = numpy.zeros((HEIGHT, WIDTH, 3), numpy.uint8)
    picture[: HEIGHT // 2, : WIDTH // 2] = (255, 0, 0)
    picture[: HEIGHT // 2, WIDTH // 2 :] = (0, 255, 0)
    picture[HEIGHT // 2 :, : WIDTH // 2] = (0, 0, 255)
    picture[HEIGHT // 2 :, WIDTH // 2 :] = (255, 255, 255)
    return picture


class Quadrants(VideoStreamTrack):
    """30 pictures a second of the same four quadrants."""

    def __init__(self):
        super().__init__()
        self.picture = quadrants()

    async def recv(self):
        pts, time_base = await self.next_timestamp()
        frame = VideoFrame.from_ndarray(self.picture, format="rgb24")
        frame.pts, frame.time_base = pts, time_base
        return frame


class ClockTrack(VideoStreamTrack):
    """--clock-blocks: rtsp_server.py's clock picture at --fps, the clock painted as each frame is
    taken (its capture time), paced against a fixed schedule."""

    def __init__(self, blocks, fps):
        super().__init__()
        self.blocks, self.fps = blocks, fps
        self.started, self.sent = None, 0

    async def recv(self):
        if self.started is None:
            self.started = time.monotonic()
        else:
            await asyncio.sleep(max(0, self.started + self.sent / self.fps - time.monotonic()))
        planes = numpy.frombuffer(self.blocks.frame(), numpy.uint8).reshape(self.blocks.h * 3 // 2, self.blocks.w)
        frame = VideoFrame.from_ndarray(planes, format="yuv420p")
        frame.pts, frame.time_base = self.sent * 90000 // self.fps, fractions.Fraction(1, 90000)
        self.sent += 1
        return frame


def use_x264_preset(preset, fps):
    """aiortc's H.264 encoder as rtsp_server.py's: x264 `preset`, zerolatency, an IDR a second at
    `fps` (aiortc's own leaves x264 at its medium preset, 30 fps and 250 frames between IDRs).
    aiortc still sets the bitrate, and restarts the encoder when the peer's estimate moves it."""

    def create(_name, width, height, bitrate):
        codec = av.CodecContext.create("libx264", "w")
        codec.width, codec.height, codec.bit_rate, codec.pix_fmt = width, height, bitrate, "yuv420p"
        codec.framerate, codec.time_base = fractions.Fraction(fps, 1), fractions.Fraction(1, fps)
        codec.gop_size = fps
        codec.options = {"preset": preset, "tune": "zerolatency", "profile": "baseline"}
        codec.open()
        return codec, False  # whole pictures come out: no waiting for the rest of one

    aiortc.codecs.h264.create_encoder_context = create


def candidates(sdp):
    return [line.split()[4] for line in sdp.splitlines() if line.startswith("a=candidate:")]


class Camera:
    def __init__(self, style, hostile, codec, track, decoy_ports=()):
        """`track` makes each peer's video track."""
        self.style, self.hostile, self.codec, self.track = style, hostile, codec, track
        self.decoy_ports = decoy_ports
        self.codecs = [c for c in RTCRtpSender.getCapabilities("video").codecs if c.mimeType.lower() == f"video/{codec}"]
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.peers = {}

    def run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(20)

    def new_peer(self):
        peer = RTCPeerConnection(RTCConfiguration(iceServers=[]))

        @peer.on("iceconnectionstatechange")
        def changed():
            emit(event="ice", state=peer.iceConnectionState)

        return peer

    async def answer(self, offer):
        emit(event="offer", candidates=candidates(offer))
        peer = self.new_peer()
        await peer.setRemoteDescription(RTCSessionDescription(only_codec(offer, self.codec), "offer"))
        for transceiver in peer.getTransceivers():
            if transceiver.kind == "video":
                transceiver.direction = "sendonly"
                transceiver.setCodecPreferences(self.codecs)
                transceiver.sender.replaceTrack(self.track())
        await peer.setLocalDescription(await peer.createAnswer())
        sdp = peer.localDescription.sdp
        emit(event="answer", candidates=candidates(sdp))
        if self.hostile == "dead-candidate":
            await peer.close()  # nor does this peer answer checks or check itself
        else:
            self.peers[str(uuid.uuid4())] = peer
        return self.spoil(sdp)

    async def offer(self):
        peer = self.new_peer()
        peer.addTransceiver(self.track(), direction="sendonly").setCodecPreferences(self.codecs)
        await peer.setLocalDescription(await peer.createOffer())
        sdp = peer.localDescription.sdp
        emit(event="answer", candidates=candidates(sdp))
        name = str(uuid.uuid4())
        self.peers[name] = peer
        return name, self.spoil(sdp)

    async def take_answer(self, name, sdp):
        emit(event="offer", candidates=candidates(sdp))
        await self.peers[name].setRemoteDescription(RTCSessionDescription(sdp, "answer"))

    def spoil(self, sdp):
        """The answer as --hostile asks for."""
        if self.hostile == "not-sdp":
            return "<html>not a session description</html>"
        if self.hostile == "no-video":
            return sdp.split("m=video")[0]
        if self.hostile == "foreign-candidate":
            lines = [line for line in sdp.splitlines() if not line.startswith("a=candidate:")]
            at = next(i for i, line in enumerate(lines) if line.startswith("m=video")) + 1
            lines.insert(at, "a=candidate:1 1 udp 2130706431 10.0.0.1 40000 typ host")
            return "\r\n".join(lines) + "\r\n"
        if self.hostile == "huge":
            return sdp + "a=x-padding:" + "x" * 200_000 + "\r\n"
        if self.hostile == "many-candidates":
            # 800 candidates at other hosts before the real ones (as many as the 64 kB answer limit
            # lets through): only the camera's may be used.
            at = sdp.index("a=candidate:")
            extra = "".join(f"a=candidate:9{i} 1 udp 2130706431 10.0.{i // 250}.{i % 250 + 1} 40000 typ host\r\n" for i in range(800))
            return sdp[:at] + extra + sdp[at:]
        if self.hostile == "own-candidates":
            at = sdp.index("a=candidate:")
            own = sdp[at:].split("\r\n", 1)[0].split(" ")
            extra = "".join(" ".join([f"a=candidate:8{i}"] + own[1:5] + [str(port)] + own[6:]) + "\r\n"
                            for i, port in enumerate(self.decoy_ports))
            return sdp[:at] + extra + sdp[at:]
        if self.hostile == "dead-candidate":
            # The camera's candidates point at a port nobody listens on: ICE cannot connect.
            lines = [" ".join(f[:5] + ["9"] + f[6:]) if f[0].startswith("a=candidate:") else " ".join(f)
                     for f in (line.split(" ") for line in sdp.splitlines())]
            return "\r\n".join(lines) + "\r\n"
        if self.style == "creality":
            return creality_quirks(sdp)
        return sdp


def only_codec(sdp, codec):
    """The offer as a camera that sends only `codec` reads it: the video section's other formats gone."""
    lines = sdp.splitlines()
    keep = {line.split()[0].split(":")[1] for line in lines if line.startswith("a=rtpmap:") and f" {codec.upper()}/" in line.upper()}
    out = []
    for line in lines:
        if line.startswith("m=video"):
            fields = line.split()
            line = " ".join(fields[:3] + [f for f in fields[3:] if f in keep])
        elif line.startswith(("a=rtpmap:", "a=fmtp:", "a=rtcp-fb:")):
            if line.split()[0].split(":")[1] not in keep:
                continue
        out.append(line)
    return "\r\n".join(out) + "\r\n"


def creality_quirks(sdp):
    """What a Creality K2 adds to an answer: an extra first payload format on the video line, with
    its rtpmap and fmtp, and a second fmtp line with x-google parameters for the H.264 format."""
    out, h264 = [], None
    for line in sdp.splitlines():
        if line.startswith("m=video"):
            fields = line.split()
            h264 = fields[3]
            line = " ".join(fields[:3] + ["35"] + fields[3:])
            out += [line, "a=rtpmap:35 AV1/90000", "a=fmtp:35 level-idx=5;profile=0;tier=0"]
            continue
        out.append(line)
        if h264 and line.startswith(f"a=fmtp:{h264} "):
            out.append(f"a=fmtp:{h264} x-google-max-bitrate=2048;x-google-min-bitrate=128")
    return "\r\n".join(out) + "\r\n"


def handler_for(camera, page):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, status, body=b"", kind="application/sdp", headers=()):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if page is None or self.path.split("?")[0] != "/":
                self.reply(404, kind="text/plain")
            else:
                with open(page, "rb") as file:
                    self.reply(200, file.read(), kind="text/html; charset=utf-8")

        def do_DELETE(self):
            emit(event="delete", path=self.path)
            self.reply(200, kind="text/plain")

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                self.serve(body)
            except Exception as error:  # a test's failure, told to the client as a 500
                log(NAME, f"POST failed: {error!r}")
                self.reply(500, str(error).encode(), kind="text/plain")

        def serve(self, body):
            style = camera.style
            if style == "whep":
                answer = camera.run(camera.answer(body.decode()))
                self.reply(201, answer.encode(), headers=[("Location", "/whep/session/1")])
            elif style == "go2rtc":
                answer = camera.run(camera.answer(body.decode()))
                self.reply(200, answer.encode())
            elif style == "creality":
                offer = json.loads(base64.b64decode(body))
                answer = camera.run(camera.answer(offer["sdp"]))
                wrapped = base64.b64encode(json.dumps({"type": "answer", "sdp": answer}).encode())
                self.reply(200, wrapped, kind="text/plain")
            else:
                message = json.loads(body)
                if message["type"] == "request":
                    name, offer = camera.run(camera.offer())
                    self.reply(200, json.dumps({"type": "offer", "sdp": offer, "id": name}).encode(), kind="application/json")
                else:
                    camera.run(camera.take_answer(message["id"], message["sdp"]))
                    self.reply(200, b"{}", kind="application/json")

    return Handler


def main():
    parser = argparse.ArgumentParser()
    add_common_args(parser)
    parser.add_argument("--style", choices=["whep", "go2rtc", "camera-streamer", "creality"], default="whep")
    parser.add_argument("--hostile", choices=["none", "not-sdp", "no-video", "foreign-candidate", "huge", "many-candidates", "dead-candidate",
                                              "own-candidates"], default="none")
    parser.add_argument("--decoy-ports", default="", help="--hostile own-candidates: comma-separated ports")
    parser.add_argument("--codec", choices=["h264", "vp8"], default="h264")
    parser.add_argument("--clock-blocks", action="store_true", help="send rtsp_server.py's clock picture, not the quadrants")
    parser.add_argument("--screen-marks", action="store_true", help="--clock-blocks: with the coloured corner marks")
    parser.add_argument("--width", type=int, default=640, help="--clock-blocks: the picture's width")
    parser.add_argument("--height", type=int, default=480, help="--clock-blocks: the picture's height")
    parser.add_argument("--fps", type=int, default=30, help="--clock-blocks, --preset: frames a second")
    parser.add_argument("--preset", help="x264 speed preset of the H.264 encoder (default: aiortc's)")
    parser.add_argument("--page", help="serve this file at GET / (a player page)")
    args = parser.parse_args()
    if args.preset:
        use_x264_preset(args.preset, args.fps)
    # Its only host candidate is the address it listens on (127.0.0.1 unless --bind says another
    # loopback address, as a fake printer of its own has).
    aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: [args.bind]
    if args.clock_blocks:
        blocks = ClockBlocks(args.width, args.height, marks=args.screen_marks)
        camera = Camera(args.style, args.hostile, args.codec, lambda: ClockTrack(blocks, args.fps))
    else:
        decoys = [int(port) for port in args.decoy_ports.split(",") if port]
        camera = Camera(args.style, args.hostile, args.codec, Quadrants, decoys)
    from http.server import ThreadingHTTPServer

    class Server(ThreadingHTTPServer):
        allow_reuse_address = True
        daemon_threads = True

    sock = listen(args.bind, args.port)
    server = Server((args.bind, sock.getsockname()[1]), handler_for(camera, args.page), bind_and_activate=False)
    server.socket = sock
    threading.Thread(target=server.serve_forever, daemon=True).start()
    emit(event="ready", port=sock.getsockname()[1])
    wait_for_stop(NAME)
    for peer in list(camera.peers.values()):
        camera.run(peer.close())


if __name__ == "__main__":
    main()
