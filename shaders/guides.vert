// SPDX-License-Identifier: GPL-3.0-or-later
// Guides (domain box, axes, planes): plain positions with one colour per draw.
#version 450 core
layout(location = 0) in vec3 aPosition;
uniform mat4 uViewProjection;
void main() { gl_Position = uViewProjection * vec4(aPosition, 1.0); }
