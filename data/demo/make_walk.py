#!/usr/bin/env python3
"""Writes walk.gpx and regions.tsv: a synthetic walk through downtown Springfield, Illinois
(made here, not recorded: no licence applies), for the tracking part of geoloc-demo.

A walk from the station past Lincoln Home (a six-minute stop there), through the Old State
Capitol square and back west, one fix every 10 s at about 1.4 m/s with a few meters of
deterministic jitter, and one glitch 1.5 km away that the fix filter drops as a jump.
    python3 data/demo/make_walk.py   (run from the repository root)
"""
import math
import os

LAT0, LON0 = 39.8000, -89.6500
M = 6371008.8 * math.pi / 180


def where(x, y):
    return LAT0 + y / M, LON0 + x / (M * math.cos(math.radians(LAT0)))


legs = [((0, 0), (300, 0)), ((300, 0), (300, 400)), ("stop", 360), ((300, 400), (600, 400)),
        ((600, 400), (600, 800)), ((600, 800), (200, 800))]
points = []
seed = 12345


def jitter():
    global seed
    seed = (seed * 1103515245 + 12345) % 2**31
    return (seed / 2**31 - 0.5) * 6


t = 0
pos = (0.0, 0.0)
for leg in legs:
    if leg[0] == "stop":
        for _ in range(int(leg[1] / 10)):
            points.append((pos[0] + jitter(), pos[1] + jitter(), t))
            t += 10
        continue
    (x0, y0), (x1, y1) = leg
    n = max(1, round(math.hypot(x1 - x0, y1 - y0) / 14))
    for k in range(1 if points else 0, n + 1):
        f = k / n
        points.append((x0 + (x1 - x0) * f + jitter(), y0 + (y1 - y0) * f + jitter(), t))
        t += 10
    pos = (x1, y1)
glitch = len(points) * 2 // 3
x, y, tt = points[glitch]
points[glitch] = (x + 1500, y, tt)

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "walk.gpx"), "w") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write('<gpx version="1.1" creator="libgeoloc make_walk.py" xmlns="http://www.topografix.com/GPX/1/1">\n')
    out.write("<trk><name>A walk in Springfield, IL</name><trkseg>\n")
    for x, y, tt in points:
        lat, lon = where(x, y)
        hh, mm, ss = 14 + tt // 3600, tt // 60 % 60, tt % 60
        ele = 180 + 0.01 * y
        out.write(f'<trkpt lat="{lat:.7f}" lon="{lon:.7f}"><ele>{ele:.1f}</ele>'
                  f"<time>2026-05-01T{hh:02d}:{mm:02d}:{ss:02d}Z</time></trkpt>\n")
    out.write("</trkseg></trk>\n</gpx>\n")


def ll(x, y):
    lat, lon = where(x, y)
    return f"{lat:.6f},{lon:.6f}"


with open(os.path.join(here, "regions.tsv"), "w") as out:
    out.write("# Geofences along walk.gpx (make_walk.py). Columns: id, shape (circle or polygon),\n")
    out.write("# the centre \"lat,lon\" or the vertices \"lat,lon lat,lon ...\", the radius in meters.\n")
    out.write("id\tshape\twhere\tradius_m\n")
    out.write(f"Station\tcircle\t{ll(0, 0)}\t50\n")
    out.write(f"Lincoln Home\tcircle\t{ll(300, 400)}\t60\n")
    out.write(f"Old State Capitol\tcircle\t{ll(600, 650)}\t80\n")
    corners = [(450, 550), (750, 550), (750, 900), (450, 900)]
    out.write("Downtown square\tpolygon\t" + " ".join(ll(*c) for c in corners) + "\t-\n")
