#!/usr/bin/env python3
"""Writes Examples/texture.png and Examples/texture.jpg, the small picture the README's commands
use as a layer's content: 128 × 128 pixels, opaque, a wheel of twelve hues around the centre with
rings of brightness, and a white square in the top-left corner so that orientation shows.

The PNG is written here (zlib, no other module); the JPEG is the same pixels through cjpeg
(Debian: libjpeg-turbo-progs) at quality 90. Run from anywhere: scripts/make-textures.py
"""
import colorsys
import math
import os
import struct
import subprocess
import sys
import zlib

SIZE = 128
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Examples")


def pixel(x, y):
    if x < 16 and y < 16:
        return (255, 255, 255)
    dx, dy = (x + 0.5) / SIZE - 0.5, (y + 0.5) / SIZE - 0.5
    # Twelve hues around the centre and four rings of brightness: flat areas, which both
    # formats keep small.
    hue = math.floor(12 * ((math.atan2(dy, dx) / (2 * math.pi)) % 1.0)) / 12
    value = 1.0 - 0.15 * (math.floor(8 * math.hypot(dx, dy)) % 4)
    return tuple(round(255 * c) for c in colorsys.hsv_to_rgb(hue, 0.75, value))


rows = [[pixel(x, y) for x in range(SIZE)] for y in range(SIZE)]


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def sub_filtered(row):
    """PNG filter 1 (Sub): each byte minus the same channel of the pixel to its left."""
    data = bytes(c for p in row for c in p)
    return b"\x01" + bytes((data[i] - (data[i - 3] if i >= 3 else 0)) & 0xFF for i in range(len(data)))


raw = b"".join(sub_filtered(row) for row in rows)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
with open(os.path.join(root, "texture.png"), "wb") as f:
    f.write(png)

ppm = b"P6 %d %d 255\n" % (SIZE, SIZE) + bytes(c for row in rows for p in row for c in p)
jpeg = subprocess.run(["cjpeg", "-quality", "90", "-optimize"], input=ppm, capture_output=True, check=True).stdout
with open(os.path.join(root, "texture.jpg"), "wb") as f:
    f.write(jpeg)
print("wrote Examples/texture.png (%d bytes) and Examples/texture.jpg (%d bytes)" % (len(png), len(jpeg)), file=sys.stderr)
