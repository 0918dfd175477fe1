#version 330 core
in vec4 vColor;
uniform vec4 tint;
out vec4 fragColor;
void main() {
    fragColor = vColor * tint;
}
