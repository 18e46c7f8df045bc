#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes the tiny mesh assets of tests/render/test_scene.cpp (run from this folder). The
# counts the tests expect are stated next to each file.
import base64
import json
import struct

# Cube [-1, 1]^3 with one normal per face: 6 quads -> 12 triangles, 24 vertices (a corner
# has three normals, so JoinIdenticalVertices keeps three copies of it).
corners = [(x, y, z) for z in (-1, 1) for y in (-1, 1) for x in (-1, 1)]
faces = [  # counter-clockwise seen from outside, with the face normal
    ((0, 2, 3, 1), (0, 0, -1)), ((4, 5, 7, 6), (0, 0, 1)),
    ((0, 1, 5, 4), (0, -1, 0)), ((2, 6, 7, 3), (0, 1, 0)),
    ((0, 4, 6, 2), (-1, 0, 0)), ((1, 3, 7, 5), (1, 0, 0))]
with open("cube.obj", "w") as f:
    f.write("# SPDX-License-Identifier: GPL-3.0-or-later\n# Cube [-1,1]^3, face normals\n")
    for c in corners:
        f.write("v %g %g %g\n" % c)
    for _, n in faces:
        f.write("vn %g %g %g\n" % n)
    for i, (quad, _) in enumerate(faces):
        f.write("f " + " ".join("%d//%d" % (q + 1, i + 1) for q in quad) + "\n")

# Tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1): 4 vertices, 4 triangles, smooth normals.
with open("tetrahedron.ply", "w") as f:
    f.write("ply\nformat ascii 1.0\ncomment SPDX-License-Identifier: GPL-3.0-or-later\n"
            "element vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
            "element face 4\nproperty list uchar int vertex_indices\nend_header\n"
            "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n")

# Square pyramid, base [-1,1]^2 at z = 0, apex (0, 0, 2), ASCII STL: 6 triangles; the two
# base triangles share two vertices (same facet normal), the sides share none: 16 vertices.
apex, base = (0, 0, 2), [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
def facet(a, b, c):
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    length = sum(x * x for x in n) ** 0.5
    out = "facet normal %g %g %g\n outer loop\n" % tuple(x / length for x in n)
    for p in (a, b, c):
        out += "  vertex %g %g %g\n" % p
    return out + " endloop\nendfacet\n"
with open("pyramid.stl", "w") as f:
    f.write("solid pyramid\n")
    f.write(facet(base[0], base[2], base[1]) + facet(base[0], base[3], base[2]))
    for i in range(4):
        f.write(facet(base[i], base[(i + 1) % 4], apex))
    f.write("endsolid pyramid\n")

# glTF 2.0, one buffer embedded as base64: a unit quad in z = 0 (4 vertices, 2 triangles)
# used by two nodes under a root translated by (0, 0, 1): one copy as is, one rotated 90
# degrees about x (into the plane y = 0) and moved by (2, 0, 0). Merged: 8 vertices, 4
# triangles, bounds (0, 0, 1) - (3, 1, 2).
positions = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
indices = [0, 1, 2, 0, 2, 3]
blob = b"".join(struct.pack("<3f", *p) for p in positions) + struct.pack("<6H", *indices)
s = 0.5 ** 0.5
gltf = {
    "asset": {"version": "2.0", "copyright": "SPDX-License-Identifier: GPL-3.0-or-later"},
    "scene": 0,
    "scenes": [{"nodes": [0]}],
    "nodes": [{"name": "root", "translation": [0, 0, 1], "children": [1, 2]},
              {"name": "flat", "mesh": 0},
              {"name": "upright", "mesh": 0, "translation": [2, 0, 0],
               "rotation": [s, 0, 0, s]}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
    "buffers": [{"byteLength": len(blob),
                 "uri": "data:application/octet-stream;base64," +
                        base64.b64encode(blob).decode()}],
    "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48, "target": 34962},
                    {"buffer": 0, "byteOffset": 48, "byteLength": 12, "target": 34963}],
    "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                   "min": [0, 0, 0], "max": [1, 1, 0]},
                  {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}],
}
with open("two_quads.gltf", "w") as f:
    json.dump(gltf, f, indent=1)
    f.write("\n")
