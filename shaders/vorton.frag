#version 330 core
// Sphere impostor: reconstructs the sphere surface under the pixel, lights it and writes its
// true depth so spheres intersect each other and the bodies correctly.
in vec2 vCorner;
in vec3 vCenterView;
in float vRadius;
in vec3 vColor;

uniform mat4 projection;
uniform vec3 lightDirView;  // unit, towards the light

out vec4 fragColor;

void main() {
    vec2 q = vCorner * 1.15;
    float r2 = dot(q, q);
    if (r2 > 1.0) discard;
    vec3 n = vec3(q, sqrt(1.0 - r2));
    vec3 pView = vCenterView + n * vRadius;
    vec4 clip = projection * vec4(pView, 1.0);
    gl_FragDepth = clip.z / clip.w * 0.5 + 0.5;

    float diffuse = max(dot(n, lightDirView), 0.0);
    vec3 h = normalize(lightDirView + vec3(0.0, 0.0, 1.0));
    float specular = pow(max(dot(n, h), 0.0), 48.0);
    float rim = pow(1.0 - n.z, 3.0);
    vec3 c = vColor * (0.28 + 0.72 * diffuse) + vec3(0.45) * specular + vColor * 0.35 * rim;
    fragColor = vec4(c, 1.0);
}
