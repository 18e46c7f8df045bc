// SPDX-License-Identifier: GPL-3.0-or-later
// Head-light shading of the arrow mesh (two-sided, so the shading does not depend on the
// mesh's winding).
#version 450 core
in vec3 vViewPosition;
in vec3 vViewNormal;
flat in vec3 vColor;

uniform int uOrthographic;  // 1: every view ray is -z

layout(location = 0) out vec4 fragColor;

void main() {
    vec3 ray = uOrthographic == 1 ? vec3(0.0, 0.0, -1.0) : normalize(vViewPosition);
    vec3 normal = normalize(vViewNormal);
    if (dot(normal, ray) > 0.0) normal = -normal;
    float diffuse = max(dot(normal, -ray), 0.0);
    float specular = pow(max(dot(reflect(ray, normal), -ray), 0.0), 32.0);
    fragColor = vec4(vColor * (0.3 + 0.7 * diffuse) + vec3(0.15 * specular), 1.0);
}
