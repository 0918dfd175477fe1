#version 330 core
// Solids: lit and opaque. Containers: glassy, mostly transparent with a Fresnel rim, so the
// fluid inside stays visible while the walls still read as walls.
in vec3 vNormalView;
in vec3 vPosView;
uniform vec3 baseColor;
uniform vec3 lightDirView;
uniform int glass;        // 1 for containers
uniform float opacity;    // containers: base opacity
out vec4 fragColor;
void main() {
    vec3 n = normalize(vNormalView);
    if (!gl_FrontFacing) n = -n;
    vec3 toEye = normalize(-vPosView);
    float diffuse = max(dot(n, lightDirView), 0.0);
    vec3 h = normalize(lightDirView + toEye);
    float specular = pow(max(dot(n, h), 0.0), 64.0);
    if (glass == 1) {
        float fresnel = pow(1.0 - abs(dot(n, toEye)), 3.0);
        vec3 c = baseColor * (0.5 + 0.5 * diffuse) + vec3(0.8) * specular;
        fragColor = vec4(c, clamp(opacity + 0.6 * fresnel + 0.5 * specular, 0.0, 1.0));
    } else {
        float hemi = 0.5 + 0.5 * n.y;  // sky above, ground below
        vec3 ambient = baseColor * mix(vec3(0.10, 0.09, 0.08), vec3(0.22, 0.24, 0.30), hemi);
        fragColor = vec4(ambient + baseColor * 0.8 * diffuse + vec3(0.35) * specular, 1.0);
    }
}
