#pragma once
// The one place the demo includes OpenGL: the glad 2 loader generated at build time for
// OpenGL 3.3 core. Include this before GLFW (which is told not to include GL itself).
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
