#version 330 core
// Rigid bodies: triangle meshes in the body frame placed by a model matrix.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 model;
uniform mat4 view;
uniform mat4 projection;
out vec3 vNormalView;
out vec3 vPosView;
void main() {
    vec4 pView = view * model * vec4(position, 1.0);
    vPosView = pView.xyz;
    vNormalView = mat3(view) * mat3(model) * normal;  // rigid motion: no scaling to undo
    gl_Position = projection * pView;
}
