// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/gl_program.hpp"

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

namespace {
GLuint compile(const char* name, GLenum type, const char* source) {
    const GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok == GL_TRUE) return shader;
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<std::size_t>(length) + 1, '\0');
    glGetShaderInfoLog(shader, length, nullptr, log.data());
    glDeleteShader(shader);
    throw RenderError(std::string("shader '") + name +
                      (type == GL_VERTEX_SHADER ? "' (vertex)" : "' (fragment)") +
                      " does not compile: " + log.data());
}
}  // namespace

Program buildProgram(const char* name, const char* vertexSource, const char* fragmentSource) {
    const GLuint vs = compile(name, GL_VERTEX_SHADER, vertexSource);
    GLuint fs = 0;
    try {
        fs = compile(name, GL_FRAGMENT_SHADER, fragmentSource);
    } catch (...) {
        glDeleteShader(vs);
        throw;
    }
    Program program(glCreateProgram());
    glAttachShader(program.get(), vs);
    glAttachShader(program.get(), fs);
    glLinkProgram(program.get());
    glDeleteShader(vs);
    glDeleteShader(fs);
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

}  // namespace cf::render
