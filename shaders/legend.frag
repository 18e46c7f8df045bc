// SPDX-License-Identifier: GPL-3.0-or-later
#version 450 core
in vec4 vColor;
layout(location = 0) out vec4 fragColor;
void main() { fragColor = vColor; }
