#version 330 core
// Coloured line segments: density-gradient arrows, grid bounds, container edges.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 color;
uniform mat4 viewProjection;
uniform mat4 model;
out vec4 vColor;
void main() {
    gl_Position = viewProjection * model * vec4(position, 1.0);
    vColor = color;
}
