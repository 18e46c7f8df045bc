#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes assets/meshes/capsule.obj: a closed rod-shaped cell (E. coli as in Roberts et al.
# 2009, Fig. 5c: 2 um long, 0.8 um in diameter), a cylinder with hemispherical caps along z,
# centred at the origin. 1 OBJ unit = 1 um. Deterministic: the same file on every run.
#   usage: tools/make_capsule_mesh.py [output.obj]   (default: assets/meshes/capsule.obj)
import math
import os
import sys

LENGTH = 2.0  # um, pole to pole
RADIUS = 0.4  # um
SEGMENTS = 64  # around the axis
CAP_RINGS = 16  # latitude steps from a pole to the equator
BODY_RINGS = 12  # steps along the cylinder

half = LENGTH / 2 - RADIUS  # z of the caps' equators
rings = []  # (z, ring radius), bottom to top, poles excluded
for i in range(1, CAP_RINGS + 1):
    phi = -math.pi / 2 + i * (math.pi / 2) / CAP_RINGS
    rings.append((-half + RADIUS * math.sin(phi), RADIUS * math.cos(phi)))
for i in range(1, BODY_RINGS + 1):
    rings.append((-half + i * 2 * half / BODY_RINGS, RADIUS))
for i in range(1, CAP_RINGS):
    phi = i * (math.pi / 2) / CAP_RINGS
    rings.append((half + RADIUS * math.sin(phi), RADIUS * math.cos(phi)))

vertices = [(0.0, 0.0, -LENGTH / 2)]  # bottom pole
for z, rho in rings:
    for j in range(SEGMENTS):
        theta = 2 * math.pi * j / SEGMENTS
        vertices.append((rho * math.cos(theta), rho * math.sin(theta), z))
vertices.append((0.0, 0.0, LENGTH / 2))  # top pole

def ring(r, j):  # 0-based vertex index of ring r, segment j
    return 1 + r * SEGMENTS + j % SEGMENTS

faces = []  # counter-clockwise seen from outside
for j in range(SEGMENTS):
    faces.append((0, ring(0, j + 1), ring(0, j)))
for r in range(len(rings) - 1):
    for j in range(SEGMENTS):
        a, a1, b, b1 = ring(r, j), ring(r, j + 1), ring(r + 1, j), ring(r + 1, j + 1)
        faces.append((a, a1, b1))
        faces.append((a, b1, b))
top = len(vertices) - 1
for j in range(SEGMENTS):
    faces.append((ring(len(rings) - 1, j), ring(len(rings) - 1, j + 1), top))

# Volume of the polyhedron (divergence theorem) next to the analytic capsule's: the mesh's
# corners lie on the capsule, so it is slightly smaller.
def fmt(x):
    s = "%.6f" % x
    return "0.000000" if s == "-0.000000" else s
coords = [tuple(float(fmt(c)) for c in v) for v in vertices]
volume = 0.0
for a, b, c in faces:
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = coords[a], coords[b], coords[c]
    volume += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)
volume /= 6
analytic = math.pi * RADIUS**2 * 2 * half + 4 / 3 * math.pi * RADIUS**3

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "assets", "meshes", "capsule.obj")
with open(out, "w") as f:
    f.write("# SPDX-License-Identifier: GPL-3.0-or-later\n")
    f.write("# Closed capsule (rod-shaped cell, E. coli): %g um long, %g um in diameter, axis z,\n"
            % (LENGTH, 2 * RADIUS))
    f.write("# centred at the origin. Units: 1 OBJ unit = 1 um.\n")
    f.write("# Written by tools/make_capsule_mesh.py: %d vertices, %d triangles; enclosed volume\n"
            % (len(vertices), len(faces)))
    f.write("# %.6f um^3 (analytic capsule pi r^2 L + 4/3 pi r^3 = %.6f um^3).\n"
            % (volume, analytic))
    for v in vertices:
        f.write("v %s %s %s\n" % tuple(fmt(c) for c in v))
    for a, b, c in faces:
        f.write("f %d %d %d\n" % (a + 1, b + 1, c + 1))
