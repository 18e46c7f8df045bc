// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// VectorField: a vector per node of a regular 2D or 3D grid, shown as lit 3D arrows (shaft
// cylinder + cone head, drawn instanced) and, for a planar grid, as a line-integral
// convolution (LIC) image on the plane. The vectors live in one GL buffer (float3 per node,
// x fastest: node (i, j, k) at index i + nx * (j + ny * k)); host data arrive through
// setVectors(), the CUDA interop path writes vectorBuffer() device to device and then calls
// notifyVectorsChanged(). Derived data (magnitude range, LIC image) are computed on the GPU
// and only again after the vectors or the options they depend on change.
#include <glm/glm.hpp>

#include "render/colormap.hpp"
#include "render/gl_program.hpp"

namespace cf::render {

class VectorField {
public:
    VectorField();  // needs a current GL 4.5 context (compute shaders)

    // Grid placement. The grid spans its corners: node i of n along an edge sits at
    // i / (n - 1) of the edge (a single node at the start).
    // 2D (nz = 1): node (i, j) at origin + i/(nx-1) * edgeU + j/(ny-1) * edgeV.
    void setPlane(const glm::vec3& origin, const glm::vec3& edgeU, const glm::vec3& edgeV);
    // The plane z = const over the rectangle [lo, hi] in x and y.
    void setPlaneZ(const glm::vec2& lo, const glm::vec2& hi, float z);
    // 3D: node (i, j, k) at lo + (i/(nx-1), j/(ny-1), k/(nz-1)) * (hi - lo). The default
    // placement is the unit box.
    void setBox(const glm::vec3& lo, const glm::vec3& hi);
    // The placement: node (0, 0, 0) and the edges along i, j, k (zero k edge for a plane).
    glm::vec3 origin() const { return origin_; }
    glm::vec3 edge(int axis) const { return edges_[axis]; }

    // nx * ny * nz world vectors (x, y, z). For a 2D grid nz = 1.
    void setVectors(const float* xyz, int nx, int ny, int nz = 1);
    // Makes room for nx * ny * nz vectors without uploading (the interop path fills the
    // buffer). vectorBuffer() may name a new buffer object afterwards: re-attach interop.
    void resize(int nx, int ny, int nz = 1);
    GLuint vectorBuffer() const { return vectors_.get(); }
    std::uint64_t vectorStorageId() const { return vectorStorageId_; }  // see newStorageId()
    // After writing vectorBuffer() outside setVectors() (CUDA): derived data are stale.
    void notifyVectorsChanged();
    glm::ivec3 dimensions() const { return dims_; }

    // Arrows. Every `stride`-th node along each axis gets one (stride >= 1). Arrow length is
    // scale * |v|; scale <= 0 (the default) picks the scale that makes the longest arrow 0.9
    // of the subsampled cell spacing (the shortest spacing of the axes with > 1 node).
    void setStride(int stride);
    void setScale(float worldLengthPerUnit) { scale_ = worldLengthPerUnit; }
    void colorUniform(const glm::vec3& rgb);
    // Arrows coloured by |v| through `map` over [lo, hi]; lo >= hi: the data's magnitude
    // range (a field of one magnitude takes the map's first colour). The LIC image uses the
    // same map and range when coloured (setLicColorByMagnitude).
    void colorByMagnitude(Colormap map, float lo = 0.0f, float hi = 0.0f);
    void showArrows(bool on) { showArrows_ = on; }
    // Arrow: from the node along v with a cone head. Segment: a capped cylinder of the same
    // length centred on the node, without a head, for directors (v and -v mean the same).
    enum class Glyph { Arrow, Segment };
    void setGlyph(Glyph glyph) { glyph_ = glyph; }
    Glyph glyph() const { return glyph_; }
    int stride() const { return stride_; }
    bool arrowsShown() const { return showArrows_; }
    bool licShown() const { return showLic_; }

    // LIC on the plane of a 2D grid (nx, ny >= 2, nz = 1): white noise (bilinear) averaged
    // along the streamline through each texel, `kernelSteps` (default 20) steps of one texel
    // forward and as many backward (midpoint rule, stopping at the border and where
    // |v| = 0), contrast-stretched. Vectors are projected onto the plane and interpolated
    // bilinearly between nodes. Resolution 0 x 0 (the default): 512 texels along the longer
    // edge, square texels. Drawn unlit, opaque, depth tested; arrows on the same plane
    // show their upper half above it.
    void showLic(bool on) { showLic_ = on; }
    void setLicKernelSteps(int steps);
    void setLicResolution(int width, int height);
    void setLicColorByMagnitude(bool on);
    // Computes the LIC image if it is stale; throws RenderError for a grid that is not
    // planar. licTexture(): RGBA8, row 0 at the origin, column 0 at the origin (edge U
    // runs along the rows).
    void updateLic();
    GLuint licTexture() const { return lic_.get(); }
    glm::ivec2 licResolution() const;

    // (min, max) of |v| over all nodes (non-finite vectors ignored). Reads back from the
    // GPU (a pipeline stall): for legends and tests, not per frame.
    glm::vec2 magnitudeRange();

    // The LIC rectangle (if shown) and the arrows (if shown), depth tested, into the
    // current framebuffer. `view` must be rigid (a lookAt); orthographic projections work.
    void draw(const glm::mat4& view, const glm::mat4& projection);

private:
    void ensureCapacity(std::size_t nodes);
    void updateStats();
    void drawArrows(const glm::mat4& view, const glm::mat4& projection) const;
    void drawLic(const glm::mat4& view, const glm::mat4& projection) const;
    float cellSpacing() const;
    std::size_t nodeCount() const {
        return static_cast<std::size_t>(dims_.x) * static_cast<std::size_t>(dims_.y) *
               static_cast<std::size_t>(dims_.z);
    }

    Program arrowProgram_, licSurfaceProgram_, statsProgram_, velocityProgram_, licProgram_;
    VertexArray arrowVao_, emptyVao_;
    Buffer arrowMesh_, vectors_, stats_;
    std::uint64_t vectorStorageId_ = 0;
    Texture vectorTexture_;  // buffer texture (RGB32F) over vectors_
    Texture colormap_, velocity_, noise_, lic_;
    int arrowMeshVertices_ = 0;
    std::size_t capacity_ = 0;  // nodes
    glm::ivec3 dims_{0, 0, 0};
    glm::vec3 origin_{0.0f};
    glm::vec3 edges_[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

    int stride_ = 1;
    float scale_ = 0.0f;
    bool colorByMagnitude_ = false;
    glm::vec3 uniformColor_{0.85f, 0.85f, 0.85f};
    glm::vec2 range_{0.0f, 0.0f};
    bool showArrows_ = true;
    Glyph glyph_ = Glyph::Arrow;

    bool showLic_ = false;
    int licSteps_ = 20;
    glm::ivec2 licRequested_{0, 0};
    glm::ivec2 licAllocated_{0, 0};
    glm::ivec2 velocityAllocated_{0, 0};
    bool licColored_ = false;

    bool statsDirty_ = true;
    bool licDirty_ = true;
};

}  // namespace cf::render
