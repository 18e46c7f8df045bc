// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the sphere raster path (point_cloud.*) and the compute splat path
// (sphere_splat.comp, sphere_resolve.frag), so both produce the same pixels.
// Assembled after the "#version" line; declares no stage inputs or outputs.
uniform int uColorMode;  // 0 uniform, 1 scalar via colormap, 2 category palette
uniform vec3 uUniformColor;
uniform vec2 uScalarRange;
uniform sampler1D uColormap;
uniform vec3 uPalette[16];
uniform float uRadiusOverride;  // > 0: every sphere gets this radius

vec3 sphereColor(float scalar, uint category) {
    if (uColorMode == 1) {
        float span = max(uScalarRange.y - uScalarRange.x, 1e-30);
        return texture(uColormap, clamp((scalar - uScalarRange.x) / span, 0.0, 1.0)).rgb;
    }
    if (uColorMode == 2) return uPalette[category % 16u];
    return uUniformColor;
}

float sphereRadius(float stored) {
    return uRadiusOverride > 0.0 ? uRadiusOverride : stored;
}

// The eye sits at the view-space origin and looks along the unit vector `ray`. True, with
// the distance to the nearer intersection, when the ray meets the sphere. `precise` keeps
// the compiler from evaluating this differently in different callers: the splat path
// compares depths computed twice for equality.
bool intersectSphere(vec3 ray, vec3 center, float radius, out float t) {
    precise float b = dot(ray, center);
    precise float c = dot(center, center) - radius * radius;
    precise float disc = b * b - c;
    t = b - sqrt(max(disc, 0.0));
    return disc >= 0.0;
}

// Window-space depth (default depth range) of a view-space point.
float windowDepth(mat4 projection, vec3 viewPoint) {
    precise vec4 clip = projection * vec4(viewPoint, 1.0);
    return 0.5 * (clip.z / clip.w) + 0.5;
}

// Head light: ambient + diffuse + a small specular highlight.
vec4 shadeSphere(vec3 color, vec3 ray, vec3 normal) {
    float diffuse = max(dot(normal, -ray), 0.0);
    float specular = pow(max(dot(reflect(ray, normal), -ray), 0.0), 32.0);
    return vec4(color * (0.25 + 0.75 * diffuse) + vec3(0.2 * specular), 1.0);
}
