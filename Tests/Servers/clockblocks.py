"""The clock-block picture the benches and latency tests read back: SMPTE bars with the wall clock
burnt into a bottom strip, optionally sensor-like noise and coloured corner marks.

Why it exists: the RTSP server (rtsp_server.py --clock-blocks) and the WebRTC camera
(webrtc_camera.py --clock-blocks) must send the same picture, so a reader measures both the same
way.  Needs python3-gi with GStreamer (videotestsrc paints the SMPTE bars once); the frames it
makes are plain I420 bytes each sender wraps its own way.
"""
import os
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


class ClockBlocks:
    """The SMPTE picture whose bottom strip (height 2*(H//16), about H/8) shows the wall clock
    (Unix time in ms, mod 2**32) as 32 equal blocks of width W/32, most significant bit left,
    white = 1, black = 0.  A test decodes a frame, reads the blocks at y = H - H/16 and subtracts
    from its own clock to get the end-to-end latency."""

    NOISY_VARIANTS = 15  # noisy copies of the picture, shown in turn (half a second at 30 fps)

    # screen marks: (Y, Cb, Cr) in BT.601 limited range, chosen to survive a BT.709 decode too.
    ORANGE, CHARTREUSE = (146, 53, 193), (177, 35, 90)

    def __init__(self, width, height, noise=0, top_clock=False, marks=False):
        if width % 64 or height % 2:
            raise SystemExit("--clock-blocks needs width % 64 == 0 and an even height")
        Gst.init(None)
        self.w, self.h = width, height
        self.top = height - 2 * (height // 16)
        # top_clock: rows [0, strip) carry the clock too (sampled at y = H/16)
        self.strip = 2 * (height // 16) if top_clock else 0
        pipe = Gst.parse_launch(f"videotestsrc num-buffers=1 pattern=smpte ! "
                                f"video/x-raw,format=I420,width={width},height={height} ! appsink name=sink")
        pipe.set_state(Gst.State.PLAYING)
        buf = pipe.get_by_name("sink").emit("pull-sample").get_buffer()
        self.base = bytearray(buf.extract_dup(0, buf.get_size()))
        pipe.set_state(Gst.State.NULL)
        assert len(self.base) == width * height * 3 // 2, "unexpected I420 layout"
        cw, ch = width // 2, height // 2  # neutral chroma under the strip: blocks are pure grey levels
        for plane in (width * height, width * height + cw * ch):
            self.base[plane + (self.top // 2) * cw:plane + ch * cw] = b"\x80" * ((ch - self.top // 2) * cw)
            self.base[plane:plane + (self.strip // 2) * cw] = b"\x80" * ((self.strip // 2) * cw)
        self.mark = width // 64
        self.marks = [(width - self.mark, 0, self.ORANGE), (0, height - self.mark, self.CHARTREUSE)] if marks else []
        for plane in (1, 2):
            for start, end, level in self.mark_spans(plane):
                self.base[start:end] = bytes([level]) * (end - start)
        self.pictures = [self.base] if noise == 0 else [self.noisy(noise) for _ in range(self.NOISY_VARIANTS)]
        self.shown = 0

    def mark_spans(self, plane):
        """(start, end, level) of each row of the screen-mark squares in plane 0 (Y), 1 (Cb) or 2 (Cr).
        The side and corners are even, so the squares cover whole 4:2:0 chroma samples."""
        sub = 1 if plane == 0 else 2
        offset = (0, self.w * self.h, self.w * self.h * 5 // 4)[plane]
        side = self.mark // sub
        for x, y, colour in self.marks:
            for row in range(y // sub, y // sub + side):
                start = offset + row * (self.w // sub) + x // sub
                yield start, start + side, colour[plane]

    def noisy(self, amplitude):
        """The picture plus random 0..amplitude on every byte.  The picture's levels are at most 240,
        so no byte overflows and the whole frame can be added as one big integer (no numpy here)."""
        table = bytes(b % (amplitude + 1) for b in range(256))
        noise = os.urandom(len(self.base)).translate(table)
        total = int.from_bytes(self.base, "little") + int.from_bytes(noise, "little")
        return bytearray(total.to_bytes(len(self.base), "little"))

    def frame(self):
        """The next picture, I420, with the clock as it is now."""
        value = int(time.time() * 1000) & 0xFFFFFFFF
        bw = self.w // 32
        row = b"".join((b"\xeb" if (value >> (31 - bit)) & 1 else b"\x10") * bw for bit in range(32))
        data = self.pictures[self.shown % len(self.pictures)][:]
        self.shown += 1
        data[self.top * self.w:self.h * self.w] = row * (self.h - self.top)
        data[0:self.strip * self.w] = row * self.strip
        for start, end, level in self.mark_spans(0):  # luma after the strips: a mark may lie in one
            data[start:end] = bytes([level]) * (end - start)
        return bytes(data)
