// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/cuda/cuda_gl_texture.hpp"

#include <cuda_gl_interop.h>
#include <string>

#include "render/render_error.hpp"

namespace cf::render {

namespace {
void check(cudaError_t err, const char* what) {
    if (err != cudaSuccess)
        throw RenderError(std::string("CUDA-GL texture interop: ") + what + " failed: " +
                          cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

std::string extentText(cudaExtent e) {
    return std::to_string(e.width) + "x" + std::to_string(e.height) + "x" + std::to_string(e.depth);
}
}  // namespace

CudaGlTexture::~CudaGlTexture() {
    release();
}

void CudaGlTexture::release() {
    if (resource_ != nullptr) cudaGraphicsUnregisterResource(resource_);  // no throw here
    resource_ = nullptr;
    texture_ = 0;
    extent_ = {0, 0, 0};
}

void CudaGlTexture::attach(GLuint texture, GLenum target, Access access, std::uint64_t generation) {
    if (target != GL_TEXTURE_3D && target != GL_TEXTURE_2D)
        throw RenderError("CUDA-GL texture interop: only GL_TEXTURE_2D and GL_TEXTURE_3D");
    if (resource_ != nullptr && texture == texture_ && target == target_ && access == access_ &&
        generation == generation_)
        return;
    release();
    const unsigned flags = access == Access::SurfaceLoadStore
                               ? cudaGraphicsRegisterFlagsSurfaceLoadStore
                               : cudaGraphicsRegisterFlagsWriteDiscard;
    check(cudaGraphicsGLRegisterImage(&resource_, texture, target, flags),
          "cudaGraphicsGLRegisterImage");
    GLint width = 0, height = 0, depth = 0;
    glGetTextureLevelParameteriv(texture, 0, GL_TEXTURE_WIDTH, &width);
    glGetTextureLevelParameteriv(texture, 0, GL_TEXTURE_HEIGHT, &height);
    glGetTextureLevelParameteriv(texture, 0, GL_TEXTURE_DEPTH, &depth);  // 1 for 2D
    extent_ = {static_cast<std::size_t>(width), static_cast<std::size_t>(height),
               static_cast<std::size_t>(depth)};
    texture_ = texture;
    target_ = target;
    access_ = access;
    generation_ = generation;
}

CudaGlTexture::Mapping::Mapping(cudaGraphicsResource_t resource, cudaStream_t stream)
    : resource_(resource), stream_(stream) {
    check(cudaGraphicsMapResources(1, &resource_, stream_), "cudaGraphicsMapResources");
    cudaError_t err = cudaGraphicsSubResourceGetMappedArray(&array_, resource_, 0, 0);
    if (err == cudaSuccess) {
        cudaChannelFormatDesc desc{};
        unsigned int arrayFlags = 0;
        err = cudaArrayGetInfo(&desc, &extent_, &arrayFlags, array_);
    }
    if (err != cudaSuccess) {
        cudaGraphicsUnmapResources(1, &resource_, stream_);
        check(err, "cudaGraphicsSubResourceGetMappedArray / cudaArrayGetInfo");
    }
}

CudaGlTexture::Mapping::~Mapping() {
    cudaGraphicsUnmapResources(1, &resource_, stream_);
}

CudaGlTexture::Mapping CudaGlTexture::map(cudaStream_t stream) {
    if (resource_ == nullptr) throw RenderError("CUDA-GL texture interop: map() before attach()");
    return Mapping(resource_, stream);
}

void CudaGlTexture::copyFromDevice(const void* source, std::size_t pitchBytes, cudaExtent extent,
                                   cudaStream_t stream) {
    if (resource_ == nullptr)
        throw RenderError("CUDA-GL texture interop: copyFromDevice() before attach()");
    // Checked before mapping: a write-discard mapping that writes nothing may lose the
    // texture's contents.
    if (extent.width == 0 || extent.height == 0 || extent.depth == 0 ||
        extent.width > extent_.width || extent.height > extent_.height ||
        extent.depth > extent_.depth)
        throw RenderError("CUDA-GL texture interop: a copy of " + extentText(extent) +
                          " elements does not fit the texture of " + extentText(extent_));
    const Mapping m = map(stream);
    cudaMemcpy3DParms p{};
    // The pitched pointer's xsize is not used for device-to-array copies; the extent (in
    // elements, since the destination is an array) says what moves.
    p.srcPtr.ptr = const_cast<void*>(source);
    p.srcPtr.pitch = pitchBytes;
    p.srcPtr.xsize = extent.width;
    p.srcPtr.ysize = extent.height;  // rows per slice: the slice stride is pitch * ysize
    p.dstArray = m.array();
    p.extent = extent;
    p.kind = cudaMemcpyDeviceToDevice;
    check(cudaMemcpy3DAsync(&p, stream), "cudaMemcpy3DAsync into the GL texture");
}

}  // namespace cf::render
