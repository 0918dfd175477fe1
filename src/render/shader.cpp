#include "render/shader.hpp"

#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

namespace vfx {

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ShaderError(path + ": cannot open shader source");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string shaderLog(GLuint shader) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(size_t(std::max(length, 1)), '\0');
    glGetShaderInfoLog(shader, GLsizei(log.size()), nullptr, log.data());
    return log.data();
}

std::string programLog(GLuint program) {
    GLint length = 0;
    glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(size_t(std::max(length, 1)), '\0');
    glGetProgramInfoLog(program, GLsizei(log.size()), nullptr, log.data());
    return log.data();
}

GLuint compile(GLenum stage, const std::string& directory, const std::string& fileName) {
    std::string source = loadShaderSource(directory, fileName);
    GLuint shader = glCreateShader(stage);
    const char* text = source.c_str();
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        std::string log = shaderLog(shader);
        glDeleteShader(shader);
        throw ShaderError(directory + "/" + fileName + ": compile error:\n" + log);
    }
    return shader;
}

}  // namespace

std::string loadShaderSource(const std::string& directory, const std::string& fileName) {
    std::istringstream in(readFile(directory + "/" + fileName));
    std::ostringstream out;
    std::string line;
    int lineNumber = 0;
    while (std::getline(in, line)) {
        ++lineNumber;
        if (line.rfind("#include", 0) == 0) {
            size_t open = line.find('"'), close = line.rfind('"');
            if (open == std::string::npos || close <= open)
                throw ShaderError(directory + "/" + fileName + ":" + std::to_string(lineNumber) +
                                  ": expected #include \"file.glsl\"");
            out << readFile(directory + "/" + line.substr(open + 1, close - open - 1)) << "\n";
        } else {
            out << line << "\n";
        }
    }
    return out.str();
}

ShaderProgram::~ShaderProgram() {
    if (program_) glDeleteProgram(program_);
}

void ShaderProgram::load(const std::string& directory, const std::string& name) {
    GLuint vert = compile(GL_VERTEX_SHADER, directory, name + ".vert");
    GLuint frag = 0;
    try {
        frag = compile(GL_FRAGMENT_SHADER, directory, name + ".frag");
    } catch (...) {
        glDeleteShader(vert);
        throw;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, vert);
    glAttachShader(program, frag);
    glLinkProgram(program);
    glDeleteShader(vert);
    glDeleteShader(frag);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        std::string log = programLog(program);
        glDeleteProgram(program);
        throw ShaderError(directory + "/" + name + ".vert + " + name + ".frag: link error:\n" + log);
    }
    if (program_) glDeleteProgram(program_);
    program_ = program;
    name_ = name;
    locations_.clear();
}

GLint ShaderProgram::location(const char* uniform) {
    auto it = locations_.find(uniform);
    if (it != locations_.end()) return it->second;
    GLint loc = glGetUniformLocation(program_, uniform);  // -1 (optimised out) is ignored by GL
    locations_.emplace(uniform, loc);
    return loc;
}

void ShaderProgram::set(const char* u, float v) { glUniform1f(location(u), v); }
void ShaderProgram::set(const char* u, int v) { glUniform1i(location(u), v); }
void ShaderProgram::set(const char* u, const glm::vec2& v) { glUniform2fv(location(u), 1, glm::value_ptr(v)); }
void ShaderProgram::set(const char* u, const glm::vec3& v) { glUniform3fv(location(u), 1, glm::value_ptr(v)); }
void ShaderProgram::set(const char* u, const glm::vec4& v) { glUniform4fv(location(u), 1, glm::value_ptr(v)); }
void ShaderProgram::set(const char* u, const glm::mat3& m) {
    glUniformMatrix3fv(location(u), 1, GL_FALSE, glm::value_ptr(m));
}
void ShaderProgram::set(const char* u, const glm::mat4& m) {
    glUniformMatrix4fv(location(u), 1, GL_FALSE, glm::value_ptr(m));
}

}  // namespace vfx
