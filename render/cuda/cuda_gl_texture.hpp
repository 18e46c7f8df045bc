// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CUDA-GL interop for textures the renderer owns (VolumeGrid's 3D texture, Heatmap2D's 2D
// one): registered once per texture object and again when the owner replaced it (resize),
// mapped only inside a scope guard so that no cudaArray_t outlives its mapping. CUDA then
// writes the texture by a pitched device-to-array copy (copyFromDevice) or through a
// surface object on the mapped array (render/cuda/surface_write.hpp). Use on the thread
// whose GL context is current.
#include <epoxy/gl.h>

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>

namespace cf::render {

class CudaGlTexture {
public:
    enum class Access {
        SurfaceLoadStore,  // surface reads/writes from kernels, and copies
        WriteDiscard,      // copies that overwrite the whole texture (the rest of it is
                           // undefined after a mapping); no surfaces
    };

    CudaGlTexture() = default;
    ~CudaGlTexture();
    CudaGlTexture(const CudaGlTexture&) = delete;
    CudaGlTexture& operator=(const CudaGlTexture&) = delete;

    // `target`: GL_TEXTURE_3D or GL_TEXTURE_2D. Registers when the texture name, the
    // owner's generation (VolumeGrid/Heatmap2D::textureGeneration(): a resize may hand out a
    // recycled name), the target or the access differ from the registered ones; otherwise
    // does nothing. Throws RenderError (e.g. no interop: the caller uploads from the host).
    void attach(GLuint texture, GLenum target, Access access = Access::SurfaceLoadStore,
                std::uint64_t generation = 0);
    GLuint texture() const { return texture_; }
    bool attached() const { return resource_ != nullptr; }
    // Unregisters now. Registering again after the owner's resize (attach) also unregisters
    // the old texture, but only after GL deleted it; detaching first keeps CUDA from ever
    // holding a registration of a deleted texture.
    void detach() { release(); }
    // Level 0's size in texels as GL reported it at attach(); depth 1 for a 2D texture.
    cudaExtent extent() const { return extent_; }

    class Mapping {
    public:
        ~Mapping();
        Mapping(const Mapping&) = delete;
        Mapping& operator=(const Mapping&) = delete;
        // Level 0 of the texture. Valid until this Mapping is destroyed.
        cudaArray_t array() const { return array_; }
        // In elements; depth 0 for a 2D texture (as cudaArrayGetInfo reports it).
        cudaExtent extent() const { return extent_; }

    private:
        friend class CudaGlTexture;
        Mapping(cudaGraphicsResource_t resource, cudaStream_t stream);
        cudaGraphicsResource_t resource_;
        cudaStream_t stream_;
        cudaArray_t array_ = nullptr;
        cudaExtent extent_{};
    };
    // Maps for CUDA on `stream`; GL must not use the texture until the Mapping is gone
    // (unmapping orders the CUDA work on `stream` before later GL commands).
    Mapping map(cudaStream_t stream);

    // Copies `extent` (width, height in elements, depth in slices; depth 1 for a 2D
    // texture) from pitched device memory into the texture's corner (0, 0, 0), ordered on
    // `stream`. Rows are `pitchBytes` apart, slices `pitchBytes * extent.height`. An extent
    // larger than the texture is refused before anything is mapped.
    void copyFromDevice(const void* source, std::size_t pitchBytes, cudaExtent extent,
                        cudaStream_t stream);

private:
    void release();
    GLuint texture_ = 0;
    GLenum target_ = 0;
    Access access_ = Access::SurfaceLoadStore;
    std::uint64_t generation_ = 0;
    cudaExtent extent_{0, 0, 0};
    cudaGraphicsResource_t resource_ = nullptr;
};

}  // namespace cf::render
