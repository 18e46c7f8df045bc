// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small RAII owners of GL objects and a shader program built from embedded sources.
#include <epoxy/gl.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

namespace cf::render {

// Owns one GL name; `Deleter` frees it (glDeleteBuffers style, count 1).
template <void (*Delete)(GLuint)>
class GlName {
public:
    GlName() = default;
    explicit GlName(GLuint name) : name_(name) {}
    ~GlName() {
        if (name_ != 0) Delete(name_);
    }
    GlName(const GlName&) = delete;
    GlName& operator=(const GlName&) = delete;
    GlName(GlName&& o) noexcept : name_(std::exchange(o.name_, 0)) {}
    GlName& operator=(GlName&& o) noexcept {
        if (this != &o) {
            if (name_ != 0) Delete(name_);
            name_ = std::exchange(o.name_, 0);
        }
        return *this;
    }
    GLuint get() const { return name_; }

private:
    GLuint name_ = 0;
};

void deleteBuffer(GLuint n);
void deleteVertexArray(GLuint n);
void deleteTexture(GLuint n);
void deleteFramebuffer(GLuint n);
void deleteProgram(GLuint n);
using Buffer = GlName<deleteBuffer>;
using VertexArray = GlName<deleteVertexArray>;
using Texture = GlName<deleteTexture>;
using Framebuffer = GlName<deleteFramebuffer>;
using Program = GlName<deleteProgram>;

// New GL names (DSA creation), for the owners above.
GLuint createBuffer();
GLuint createVertexArray();
GLuint createTexture(GLenum target);
GLuint createFramebuffer();

// A number unique in this process for every GL storage the renderer allocates. GL hands
// out the names of deleted objects again, so a CUDA registration made for an earlier
// object must be recognised by this id, not by the name.
std::uint64_t newStorageId();

// Compiles and links; throws RenderError with the GL info log and the shader's name.
Program buildProgram(const char* name, const char* vertexSource, const char* fragmentSource);
// Each stage from several strings, concatenated in order: lets shaders share GLSL (a
// "#version" line, then common functions from shaders/*.glsl, then the stage's body).
using ShaderParts = std::initializer_list<const char*>;
Program buildProgram(const char* name, ShaderParts vertexParts, ShaderParts fragmentParts);
Program buildComputeProgram(const char* name, ShaderParts parts);

// The first line of every stage assembled from parts.
inline constexpr const char* kGlslVersion = "#version 450 core\n";

}  // namespace cf::render
