#version 330 core
// Soft round dot; with blending many overlapping dots read as a continuous dye.
in vec4 vColor;
uniform int softPoints;
out vec4 fragColor;
void main() {
    float a = vColor.a;
    if (softPoints != 0) {
        vec2 d = gl_PointCoord * 2.0 - 1.0;
        float r2 = dot(d, d);
        if (r2 > 1.0) discard;
        a *= 1.0 - r2;
    }
    fragColor = vec4(vColor.rgb, a);
}
