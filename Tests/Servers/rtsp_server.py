#!/usr/bin/python3
"""Loopback RTSP / RTSPS test camera for Layerwatch's integration tests.

Why it exists: Bambu X1/P2S/H2 printers serve H.264 over RTSPS on port 322
(TLS from the first byte, self-signed certificate whose CN is the serial,
Basic auth bblp:<access code>, usually one client only).  The Swift tests
need a real server with that shape to drive the FFmpeg-based client against,
without a printer.  GStreamer's RTSP server does the protocol work.

Runs with Debian's /usr/bin/python3 (needs python3-gi and
gir1.2-gst-rtsp-server-1.0; a pyenv python has no GObject).

stdout carries JSON lines only (one object per line, key "event"):
  {"event":"ready","port":N}
  {"event":"client","address":"127.0.0.1:P","clients":K,"total":T}
  {"event":"client-closed","clients":K}
  {"event":"keyframe-requested"}          (--keyframe-on-play: a client sent PLAY)
Diagnostics go to stderr.  Exits on SIGTERM/SIGINT and when stdin reaches EOF.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtsp", "1.0")
gi.require_version("GstRtspServer", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import Gio, GLib, Gst, GstRtsp, GstRtspServer, GstVideo  # noqa: E402

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import servercommon  # noqa: E402
from clockblocks import ClockBlocks  # noqa: E402
from servercommon import emit, quit_glib_loop_on_stop  # noqa: E402

SERIAL = "01S00TESTSERIAL"


def log(msg):
    servercommon.log("rtsp_server", msg)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bind", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="0 = pick a free port")
    p.add_argument("--path", default="/streaming/live/1")
    p.add_argument("--paths", type=int, default=1, metavar="N",
                   help="serve the one shared stream (one encoder) at N paths: --path, then --path/2 ... --path/N, "
                        "so one client can open it as N different cameras")
    p.add_argument("--width", type=int, default=640)
    p.add_argument("--height", type=int, default=480)
    p.add_argument("--fps", type=int, default=15)
    p.add_argument("--user")
    p.add_argument("--password")
    p.add_argument("--tls", action="store_true", help="serve RTSPS (TLS from the first byte)")
    p.add_argument("--codec", choices=["h264", "mjpeg"], default="h264")
    p.add_argument("--clock-blocks", action="store_true",
                   help="paint the wall clock (ms, 32 bits) as black/white blocks in the bottom strip")
    p.add_argument("--screen-marks", action="store_true",
                   help="--clock-blocks: paint solid squares of width W/64 at the picture's corners, orange "
                        "(255,128,0) top-right and chartreuse (128,255,0) bottom-left, for finding the picture "
                        "on a screen (colours the SMPTE picture does not hold; corners a player's badges leave free)")
    p.add_argument("--preset", default="ultrafast",
                   help="x264 speed preset: ultrafast (no deblocking, CAVLC: cheapest to decode) or e.g. "
                        "superfast (CABAC and deblocking, as camera encoders produce)")
    p.add_argument("--noise", type=int, default=0, choices=range(0, 16), metavar="0-15",
                   help="--clock-blocks: add sensor-like noise of 0..N levels to every sample (luma and chroma) "
                        "(a camera's picture is never still; 0 = none)")
    p.add_argument("--gop", type=int, default=1, metavar="SECONDS", help="seconds between IDRs")
    p.add_argument("--keyframe-on-play", action="store_true",
                   help="encode an IDR as soon as a client starts playing, as many IP cameras do "
                        "(otherwise a client joins the shared stream mid-GOP and waits for the next IDR)")
    p.add_argument("--slices", type=int, default=1, help="H.264 slices per picture (x264 slices=N)")
    p.add_argument("--bframes", type=int, default=0, help="H.264 B-frames between references")
    p.add_argument("--no-sprop", action="store_true",
                   help="leave sprop-parameter-sets out of the SDP: SPS and PPS arrive only in the stream")
    p.add_argument("--drop-nal-percent", type=float, default=0,
                   help="drop this share of NAL units (slices, SPS, PPS) before they are sent: packet loss")
    p.add_argument("--top-clock", action="store_true",
                   help="--clock-blocks: paint the same clock in a top strip too, so a picture whose top and "
                        "bottom come from different frames shows two values")
    return p.parse_args()


def make_certificate(directory):
    """Self-signed certificate like a printer's: CN = serial number."""
    key, crt = os.path.join(directory, "key.pem"), os.path.join(directory, "cert.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", f"/CN={SERIAL}", "-keyout", key, "-out", crt],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(crt) as c, open(key) as k:
        return Gio.TlsCertificate.new_from_pem(c.read() + k.read(), -1)


def launch_line(a):
    raw = f"video/x-raw,width={a.width},height={a.height},framerate={a.fps}/1"
    if a.clock_blocks:  # frames come from Python (clockblocks.py), same picture plus the clock strip
        src = f"appsrc name=clocksrc is-live=true format=time do-timestamp=true max-buffers=2 " \
              f"leaky-type=downstream caps={raw},format=I420"
    else:
        src = f"videotestsrc is-live=true pattern=smpte ! {raw}"
    if a.codec == "mjpeg":
        enc = "videoconvert ! video/x-raw,format=I420 ! jpegenc quality=85 ! rtpjpegpay name=pay0 pt=26"
    else:
        enc = (f"videoconvert ! x264enc name=enc tune=zerolatency speed-preset={a.preset} key-int-max={a.fps * a.gop} "
               f"bframes={a.bframes} option-string=slices={a.slices} ! ")
        if a.drop_nal_percent:  # one buffer per NAL unit, some never reach the payloader
            enc += f"h264parse ! video/x-h264,alignment=nal ! identity drop-probability={a.drop_nal_percent / 100} ! "
        pay = "rtph264pay pt=96 config-interval=1"
        if a.no_sprop:  # the SDP is made from the last element's caps: give it caps without the parameter sets
            enc += (f"{pay} ! capssetter name=pay0 replace=true caps=\"application/x-rtp,media=(string)video,"
                    "clock-rate=(int)90000,encoding-name=(string)H264,payload=(int)96\"")
        else:
            enc += f"{pay} name=pay0"
    return f"( {src} ! {enc} )"


def feed_clock_blocks(blocks, fps, media):
    """--clock-blocks: push one of `blocks`' frames into the media's appsrc every 1/fps s (re-armed
    against a fixed schedule, so no drift) until the media is torn down.  Pushes before the media
    runs are refused (FLUSHING): harmless."""
    src = media.get_element().get_by_name("clocksrc")
    start, state = time.monotonic(), {"n": 0, "timer": 0, "stopped": False}

    def push():
        if state["stopped"]:
            return GLib.SOURCE_REMOVE
        src.emit("push-buffer", Gst.Buffer.new_wrapped(blocks.frame()))
        state["n"] += 1
        delay = start + state["n"] / fps - time.monotonic()
        state["timer"] = GLib.timeout_add(max(0, int(delay * 1000)), push)
        return GLib.SOURCE_REMOVE

    state["timer"] = GLib.timeout_add(0, push)

    def stop(_media):
        state["stopped"] = True
        GLib.source_remove(state["timer"])
    media.connect("unprepared", stop)


class OneMediaFactory(GstRtspServer.RTSPMediaFactory):
    """--paths: every path shares one media (the default key is the path, which would start an
    encoder per path)."""

    def do_gen_key(self, _url):
        return "shared"


def main():
    a = parse_args()
    Gst.init(None)
    tmp = tempfile.TemporaryDirectory(prefix="layerwatch-rtsp-")

    server = GstRtspServer.RTSPServer()
    server.set_address(a.bind)
    server.set_service(str(a.port))

    factory = OneMediaFactory() if a.paths > 1 else GstRtspServer.RTSPMediaFactory()
    factory.set_launch(launch_line(a))
    factory.set_shared(True)
    # No multicast: never send anywhere but the requesting loopback client.
    factory.set_protocols(GstRtsp.RTSPLowerTrans.UDP | GstRtsp.RTSPLowerTrans.TCP)

    if a.clock_blocks:
        blocks = ClockBlocks(a.width, a.height, a.noise, a.top_clock, a.screen_marks)
        factory.connect("media-configure", lambda _f, media: feed_clock_blocks(blocks, a.fps, media))

    if a.user is not None or a.tls:
        auth = GstRtspServer.RTSPAuth()
        if a.user is not None:
            token = GstRtspServer.RTSPToken()
            token.set_string("media.factory.role", "user")
            auth.add_basic(GstRtspServer.RTSPAuth.make_basic(a.user, a.password or ""), token)
            factory.add_role_from_structure(Gst.Structure.from_string(
                "user, media.factory.access=(boolean)true, media.factory.construct=(boolean)true")[0])
        else:  # TLS without credentials: everyone may watch
            token = GstRtspServer.RTSPToken()
            token.set_string("media.factory.role", "anonymous")
            auth.set_default_token(token)
            factory.add_role_from_structure(Gst.Structure.from_string(
                "anonymous, media.factory.access=(boolean)true, media.factory.construct=(boolean)true")[0])
        if a.tls:
            auth.set_tls_certificate(make_certificate(tmp.name))
            auth.set_tls_authentication_mode(Gio.TlsAuthenticationMode.NONE)
        server.set_auth(auth)

    for path in [a.path] + [f"{a.path}/{n}" for n in range(2, a.paths + 1)]:
        server.get_mount_points().add_factory(path, factory)

    medias = []  # the shared media while prepared (--keyframe-on-play)
    if a.keyframe_on_play:
        def configured(_factory, media):
            medias.append(media)
            media.connect("unprepared", lambda m: medias.remove(m))
        factory.connect("media-configure", configured)

    def request_keyframe(_client, _ctx):
        for media in medias:
            encoder = media.get_element().get_by_name("enc")
            if encoder is not None:
                encoder.get_static_pad("src").send_event(
                    GstVideo.video_event_new_upstream_force_key_unit(Gst.CLOCK_TIME_NONE, True, 0))
                emit(event="keyframe-requested")

    state = {"clients": 0, "total": 0}

    def on_client(_server, client):
        address = "?"
        try:
            sock = client.get_connection().get_read_socket()
            remote = sock.get_remote_address()
            address = f"{remote.get_address().to_string()}:{remote.get_port()}"
        except Exception as exc:  # noqa: BLE001 - only for the event text
            log(f"cannot read client address: {exc}")
        state["clients"] += 1
        state["total"] += 1
        emit(event="client", address=address, clients=state["clients"], total=state["total"])

        def on_closed(_client):
            state["clients"] -= 1
            emit(event="client-closed", clients=state["clients"])
        client.connect("closed", on_closed)
        if a.keyframe_on_play:
            client.connect("play-request", request_keyframe)

    server.connect("client-connected", on_client)

    loop = GLib.MainLoop()
    try:
        server.attach(None)
    except GLib.Error as exc:
        log(f"cannot listen on {a.bind}:{a.port}: {exc.message}")
        return 1
    if server.get_bound_port() <= 0:
        log(f"cannot listen on {a.bind}:{a.port}")
        return 1

    quit_glib_loop_on_stop(GLib, loop, "rtsp_server")

    emit(event="ready", port=server.get_bound_port())
    loop.run()
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
