#pragma once
// GLSL programs loaded from shaders/ at run time. A missing file or a compile/link error throws
// ShaderError whose message names the file and carries the driver's log.
#include "render/gl.hpp"

#include <glm/glm.hpp>

#include <stdexcept>
#include <string>
#include <unordered_map>

namespace vfx {

class ShaderError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Reads a shader source; lines `#include "file.glsl"` are replaced by that file (same
// directory, one level deep is all the shaders need).
std::string loadShaderSource(const std::string& directory, const std::string& fileName);

class ShaderProgram {
public:
    ShaderProgram() = default;
    ~ShaderProgram();
    ShaderProgram(const ShaderProgram&) = delete;
    ShaderProgram& operator=(const ShaderProgram&) = delete;

    // Builds <dir>/<name>.vert + <dir>/<name>.frag.
    void load(const std::string& directory, const std::string& name);
    void use() const { glUseProgram(program_); }
    GLuint id() const { return program_; }
    const std::string& name() const { return name_; }

    void set(const char* uniform, float v);
    void set(const char* uniform, int v);
    void set(const char* uniform, const glm::vec2& v);
    void set(const char* uniform, const glm::vec3& v);
    void set(const char* uniform, const glm::vec4& v);
    void set(const char* uniform, const glm::mat3& m);
    void set(const char* uniform, const glm::mat4& m);

private:
    GLint location(const char* uniform);

    GLuint program_ = 0;
    std::string name_;
    std::unordered_map<std::string, GLint> locations_;
};

}  // namespace vfx
