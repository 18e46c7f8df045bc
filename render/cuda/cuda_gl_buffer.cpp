// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/cuda/cuda_gl_buffer.hpp"

#include <cuda_gl_interop.h>
#include <string>

#include "render/render_error.hpp"

namespace cf::render {

namespace {
void check(cudaError_t err, const char* what) {
    if (err != cudaSuccess)
        throw RenderError(std::string("CUDA-GL interop: ") + what + " failed: " +
                          cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}
}  // namespace

CudaGlBuffer::~CudaGlBuffer() {
    release();
}

void CudaGlBuffer::release() {
    // No throw from here (destructors). Fails when the GL context went first; the
    // registration is gone with it then, and the error must not surface in a later call.
    if (resource_ != nullptr && cudaGraphicsUnregisterResource(resource_) != cudaSuccess)
        cudaGetLastError();
    resource_ = nullptr;
    buffer_ = 0;
    storageId_ = 0;
}

void CudaGlBuffer::attach(GLuint buffer, std::uint64_t storageId) {
    if (buffer == buffer_ && storageId == storageId_ && resource_ != nullptr) return;
    release();
    check(cudaGraphicsGLRegisterBuffer(&resource_, buffer, cudaGraphicsRegisterFlagsWriteDiscard),
          "cudaGraphicsGLRegisterBuffer");
    buffer_ = buffer;
    storageId_ = storageId;
}

CudaGlBuffer::Mapping::Mapping(cudaGraphicsResource_t resource, cudaStream_t stream)
    : resource_(resource), stream_(stream) {
    check(cudaGraphicsMapResources(1, &resource_, stream_), "cudaGraphicsMapResources");
    const cudaError_t err = cudaGraphicsResourceGetMappedPointer(&data_, &size_, resource_);
    if (err != cudaSuccess) {
        cudaGraphicsUnmapResources(1, &resource_, stream_);
        check(err, "cudaGraphicsResourceGetMappedPointer");
    }
}

CudaGlBuffer::Mapping::~Mapping() {
    cudaGraphicsUnmapResources(1, &resource_, stream_);
}

CudaGlBuffer::Mapping CudaGlBuffer::map(cudaStream_t stream) {
    if (resource_ == nullptr) throw RenderError("CUDA-GL interop: map() before attach()");
    return Mapping(resource_, stream);
}

void CudaGlBuffer::copyFromDevice(const void* source, std::size_t bytes, cudaStream_t stream) {
    const Mapping m = map(stream);
    if (bytes > m.size())
        throw RenderError("CUDA-GL interop: " + std::to_string(bytes) +
                          " bytes do not fit the GL buffer of " + std::to_string(m.size()));
    check(cudaMemcpyAsync(m.data(), source, bytes, cudaMemcpyDeviceToDevice, stream),
          "cudaMemcpyAsync into the GL buffer");
}

bool cudaGlInteropAvailable() {
    GLuint probe = 0;
    glCreateBuffers(1, &probe);
    glNamedBufferStorage(probe, 64, nullptr, 0);
    cudaGraphicsResource_t r = nullptr;
    const cudaError_t err = cudaGraphicsGLRegisterBuffer(&r, probe, cudaGraphicsRegisterFlagsNone);
    if (err == cudaSuccess)
        cudaGraphicsUnregisterResource(r);
    else
        cudaGetLastError();
    glDeleteBuffers(1, &probe);
    return err == cudaSuccess;
}

}  // namespace cf::render
