// Colour maps shared by the particle shaders.
// Density deviation: heavy fluid (positive) blue, light (negative) red, neutral a pale dye.
vec3 densityColor(float deviation, float range) {
    float t = clamp(deviation / max(range, 1e-6), -1.0, 1.0);
    vec3 neutral = vec3(0.86, 0.88, 0.92);
    vec3 heavy = vec3(0.16, 0.45, 1.00);
    vec3 light = vec3(1.00, 0.32, 0.18);
    // A gentle curve so small deviations already read as tinted.
    float s = sqrt(abs(t));
    return t >= 0.0 ? mix(neutral, heavy, s) : mix(neutral, light, s);
}

// Vorticity magnitude: an inferno-like ramp from deep violet through orange to pale yellow.
vec3 magnitudeColor(float value, float range) {
    float t = clamp(value / max(range, 1e-6), 0.0, 1.0);
    vec3 c0 = vec3(0.10, 0.05, 0.30);
    vec3 c1 = vec3(0.62, 0.12, 0.50);
    vec3 c2 = vec3(0.98, 0.50, 0.12);
    vec3 c3 = vec3(1.00, 0.95, 0.65);
    if (t < 0.33) return mix(c0, c1, t / 0.33);
    if (t < 0.66) return mix(c1, c2, (t - 0.33) / 0.33);
    return mix(c2, c3, (t - 0.66) / 0.34);
}

// colorMode 0: density deviation, 1: magnitude.
vec3 particleColor(int colorMode, float scalar, float range) {
    return colorMode == 0 ? densityColor(scalar, range) : magnitudeColor(scalar, range);
}
