#version 330 core
// Vortons as instanced camera-facing quads; the fragment shader turns each into a lit sphere.
layout(location = 0) in vec2 corner;     // quad corner in [-1, 1]^2
layout(location = 1) in vec3 center;     // per instance: world position
layout(location = 2) in float radius;    // per instance: core radius sigma (world units)
layout(location = 3) in float scalar;    // per instance: density deviation or |vorticity|

uniform mat4 view;
uniform mat4 projection;
uniform float radiusScale;
uniform int colorMode;
uniform float colorRange;
uniform int sizeByValue;  // 1: radius times sqrt(|value| / range), calm vortons vanish

out vec2 vCorner;
out vec3 vCenterView;
out float vRadius;
out vec3 vColor;

#include "colormap.glsl"

void main() {
    vRadius = radius * radiusScale;
    if (sizeByValue == 1) vRadius *= sqrt(clamp(abs(scalar) / max(colorRange, 1e-12), 0.0, 1.0));
    vCenterView = (view * vec4(center, 1.0)).xyz;
    vCorner = corner;
    vColor = particleColor(colorMode, scalar, colorRange);
    // Slightly larger quad so the sphere's silhouette is not clipped under perspective.
    vec3 p = vCenterView + vec3(corner * vRadius * 1.15, 0.0);
    gl_Position = projection * vec4(p, 1.0);
}
