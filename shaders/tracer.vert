#version 330 core
// Tracers: one GL point each, coloured by the density deviation sampled at the tracer.
// Dots have a size in world units (perspective) or in pixels; dots smaller than a pixel fade
// instead of shrinking, so the dye keeps its brightness at any zoom. Farther dots are dimmer,
// which gives a dense cloud its depth.
layout(location = 0) in vec3 position;
layout(location = 1) in float density;

uniform mat4 view;
uniform mat4 projection;
uniform float pointSize;        // pixels (perspective == 0) or world units (perspective == 1)
uniform int perspective;
uniform float viewportHeight;   // pixels
uniform float minPointSize;     // pixels
uniform float colorRange;
uniform float alpha;
uniform float focusDistance;    // distance from the eye to the orbit target
uniform float depthRange;       // scene radius: depth cue goes over +-depthRange around focus

out vec4 vColor;

#include "colormap.glsl"

void main() {
    vec4 pView = view * vec4(position, 1.0);
    gl_Position = projection * pView;
    float size = pointSize;
    if (perspective == 1) size = pointSize * projection[1][1] * 0.5 * viewportHeight / max(-pView.z, 1e-4);
    float a = alpha;
    if (size < minPointSize) {
        a *= (size * size) / (minPointSize * minPointSize);
        size = minPointSize;
    }
    gl_PointSize = min(size, 64.0);
    float depthCue = mix(1.15, 0.55, smoothstep(-depthRange, depthRange, -pView.z - focusDistance));
    vColor = vec4(densityColor(density, colorRange) * depthCue, a);
}
