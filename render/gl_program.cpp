// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/gl_program.hpp"

#include <atomic>
#include <vector>

#include "render/render_error.hpp"

namespace cf::render {

void deleteBuffer(GLuint n) {
    glDeleteBuffers(1, &n);
}
void deleteVertexArray(GLuint n) {
    glDeleteVertexArrays(1, &n);
}
void deleteTexture(GLuint n) {
    glDeleteTextures(1, &n);
}
void deleteFramebuffer(GLuint n) {
    glDeleteFramebuffers(1, &n);
}
void deleteProgram(GLuint n) {
    glDeleteProgram(n);
}

GLuint createBuffer() {
    GLuint n = 0;
    glCreateBuffers(1, &n);
    return n;
}
GLuint createVertexArray() {
    GLuint n = 0;
    glCreateVertexArrays(1, &n);
    return n;
}
GLuint createTexture(GLenum target) {
    GLuint n = 0;
    glCreateTextures(target, 1, &n);
    return n;
}
GLuint createFramebuffer() {
    GLuint n = 0;
    glCreateFramebuffers(1, &n);
    return n;
}

std::uint64_t newStorageId() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

namespace {
const char* stageName(GLenum type) {
    switch (type) {
        case GL_VERTEX_SHADER:
            return "vertex";
        case GL_FRAGMENT_SHADER:
            return "fragment";
        case GL_COMPUTE_SHADER:
            return "compute";
        default:
            return "shader";
    }
}

GLuint compile(const char* name, GLenum type, ShaderParts parts) {
    const GLuint shader = glCreateShader(type);
    const std::vector<const char*> sources(parts);
    glShaderSource(shader, static_cast<GLsizei>(sources.size()), sources.data(), nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok == GL_TRUE) return shader;
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<std::size_t>(length) + 1, '\0');
    glGetShaderInfoLog(shader, length, nullptr, log.data());
    glDeleteShader(shader);
    throw RenderError(std::string("shader '") + name + "' (" + stageName(type) +
                      ") does not compile: " + log.data());
}

// Links the compiled stages (and deletes them: the program keeps what it needs).
Program link(const char* name, std::initializer_list<GLuint> stages) {
    Program program(glCreateProgram());
    for (GLuint s : stages)
        glAttachShader(program.get(), s);
    glLinkProgram(program.get());
    for (GLuint s : stages)
        glDeleteShader(s);
    GLint ok = 0;
    glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        GLint length = 0;
        glGetProgramiv(program.get(), GL_INFO_LOG_LENGTH, &length);
        std::vector<char> log(static_cast<std::size_t>(length) + 1, '\0');
        glGetProgramInfoLog(program.get(), length, nullptr, log.data());
        throw RenderError(std::string("shader program '") + name +
                          "' does not link: " + log.data());
    }
    return program;
}
}  // namespace

Program buildProgram(const char* name, ShaderParts vertexParts, ShaderParts fragmentParts) {
    const GLuint vs = compile(name, GL_VERTEX_SHADER, vertexParts);
    GLuint fs = 0;
    try {
        fs = compile(name, GL_FRAGMENT_SHADER, fragmentParts);
    } catch (...) {
        glDeleteShader(vs);
        throw;
    }
    return link(name, {vs, fs});
}

Program buildProgram(const char* name, const char* vertexSource, const char* fragmentSource) {
    return buildProgram(name, ShaderParts{vertexSource}, ShaderParts{fragmentSource});
}

Program buildComputeProgram(const char* name, ShaderParts parts) {
    return link(name, {compile(name, GL_COMPUTE_SHADER, parts)});
}

}  // namespace cf::render
