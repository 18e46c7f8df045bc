// SPDX-License-Identifier: GPL-3.0-or-later
// Mesh shading with the point clouds' head light (point_cloud.frag), so meshes and spheres
// side by side look alike. Lit from both sides: open surfaces and meshes with inward
// normals still shade, the side facing the eye decides.
#version 450 core
in vec3 vViewPosition;
in vec3 vNormal;
in float vScalar;

uniform int uByScalar;  // 1: the interpolated scalar through the colormap
uniform vec3 uUniformColor;
uniform vec2 uScalarRange;
uniform sampler1D uColormap;
uniform float uOpacity;

layout(location = 0) out vec4 fragColor;

void main() {
    vec3 ray = normalize(vViewPosition);  // from the eye at the origin
    vec3 normal = normalize(vNormal);
    if (dot(normal, ray) > 0.0) normal = -normal;
    vec3 color = uUniformColor;
    if (uByScalar == 1) {
        // Interpolating the scalar (not the colour) keeps colours on the colormap.
        float t = clamp((vScalar - uScalarRange.x) / max(uScalarRange.y - uScalarRange.x, 1e-30),
                        0.0, 1.0);
        color = texture(uColormap, t).rgb;
    }
    float diffuse = max(dot(normal, -ray), 0.0);
    float specular = pow(max(dot(reflect(ray, normal), -ray), 0.0), 32.0);
    fragColor = vec4(color * (0.25 + 0.75 * diffuse) + vec3(0.2 * specular), uOpacity);
}
