// SPDX-License-Identifier: GPL-3.0-or-later
// Triangle meshes: positions and normals to view space for per-pixel head-light shading.
#version 450 core
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in float aScalar;  // constant 0 when the mesh has no scalars

uniform mat4 uModelView;
uniform mat4 uProjection;
uniform mat3 uNormalMatrix;  // inverse transpose of the model-view's 3x3 part

out vec3 vViewPosition;
out vec3 vNormal;
out float vScalar;

void main() {
    vec4 viewPosition = uModelView * vec4(aPosition, 1.0);
    vViewPosition = viewPosition.xyz;
    vNormal = uNormalMatrix * aNormal;
    vScalar = aScalar;
    gl_Position = uProjection * viewPosition;
}
