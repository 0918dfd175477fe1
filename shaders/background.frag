#version 330 core
// Vertical gradient with a soft vignette, so the scene never sits on a flat black.
in vec2 vUv;
uniform vec3 topColor;
uniform vec3 bottomColor;
out vec4 fragColor;
void main() {
    vec3 c = mix(bottomColor, topColor, smoothstep(0.0, 1.0, vUv.y));
    vec2 d = vUv - vec2(0.5);
    c *= 1.0 - 0.35 * dot(d, d);
    // Tiny dither breaks the banding of an 8-bit gradient.
    float n = fract(sin(dot(gl_FragCoord.xy, vec2(12.9898, 78.233))) * 43758.5453);
    fragColor = vec4(c + (n - 0.5) / 255.0, 1.0);
}
