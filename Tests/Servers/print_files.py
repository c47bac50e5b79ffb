#!/usr/bin/env python3
"""Print files as slicers write them, for the tests of what a file says about itself
(PrintFileHeaderTests): not a server. Each command writes one file and prints one JSON line saying
what it put there (the thumbnails' sizes, the SHA-256 of a QOI thumbnail's pixels).

  print_files.py gcode OUT --style prusa|superslicer|orca|bambu|cura [--png WxH] [--jpeg WxH] [--qoi WxH]
                 [--body-bytes N] [--garbage-base64] [--wrong-length] [--huge-png]
  print_files.py bgcode OUT [--checksum crc32|none] [--compression deflate|none] [--png WxH] [--qoi WxH]
                 [--bad-crc] [--bad-qoi] [--truncate N] [--huge-block] [--bomb]
  print_files.py 3mf OUT [--plates N] [--unsliced] [--stream] [--zip64] [--bomb] [--prusa]
  print_files.py png-pixels FILE          (the SHA-256 of a PNG's RGBA pixels, any filter)

Binary G-code follows libbgcode's doc/specifications.md (github prusa3d/libbgcode): a 10-byte file
header (GCDE, version 1, checksum type), then blocks of header (type, compression, sizes),
parameters, data and a CRC-32 over all three. A 3MF is written by Python's zipfile.
"""
import argparse
import base64
import hashlib
import io
import json
import os
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib


def pixels(width, height, seed=0):
    """RGBA rows with gradients, flat runs and a transparent corner: every QOI operation occurs."""
    rows = []
    for y in range(height):
        row = bytearray()
        for x in range(width):
            if x < width // 4:
                row += bytes((200, 30, 30, 255))  # runs
            elif y < height // 4:
                row += bytes((x * 7 % 256, y * 3 % 256, (x + y + seed) % 256, 0 if x > width * 3 // 4 else 255))
            else:
                row += bytes(((x + seed) % 256, (y * 2) % 256, (x * y) % 256, 255))
        rows.append(bytes(row))
    return rows


def png(width, height, seed=0, declared=None):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + row for row in pixels(width, height, seed))
    w, h = declared or (width, height)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def jpeg(width, height):
    with tempfile.TemporaryDirectory() as folder:
        source, target = os.path.join(folder, "in.png"), os.path.join(folder, "out.jpg")
        with open(source, "wb") as f:
            f.write(png(width, height))
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", source, target], check=True)
        with open(target, "rb") as f:
            return f.read()


def qoi(width, height, seed=0):
    """The reference encoder (qoiformat.org's qoi.h): index, diff, luma, run, RGB and RGBA ops."""
    out = bytearray(b"qoif" + struct.pack(">IIBB", width, height, 4, 0))
    index = [(0, 0, 0, 0)] * 64
    previous, run = (0, 0, 0, 255), 0
    flat = [tuple(row[i:i + 4]) for row in pixels(width, height, seed) for i in range(0, len(row), 4)]
    for n, px in enumerate(flat):
        if px == previous:
            run += 1
            if run == 62 or n == len(flat) - 1:
                out.append(0xC0 | (run - 1))
                run = 0
            continue
        if run:
            out.append(0xC0 | (run - 1))
            run = 0
        slot = (px[0] * 3 + px[1] * 5 + px[2] * 7 + px[3] * 11) % 64
        if index[slot] == px:
            out.append(slot)
        else:
            index[slot] = px
            if px[3] == previous[3]:
                dr, dg, db = ((px[i] - previous[i] + 128) % 256 - 128 for i in range(3))
                dr_dg, db_dg = dr - dg, db - dg
                if -2 <= dr <= 1 and -2 <= dg <= 1 and -2 <= db <= 1:
                    out.append(0x40 | (dr + 2) << 4 | (dg + 2) << 2 | (db + 2))
                elif -32 <= dg <= 31 and -8 <= dr_dg <= 7 and -8 <= db_dg <= 7:
                    out += bytes((0x80 | (dg + 32), (dr_dg + 8) << 4 | (db_dg + 8)))
                else:
                    out += bytes((0xFE,) + px[:3])
            else:
                out += bytes((0xFF,) + px)
        previous = px
    out += b"\x00" * 7 + b"\x01"
    return bytes(out), hashlib.sha256(b"".join(bytes(p) for p in flat)).hexdigest()


def size(text):
    w, h = text.split("x")
    return int(w), int(h)


def thumbnail_block(label, width, height, data, wrong_length=False):
    encoded = base64.b64encode(data).decode()
    length = len(encoded) + (4 if wrong_length else 0)
    lines = [f"; {label} begin {width}x{height} {length}"]
    lines += ["; " + encoded[i:i + 78] for i in range(0, len(encoded), 78)]
    lines += [f"; {label} end", ";", ""]
    return "\n".join(lines)


def gcode(args):
    said = {"thumbnails": []}
    blocks = []
    if args.png:
        w, h = size(args.png)
        data = png(w, h)
        if args.garbage_base64:
            encoded = base64.b64encode(data).decode()
            blocks.append(f"; thumbnail begin {w}x{h} {len(encoded)}\n; " + "!*?#" * (len(encoded) // 4) + "\n; thumbnail end\n;\n")
        else:
            blocks.append(thumbnail_block("thumbnail", w, h, data, args.wrong_length))
        said["thumbnails"].append([w, h])
    if args.huge_png:
        blocks.append(thumbnail_block("thumbnail", 100000, 100000, png(8, 8, declared=(100000, 100000))))
    if args.jpeg:
        w, h = size(args.jpeg)
        blocks.append(thumbnail_block("thumbnail_JPG", w, h, jpeg(w, h)))
        said["thumbnails"].append([w, h])
    if args.qoi:
        w, h = size(args.qoi)
        data, digest = qoi(w, h)
        blocks.append(thumbnail_block("thumbnail_QOI", w, h, data))
        said["thumbnails"].append([w, h])
        said["qoi_sha256"] = digest
    thumbnails = "".join(blocks)
    style = args.style
    if style in ("prusa", "superslicer"):
        name = "PrusaSlicer 2.7.1+linux-x64-GTK3" if style == "prusa" else "SuperSlicer 2.5.59.13"
        head = (f"; generated by {name} on 2024-03-01 at 10:00:00 UTC\n\n;\n" + thumbnails
                + '; objects_info = {"objects":[{"name":"cube.stl id:0 copy 0","polygon":[[1,1],[2,2]]},'
                  '{"name":"clip.stl id:1 copy 0","polygon":[[3,3],[4,4]]}]}\n'
                + "M73 P0 R62\nG28 ; home\n")
        tail = ("M107\n; filament used [mm] = 1234.56, 100.00\n; filament used [cm3] = 3.21\n"
                "; filament used [g] = 3.70, 0.30\n; filament cost = 0.08\n; total filament used [g] = 4.00\n"
                "; total filament cost = 0.08\n; estimated printing time (normal mode) = 1d 2h 3m 4s\n"
                "; estimated first layer printing time (normal mode) = 1m 8s\n\n; prusaslicer_config = begin\n"
                "; layer_height = 0.15\n; nozzle_diameter = 0.4\n; prusaslicer_config = end\n")
    elif style in ("orca", "bambu"):
        name = "; generated by OrcaSlicer 2.1.1 on 2024-03-01 at 10:00:00" if style == "orca" else "; BambuStudio 01.09.00.70"
        head = ("; HEADER_BLOCK_START\n" + name + "\n"
                "; model printing time: 41m 20s; total estimated time: 47m 43s\n; total layer number: 75\n"
                "; total filament length [mm] : 2584.33\n; total filament volume [cm^3] : 6215.96\n"
                "; total filament weight [g] : 7.71\n; filament_density: 1.24\n; HEADER_BLOCK_END\n\n"
                "; THUMBNAIL_BLOCK_START\n" + thumbnails + "; THUMBNAIL_BLOCK_END\n\n"
                "; CONFIG_BLOCK_START\n; layer_height = 0.2\n; CONFIG_BLOCK_END\n\nG28\n")
        tail = "M107\n; EXECUTABLE_BLOCK_END\n"
    else:  # cura
        head = (";FLAVOR:Marlin\n;TIME:6666\n;Filament used: 1.23456m, 0.5m\n;Layer height: 0.12\n"
                ";MINX:10\n;MAXZ:20\n" + thumbnails + ";Generated with Cura_SteamEngine 5.6.0\n"
                ";LAYER_COUNT:150\n;LAYER:0\nG28\n")
        tail = ";TIME_ELAPSED:6666.0\nM107\n;End of Gcode\n"
    with open(args.out, "w") as f:
        f.write(head)
        line = "G1 X100.125 Y100.125 E0.01234 F1800\n"
        chunk = line * (1024 * 1024 // len(line))
        written = 0
        while written + len(chunk) <= args.body_bytes:
            f.write(chunk)
            written += len(chunk)
        f.write(line * ((args.body_bytes - written) // len(line)))
        f.write(tail)
    print(json.dumps(said), flush=True)


def block(kind, compression, parameters, data, checksum):
    stored = zlib.compress(data) if compression == 1 else data
    header = struct.pack("<HHI", kind, compression, len(data))
    if compression:
        header += struct.pack("<I", len(stored))
    body = header + parameters + stored
    return body + (struct.pack("<I", zlib.crc32(body)) if checksum else b"")


def ini(pairs):
    return "".join(f"{k}={v}\n" for k, v in pairs).encode()


def bgcode(args):
    checksum = args.checksum == "crc32"
    metadata_compression = 1 if args.compression == "deflate" else 0
    encoding = struct.pack("<H", 0)  # INI
    said = {"thumbnails": []}
    out = b"GCDE" + struct.pack("<IH", 1, 1 if checksum else 0)
    out += block(0, metadata_compression, encoding, ini([("Producer", "PrusaSlicer 2.8.1")]), checksum)
    printer = [("printer_model", "MK4S"), ("filament_type", "PETG"), ("nozzle_diameter", "0.4"),
               ("layer_height", "0.25"), ("filament used [mm]", "986.61"), ("filament used [g]", "3.01"),
               ("estimated printing time (normal mode)", "32m 6s")]
    out += block(3, metadata_compression, encoding, ini(printer), checksum)
    if args.png:
        w, h = size(args.png)
        out += block(5, 0, struct.pack("<HHH", 0, w, h), png(w, h), checksum)
        said["thumbnails"].append([w, h])
    if args.bad_qoi:
        # Declares 2000x2000 and holds a few pixels.
        data = b"qoif" + struct.pack(">IIBB", 2000, 2000, 4, 0) + b"\xfe\x10\x20\x30" * 8
        out += block(5, 0, struct.pack("<HHH", 2, 2000, 2000), data, checksum)
    if args.qoi:
        w, h = size(args.qoi)
        data, digest = qoi(w, h)
        out += block(5, 0, struct.pack("<HHH", 2, w, h), data, checksum)
        said["thumbnails"].append([w, h])
        said["qoi_sha256"] = digest
    if args.bomb:
        # Declares 1000 bytes, inflates to 64 MiB.
        stored = zlib.compress(b"a" * (64 * 1024 * 1024))
        body = struct.pack("<HHII", 4, 1, 1000, len(stored)) + encoding + stored
        out += body + (struct.pack("<I", zlib.crc32(body)) if checksum else b"")
    if args.huge_block:
        out += struct.pack("<HHII", 4, 1, 0xFFFFFFF0, 0xFFFFFFF0) + encoding
    print_metadata = [("filament used [mm]", "1234.50"), ("filament used [cm3]", "2.97"), ("filament used [g]", "3.68"),
                      ("filament cost", "0.08"), ("total filament used [g]", "3.68"),
                      ("estimated printing time (normal mode)", "1h 2m 3s"),
                      ("estimated first layer printing time (normal mode)", "1m 8s")]
    bad_at = len(out)
    out += block(4, metadata_compression, encoding, ini(print_metadata), checksum)
    out += block(2, metadata_compression, encoding, ini([("layer_height", "0.25"), ("perimeters", "2")]), checksum)
    out += block(1, 0, struct.pack("<H", 0), b"G28\nG1 X10 Y10 F3000\n" * 100, checksum)
    if args.bad_crc:
        out = bytearray(out)
        out[bad_at + 16] ^= 0x01  # a byte of the print metadata's data
        out = bytes(out)
    if args.truncate:
        out = out[:args.truncate]
    with open(args.out, "wb") as f:
        f.write(out)
    print(json.dumps(said), flush=True)


class Unseekable(io.RawIOBase):
    """A stream zipfile cannot seek back in, so it writes each entry's sizes in a data descriptor."""
    def __init__(self, target):
        self.target = target

    def writable(self):
        return True

    def write(self, data):
        return self.target.write(data)


def slice_info(plates):
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<config>", "  <header>",
             '    <header_item key="X-BBL-Client-Type" value="slicer"/>',
             '    <header_item key="X-BBL-Client-Version" value="01.09.00.70"/>', "  </header>"]
    for p in plates:
        lines += ["  <plate>", f'    <metadata key="index" value="{p["number"]}"/>',
                  '    <metadata key="printer_model_id" value="C12"/>',
                  f'    <metadata key="prediction" value="{p["seconds"]}"/>',
                  f'    <metadata key="weight" value="{p["grams"]:.2f}"/>',
                  '    <metadata key="outside" value="false"/>']
        lines += [f'    <object identify_id="{70 + i}" name="part &amp; {i}" skipped="false" />' for i in range(p["objects"])]
        lines += [f'    <filament id="{i + 1}" tray_info_idx="GFA00" type="PLA" color="#FFFFFF" used_m="{m}" used_g="{g}" />'
                  for i, (m, g) in enumerate(p["filaments"])]
        lines += ["  </plate>"]
    return "\n".join(lines + ["</config>", ""])


def project(args):
    said = {"plates": []}
    if args.zip64:
        zipfile.ZIP64_LIMIT = 1000  # every entry past 1000 bytes, and the directory, in Zip64 form
        zipfile.ZIP_FILECOUNT_LIMIT = 3
    target = open(args.out, "wb")
    archive = zipfile.ZipFile(Unseekable(target) if args.stream else target, "w", zipfile.ZIP_DEFLATED)
    archive.writestr("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8"?>\n<Types/>\n')
    application = "PrusaSlicer-2.7.1" if args.prusa else "BambuStudio-01.09.00.70"
    model = ('<?xml version="1.0" encoding="UTF-8"?>\n<model unit="millimeter" xml:lang="en-US">\n'
             f' <metadata name="Application">{application}</metadata>\n <resources>\n'
             + " <object id=\"1\"><mesh><vertices>" + '<vertex x="1" y="2" z="3"/>' * 20000 + "</vertices></mesh></object>\n"
             + " </resources>\n</model>\n")
    archive.writestr("3D/3dmodel.model", model)
    if args.prusa:
        archive.writestr("Metadata/thumbnail.png", png(64, 48))
        said["thumbnail"] = [64, 48]
    plates = []
    for n in range(1, args.plates + 1):
        w, h = 40 + 10 * n, 30 + 5 * n
        plate = {"number": n, "seconds": 1000 * n + 7, "grams": 2.5 * n, "objects": n + 1,
                 "filaments": [(1.5 * n, 2.0 * n), (0.25, 0.5 * n)], "thumbnail": [w, h]}
        plates.append(plate)
        archive.writestr(f"Metadata/plate_{n}.png", png(w, h, seed=n))
        archive.writestr(f"Metadata/plate_{n}_small.png", png(8, 8))
        if not args.unsliced:
            archive.writestr(f"Metadata/plate_{n}.gcode", "; HEADER_BLOCK_START\nG28\n" * 500)
            archive.writestr(f"Metadata/plate_{n}.gcode.md5", "0" * 32)
        said["plates"].append(plate)
    if not args.prusa:
        archive.writestr("Metadata/project_settings.config",
                         json.dumps({"layer_height": "0.16", "nozzle_diameter": ["0.4"], "printer_model": "Bambu Lab P1S"}, indent=4))
    if not args.unsliced and plates:
        archive.writestr("Metadata/slice_info.config", slice_info(plates))
    archive.close()
    target.close()
    if args.zip64:
        # As a writer whose numbers overflowed leaves them: the end record says "see the Zip64 one".
        with open(args.out, "r+b") as f:
            data = bytearray(f.read())
            end = data.rfind(b"PK\x05\x06")
            data[end + 8:end + 20] = b"\xff" * 12
            f.seek(0)
            f.write(data)
    if args.bomb:
        bomb_entry(args.out, "Metadata/slice_info.config")
    print(json.dumps(said), flush=True)


def bomb_entry(path, name):
    """Replaces `name`'s data with 64 MiB of deflated zeros while its directory entry still
    declares the size it had: an entry that inflates far past what it says."""
    with open(path, "rb") as f:
        data = bytearray(f.read())
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
        info = archive.getinfo(name)
    bomb = zlib.compressobj(9, zlib.DEFLATED, -15)
    stream = bomb.compress(b"\x00" * (64 * 1024 * 1024)) + bomb.flush()
    name_length, extra_length = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
    start = info.header_offset + 30 + name_length + extra_length
    tail = data[start + info.compress_size:]
    shift = len(stream) - info.compress_size
    data = data[:start] + stream + tail
    # The directory moved by `shift`; this entry's compressed size grows by as much.
    end = data.rfind(b"PK\x05\x06")
    directory_offset = struct.unpack("<I", data[end + 16:end + 20])[0] + shift
    data[end + 16:end + 20] = struct.pack("<I", directory_offset)
    at = directory_offset
    while data[at:at + 4] == b"PK\x01\x02":
        n, e, c = struct.unpack("<HHH", data[at + 28:at + 34])
        entry_name = data[at + 46:at + 46 + n].decode()
        offset = struct.unpack("<I", data[at + 42:at + 46])[0]
        if entry_name == name:
            data[at + 20:at + 24] = struct.pack("<I", len(stream))
        elif offset > info.header_offset:
            data[at + 42:at + 46] = struct.pack("<I", offset + shift)
        at += 46 + n + e + c
    with open(path, "wb") as f:
        f.write(data)


def png_pixels(args):
    """Decodes an 8-bit RGBA PNG with any row filter: the pixels a PNG really holds."""
    with open(args.file, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 6), "8-bit RGBA"
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    raw, stride = zlib.decompress(idat), width * 4
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - 4] if x >= 4 else 0
            b, c = previous[x], previous[x - 4] if x >= 4 else 0
            if kind == 1: line[x] = (line[x] + a) % 256
            elif kind == 2: line[x] = (line[x] + b) % 256
            elif kind == 3: line[x] = (line[x] + (a + b) // 2) % 256
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) % 256
        rows.append(bytes(line))
        previous = line
    print(json.dumps({"width": width, "height": height, "sha256": hashlib.sha256(b"".join(rows)).hexdigest()}), flush=True)


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    g = commands.add_parser("gcode")
    g.add_argument("out")
    g.add_argument("--style", choices=["prusa", "superslicer", "orca", "bambu", "cura"], default="prusa")
    g.add_argument("--png")
    g.add_argument("--jpeg")
    g.add_argument("--qoi")
    g.add_argument("--body-bytes", type=int, default=4096)
    g.add_argument("--garbage-base64", action="store_true")
    g.add_argument("--wrong-length", action="store_true")
    g.add_argument("--huge-png", action="store_true")
    b = commands.add_parser("bgcode")
    b.add_argument("out")
    b.add_argument("--checksum", choices=["crc32", "none"], default="crc32")
    b.add_argument("--compression", choices=["deflate", "none"], default="deflate")
    b.add_argument("--png")
    b.add_argument("--qoi")
    b.add_argument("--bad-crc", action="store_true")
    b.add_argument("--bad-qoi", action="store_true")
    b.add_argument("--truncate", type=int)
    b.add_argument("--huge-block", action="store_true")
    b.add_argument("--bomb", action="store_true")
    m = commands.add_parser("3mf")
    m.add_argument("out")
    m.add_argument("--plates", type=int, default=2)
    m.add_argument("--unsliced", action="store_true")
    m.add_argument("--stream", action="store_true")
    m.add_argument("--zip64", action="store_true")
    m.add_argument("--bomb", action="store_true")
    m.add_argument("--prusa", action="store_true")
    p = commands.add_parser("png-pixels")
    p.add_argument("file")
    args = parser.parse_args()
    {"gcode": gcode, "bgcode": bgcode, "3mf": project, "png-pixels": png_pixels}[args.command](args)


if __name__ == "__main__":
    main()
