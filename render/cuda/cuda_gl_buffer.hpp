// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CUDA-GL interop for buffers the renderer owns: registered once per GL buffer object (and
// again when the renderer replaces the object), mapped only inside a scope guard so that
// no device pointer outlives its mapping. Use on the thread whose GL context is current.
#include <epoxy/gl.h>

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>

namespace cf::render {

class CudaGlBuffer {
public:
    CudaGlBuffer() = default;
    ~CudaGlBuffer();
    CudaGlBuffer(const CudaGlBuffer&) = delete;
    CudaGlBuffer& operator=(const CudaGlBuffer&) = delete;

    // (Re)registers when `buffer` or its `storageId` (the owner's, see newStorageId():
    // GL reuses names) differ from the registered ones; write-discard: CUDA overwrites the
    // whole range it copies. Throws RenderError (e.g. no interop: the caller falls back to
    // a host upload).
    void attach(GLuint buffer, std::uint64_t storageId);
    GLuint buffer() const { return buffer_; }

    class Mapping {
    public:
        ~Mapping();
        Mapping(const Mapping&) = delete;
        Mapping& operator=(const Mapping&) = delete;
        void* data() const { return data_; }
        std::size_t size() const { return size_; }

    private:
        friend class CudaGlBuffer;
        Mapping(cudaGraphicsResource_t resource, cudaStream_t stream);
        cudaGraphicsResource_t resource_;
        cudaStream_t stream_;
        void* data_ = nullptr;
        std::size_t size_ = 0;
    };
    // Maps for CUDA on `stream`; GL must not use the buffer until the Mapping is gone.
    Mapping map(cudaStream_t stream);

    // Device-to-device copy of `bytes` from `source` into the buffer, ordered on `stream`.
    void copyFromDevice(const void* source, std::size_t bytes, cudaStream_t stream);

private:
    void release();
    GLuint buffer_ = 0;
    std::uint64_t storageId_ = 0;
    cudaGraphicsResource_t resource_ = nullptr;
};

// True when CUDA-GL interop works with the current context (registers a scratch buffer).
bool cudaGlInteropAvailable();

}  // namespace cf::render
