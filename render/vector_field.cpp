// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/vector_field.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <glm/gtc/type_ptr.hpp>
#include <random>
#include <string>
#include <vector>

#include "render/colormap_texture.hpp"
#include "render/embedded_shaders.hpp"
#include "render/render_error.hpp"

namespace cf::render {
namespace {

constexpr GLuint kStatsBinding = 0;  // SSBO for the reduction, UBO for its readers
constexpr std::uint32_t kInfinityBits = 0x7f800000u;

GLint uniform(GLuint program, const char* name) {
    return glGetUniformLocation(program, name);
}

// The arrow in arrow units (see shaders/arrows.vert): per vertex (anchor, radius kind,
// normal kind, angle). Twelve facets around: round enough at glyph sizes.
std::vector<glm::vec4> arrowMesh() {
    constexpr int kFacets = 12;
    enum { Base = 0, HeadBase = 1, Tip = 2 };
    enum { OnAxis = 0, Shaft = 1, Head = 2 };
    enum { Radial = 0, Cone = 1, Back = 2 };
    std::vector<glm::vec4> v;
    auto add = [&v](int anchor, int radius, int normal, float angle) {
        v.emplace_back(static_cast<float>(anchor), static_cast<float>(radius),
                       static_cast<float>(normal), angle);
    };
    const float step = 2.0f * static_cast<float>(M_PI) / kFacets;
    for (int f = 0; f < kFacets; ++f) {
        const float a0 = step * static_cast<float>(f), a1 = a0 + step, mid = a0 + 0.5f * step;
        // Base disc.
        add(Base, OnAxis, Back, mid);
        add(Base, Shaft, Back, a1);
        add(Base, Shaft, Back, a0);
        // Shaft side.
        for (const auto& [anchor, angle] : {std::pair{Base, a0},
                                            {Base, a1},
                                            {HeadBase, a1},
                                            {Base, a0},
                                            {HeadBase, a1},
                                            {HeadBase, a0}})
            add(anchor, Shaft, Radial, angle);
        // Back of the head: the ring between shaft and head radius.
        for (const auto& [radius, angle] :
             {std::pair{Shaft, a0}, {Head, a1}, {Head, a0}, {Shaft, a0}, {Shaft, a1}, {Head, a1}})
            add(HeadBase, radius, Back, angle);
        // Cone.
        add(HeadBase, Head, Cone, a0);
        add(HeadBase, Head, Cone, a1);
        add(Tip, OnAxis, Cone, mid);
    }
    return v;
}

void setupTexture(GLuint texture, GLenum filter, GLenum wrap) {
    glTextureParameteri(texture, GL_TEXTURE_MIN_FILTER, static_cast<GLint>(filter));
    glTextureParameteri(texture, GL_TEXTURE_MAG_FILTER, static_cast<GLint>(filter));
    glTextureParameteri(texture, GL_TEXTURE_WRAP_S, static_cast<GLint>(wrap));
    glTextureParameteri(texture, GL_TEXTURE_WRAP_T, static_cast<GLint>(wrap));
}

GLuint groupsFor(std::size_t items, std::size_t perGroup) {
    // The shaders loop over the rest, so the count may stay within the guaranteed 65535.
    return static_cast<GLuint>(
        std::clamp<std::size_t>((items + perGroup - 1) / perGroup, 1, 65535));
}

}  // namespace

VectorField::VectorField()
    : arrowProgram_(buildProgram("arrows", shaders::kArrowsVert, shaders::kArrowsFrag)),
      licSurfaceProgram_(
          buildProgram("lic_surface", shaders::kLicSurfaceVert, shaders::kLicSurfaceFrag)),
      statsProgram_(buildComputeProgram("vector_stats", {shaders::kVectorStatsComp})),
      velocityProgram_(buildComputeProgram("lic_velocity", {shaders::kLicVelocityComp})),
      licProgram_(buildComputeProgram("lic", {shaders::kLicComp})),
      arrowVao_(createVertexArray()),
      emptyVao_(createVertexArray()),
      arrowMesh_(createBuffer()),
      stats_(createBuffer()),
      vectorTexture_(createTexture(GL_TEXTURE_BUFFER)),
      colormap_(createColormapTexture(Colormap::Viridis)) {
    const std::vector<glm::vec4> mesh = arrowMesh();
    arrowMeshVertices_ = static_cast<int>(mesh.size());
    glNamedBufferStorage(arrowMesh_.get(), static_cast<GLsizeiptr>(mesh.size() * sizeof(glm::vec4)),
                         mesh.data(), 0);
    glVertexArrayVertexBuffer(arrowVao_.get(), 0, arrowMesh_.get(), 0, sizeof(glm::vec4));
    glEnableVertexArrayAttrib(arrowVao_.get(), 0);
    glVertexArrayAttribFormat(arrowVao_.get(), 0, 4, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(arrowVao_.get(), 0, 0);

    glNamedBufferStorage(stats_.get(), 4 * sizeof(std::uint32_t), nullptr, GL_DYNAMIC_STORAGE_BIT);

    // Texture units: 0 vectors, 1 colormap, 2 velocity, 3 noise, 4 LIC image.
    const GLuint a = arrowProgram_.get(), l = licProgram_.get();
    glProgramUniform1i(a, uniform(a, "uVectors"), 0);
    glProgramUniform1i(a, uniform(a, "uColormap"), 1);
    glProgramUniform1i(statsProgram_.get(), uniform(statsProgram_.get(), "uVectors"), 0);
    glProgramUniform1i(velocityProgram_.get(), uniform(velocityProgram_.get(), "uVectors"), 0);
    glProgramUniform1i(l, uniform(l, "uColormap"), 1);
    glProgramUniform1i(l, uniform(l, "uVelocity"), 2);
    glProgramUniform1i(l, uniform(l, "uNoise"), 3);
    glProgramUniform1i(licSurfaceProgram_.get(), uniform(licSurfaceProgram_.get(), "uLic"), 4);
    ensureCapacity(1);
}

void VectorField::setPlane(const glm::vec3& origin, const glm::vec3& edgeU,
                           const glm::vec3& edgeV) {
    origin_ = origin;
    edges_[0] = edgeU;
    edges_[1] = edgeV;
    edges_[2] = glm::vec3(0.0f);
    licDirty_ = true;  // the projection onto the plane changed
}

void VectorField::setPlaneZ(const glm::vec2& lo, const glm::vec2& hi, float z) {
    setPlane({lo.x, lo.y, z}, {hi.x - lo.x, 0.0f, 0.0f}, {0.0f, hi.y - lo.y, 0.0f});
}

void VectorField::setBox(const glm::vec3& lo, const glm::vec3& hi) {
    origin_ = lo;
    edges_[0] = {hi.x - lo.x, 0.0f, 0.0f};
    edges_[1] = {0.0f, hi.y - lo.y, 0.0f};
    edges_[2] = {0.0f, 0.0f, hi.z - lo.z};
    licDirty_ = true;
}

void VectorField::ensureCapacity(std::size_t nodes) {
    if (nodes <= capacity_) return;
    GLint maxTexels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &maxTexels);
    if (nodes > static_cast<std::size_t>(maxTexels))
        throw RenderError("vector field of " + std::to_string(nodes) +
                          " nodes exceeds this GL's buffer texture limit of " +
                          std::to_string(maxTexels));
    std::size_t cap = capacity_ == 0 ? 1024 : capacity_;
    while (cap < nodes)
        cap *= 2;
    cap = std::min(cap, static_cast<std::size_t>(maxTexels));
    // A new buffer object: immutable storage cannot grow, and an interop registration of the
    // old one must be renewed by its owner anyway.
    vectors_ = Buffer(createBuffer());
    vectorStorageId_ = newStorageId();
    glNamedBufferStorage(vectors_.get(), static_cast<GLsizeiptr>(cap * 3 * sizeof(float)), nullptr,
                         GL_DYNAMIC_STORAGE_BIT);
    glTextureBuffer(vectorTexture_.get(), GL_RGB32F, vectors_.get());
    capacity_ = cap;
}

void VectorField::resize(int nx, int ny, int nz) {
    if (nx < 0 || ny < 0 || nz < 0)
        throw RenderError("vector field dimensions must not be negative");
    dims_ = {nx, ny, nz};
    ensureCapacity(nodeCount());
    notifyVectorsChanged();
}

void VectorField::setVectors(const float* xyz, int nx, int ny, int nz) {
    resize(nx, ny, nz);
    const std::size_t n = nodeCount();
    if (n > 0)
        glNamedBufferSubData(vectors_.get(), 0, static_cast<GLsizeiptr>(n * 3 * sizeof(float)),
                             xyz);
}

void VectorField::notifyVectorsChanged() {
    statsDirty_ = true;
    licDirty_ = true;
}

void VectorField::setStride(int stride) {
    if (stride < 1) throw RenderError("arrow stride must be at least 1");
    stride_ = stride;
}

void VectorField::colorUniform(const glm::vec3& rgb) {
    colorByMagnitude_ = false;
    uniformColor_ = rgb;
}

void VectorField::colorByMagnitude(Colormap map, float lo, float hi) {
    uploadColormap(colormap_.get(), map);
    colorByMagnitude_ = true;
    range_ = {lo, hi};
    if (licColored_) licDirty_ = true;
}

void VectorField::setLicKernelSteps(int steps) {
    if (steps < 0) throw RenderError("LIC kernel steps must not be negative");
    licDirty_ = licDirty_ || steps != licSteps_;
    licSteps_ = steps;
}

void VectorField::setLicResolution(int width, int height) {
    if (width < 0 || height < 0 || (width == 0) != (height == 0))
        throw RenderError("LIC resolution: both sides positive, or both 0 (automatic)");
    licDirty_ = licDirty_ || glm::ivec2(width, height) != licRequested_;
    licRequested_ = {width, height};
}

void VectorField::setLicColorByMagnitude(bool on) {
    licDirty_ = licDirty_ || on != licColored_;
    licColored_ = on;
}

glm::ivec2 VectorField::licResolution() const {
    if (licRequested_.x > 0) return licRequested_;
    // Square texels: the longer edge gets 512.
    const float u = glm::length(edges_[0]), v = glm::length(edges_[1]);
    const float longer = std::max({u, v, 1e-30f});
    return {std::max(1, static_cast<int>(std::lround(512.0f * u / longer))),
            std::max(1, static_cast<int>(std::lround(512.0f * v / longer)))};
}

void VectorField::updateStats() {
    if (!statsDirty_) return;
    const std::uint32_t reset[4] = {kInfinityBits, 0u, 0u, 0u};
    glNamedBufferSubData(stats_.get(), 0, sizeof(reset), reset);
    const std::size_t n = nodeCount();
    if (n > 0) {
        const GLuint p = statsProgram_.get();
        glUseProgram(p);
        glProgramUniform1ui(p, uniform(p, "uCount"), static_cast<GLuint>(n));
        glBindTextureUnit(0, vectorTexture_.get());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kStatsBinding, stats_.get());
        glDispatchCompute(groupsFor(n, 256), 1, 1);
        glMemoryBarrier(GL_UNIFORM_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
                        GL_SHADER_STORAGE_BARRIER_BIT);
    }
    statsDirty_ = false;
}

glm::vec2 VectorField::magnitudeRange() {
    updateStats();
    std::uint32_t bits[2] = {0u, 0u};
    glGetNamedBufferSubData(stats_.get(), 0, sizeof(bits), bits);
    float range[2];
    static_assert(sizeof(range) == sizeof(bits));
    std::memcpy(range, bits, sizeof(range));
    return nodeCount() == 0 || range[0] > range[1] ? glm::vec2(0.0f)
                                                   : glm::vec2(range[0], range[1]);
}

float VectorField::cellSpacing() const {
    float spacing = 0.0f;
    for (int a = 0; a < 3; ++a) {
        if (dims_[a] < 2) continue;
        const float d = glm::length(edges_[a]) / static_cast<float>(dims_[a] - 1);
        if (d > 0.0f) spacing = spacing == 0.0f ? d : std::min(spacing, d);
    }
    return spacing > 0.0f ? spacing : 1.0f;  // a single node: any length will do
}

void VectorField::updateLic() {
    if (!licDirty_) return;
    if (dims_.z != 1 || dims_.x < 2 || dims_.y < 2)
        throw RenderError("LIC needs a planar grid of at least 2 x 2 nodes (nz = 1), not " +
                          std::to_string(dims_.x) + " x " + std::to_string(dims_.y) + " x " +
                          std::to_string(dims_.z));
    const glm::vec3 u = edges_[0], v = edges_[1];
    const float det = glm::dot(u, u) * glm::dot(v, v) - glm::dot(u, v) * glm::dot(u, v);
    if (!(std::abs(det) > 1e-30f * glm::dot(u, u) * glm::dot(v, v)))
        throw RenderError("LIC needs a plane: the grid's two edges are parallel or zero");
    updateStats();

    const glm::ivec2 size = licResolution();
    if (size != licAllocated_) {
        // Mipmapped: the image is often seen smaller than its texels (a plane at a distance),
        // where a single level would alias the fine streaks into moire.
        int levels = 1;
        while ((std::max(size.x, size.y) >> levels) > 0)
            ++levels;
        lic_ = Texture(createTexture(GL_TEXTURE_2D));
        glTextureStorage2D(lic_.get(), levels, GL_RGBA8, size.x, size.y);
        setupTexture(lic_.get(), GL_LINEAR, GL_CLAMP_TO_EDGE);
        glTextureParameteri(lic_.get(), GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
        // Fixed seed: the same field gives the same picture on every run and machine.
        std::mt19937 gen(20240611u);
        std::vector<std::uint8_t> noise(static_cast<std::size_t>(size.x) *
                                        static_cast<std::size_t>(size.y));
        for (std::uint8_t& n : noise)
            n = static_cast<std::uint8_t>(gen() >> 24);
        noise_ = Texture(createTexture(GL_TEXTURE_2D));
        glTextureStorage2D(noise_.get(), 1, GL_R8, size.x, size.y);
        GLint alignment = 4;
        glGetIntegerv(GL_UNPACK_ALIGNMENT, &alignment);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);  // rows of one byte per texel
        glTextureSubImage2D(noise_.get(), 0, 0, 0, size.x, size.y, GL_RED, GL_UNSIGNED_BYTE,
                            noise.data());
        glPixelStorei(GL_UNPACK_ALIGNMENT, alignment);
        setupTexture(noise_.get(), GL_NEAREST, GL_CLAMP_TO_EDGE);
        licAllocated_ = size;
    }
    const glm::ivec2 grid(dims_.x, dims_.y);
    if (grid != velocityAllocated_) {
        velocity_ = Texture(createTexture(GL_TEXTURE_2D));
        glTextureStorage2D(velocity_.get(), 1, GL_RGBA32F, grid.x, grid.y);
        setupTexture(velocity_.get(), GL_NEAREST, GL_CLAMP_TO_EDGE);
        velocityAllocated_ = grid;
    }

    // Node vectors -> plane coordinates (a, b) with v_plane = a U + b V.
    const GLuint pv = velocityProgram_.get();
    const glm::mat2 inverseGram =
        glm::inverse(glm::mat2(glm::dot(u, u), glm::dot(u, v), glm::dot(u, v), glm::dot(v, v)));
    glUseProgram(pv);
    glProgramUniform2i(pv, uniform(pv, "uGrid"), grid.x, grid.y);
    glProgramUniform3fv(pv, uniform(pv, "uEdgeU"), 1, glm::value_ptr(u));
    glProgramUniform3fv(pv, uniform(pv, "uEdgeV"), 1, glm::value_ptr(v));
    glProgramUniformMatrix2fv(pv, uniform(pv, "uInverseGram"), 1, GL_FALSE,
                              glm::value_ptr(inverseGram));
    glBindTextureUnit(0, vectorTexture_.get());
    glBindImageTexture(0, velocity_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA32F);
    glDispatchCompute(groupsFor(static_cast<std::size_t>(grid.x) * grid.y, 256), 1, 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);

    const GLuint pl = licProgram_.get();
    glUseProgram(pl);
    glProgramUniform2i(pl, uniform(pl, "uGrid"), grid.x, grid.y);
    glProgramUniform1i(pl, uniform(pl, "uSteps"), licSteps_);
    glProgramUniform1i(pl, uniform(pl, "uColorByMagnitude"), licColored_ ? 1 : 0);
    glProgramUniform2fv(pl, uniform(pl, "uRange"), 1, glm::value_ptr(range_));
    glBindTextureUnit(1, colormap_.get());
    glBindTextureUnit(2, velocity_.get());
    glBindTextureUnit(3, noise_.get());
    glBindBufferBase(GL_UNIFORM_BUFFER, kStatsBinding, stats_.get());
    glBindImageTexture(0, lic_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glDispatchCompute(static_cast<GLuint>((size.x + 15) / 16),
                      static_cast<GLuint>((size.y + 15) / 16), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
    glGenerateTextureMipmap(lic_.get());
    licDirty_ = false;
}

void VectorField::draw(const glm::mat4& view, const glm::mat4& projection) {
    if (nodeCount() == 0) return;
    updateStats();
    if (showLic_) {
        updateLic();
        drawLic(view, projection);
    }
    if (showArrows_) drawArrows(view, projection);
}

void VectorField::drawLic(const glm::mat4& view, const glm::mat4& projection) const {
    const GLuint p = licSurfaceProgram_.get();
    const glm::mat4 viewProjection = projection * view;
    glUseProgram(p);
    glProgramUniformMatrix4fv(p, uniform(p, "uViewProjection"), 1, GL_FALSE,
                              glm::value_ptr(viewProjection));
    glProgramUniform3fv(p, uniform(p, "uOrigin"), 1, glm::value_ptr(origin_));
    glProgramUniform3fv(p, uniform(p, "uEdgeU"), 1, glm::value_ptr(edges_[0]));
    glProgramUniform3fv(p, uniform(p, "uEdgeV"), 1, glm::value_ptr(edges_[1]));
    glBindTextureUnit(4, lic_.get());
    glBindVertexArray(emptyVao_.get());
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindVertexArray(0);
}

void VectorField::drawArrows(const glm::mat4& view, const glm::mat4& projection) const {
    const glm::ivec3 sampled = (dims_ + (stride_ - 1)) / stride_;
    const GLsizei instances = sampled.x * sampled.y * sampled.z;
    if (instances == 0) return;
    glm::vec3 steps[3];
    for (int a = 0; a < 3; ++a)
        steps[a] = dims_[a] > 1 ? edges_[a] / static_cast<float>(dims_[a] - 1) : glm::vec3(0.0f);
    const float autoLength = 0.9f * static_cast<float>(stride_) * cellSpacing();

    const GLuint p = arrowProgram_.get();
    glUseProgram(p);
    glProgramUniformMatrix4fv(p, uniform(p, "uView"), 1, GL_FALSE, glm::value_ptr(view));
    glProgramUniformMatrix4fv(p, uniform(p, "uProjection"), 1, GL_FALSE,
                              glm::value_ptr(projection));
    glProgramUniform3iv(p, uniform(p, "uGrid"), 1, glm::value_ptr(dims_));
    glProgramUniform3iv(p, uniform(p, "uSampled"), 1, glm::value_ptr(sampled));
    glProgramUniform1i(p, uniform(p, "uStride"), stride_);
    glProgramUniform3fv(p, uniform(p, "uOrigin"), 1, glm::value_ptr(origin_));
    glProgramUniform3fv(p, uniform(p, "uStep"), 3, glm::value_ptr(steps[0]));
    glProgramUniform1f(p, uniform(p, "uScale"), scale_);
    glProgramUniform1f(p, uniform(p, "uAutoLength"), autoLength);
    glProgramUniform1i(p, uniform(p, "uColorMode"), colorByMagnitude_ ? 1 : 0);
    glProgramUniform3fv(p, uniform(p, "uUniformColor"), 1, glm::value_ptr(uniformColor_));
    glProgramUniform1i(p, uniform(p, "uGlyph"), glyph_ == Glyph::Segment ? 1 : 0);
    glProgramUniform2fv(p, uniform(p, "uRange"), 1, glm::value_ptr(range_));
    // A perspective projection has -1 in its last row's z column; an orthographic one 0.
    glProgramUniform1i(p, uniform(p, "uOrthographic"), projection[2][3] == 0.0f ? 1 : 0);
    glBindTextureUnit(0, vectorTexture_.get());
    glBindTextureUnit(1, colormap_.get());
    glBindBufferBase(GL_UNIFORM_BUFFER, kStatsBinding, stats_.get());
    glBindVertexArray(arrowVao_.get());
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDrawArraysInstanced(GL_TRIANGLES, 0, arrowMeshVertices_, instances);
    glBindVertexArray(0);
}

}  // namespace cf::render
