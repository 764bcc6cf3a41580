// Shared by the CUDA sources of libcuzk_cuda: errors, launches, stream-ordered device memory.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "cuzk/cuzk.h"
#include "runtime/errors.hpp"

namespace cuzk {
namespace cu {

inline void check(cudaError_t e, const char* call) {
    if (e != cudaSuccess) {
        cuzk_status_t s = (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) ? CUZK_ERR_NO_DEVICE : CUZK_ERR_CUDA;
        fail(s, std::string(call) + ": " + cudaGetErrorName(e) + " (" + std::to_string((int)e) + "): " + cudaGetErrorString(e));
    }
}

// Checks a kernel launch (configuration errors surface at once, execution errors at the next sync).
inline void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

inline unsigned blocks(uint64_t threads, unsigned per_block) { return (unsigned)((threads + per_block - 1) / per_block); }

// Makes device current on the calling thread and, the first time a device is used: keeps freed
// pool memory in its default stream-ordered pool, so cudaMallocAsync is served from the pool; and
// sets its stack limit to the largest per-thread local memory of the kernels noted below, so that
// no launch finds the limit too small and waits for the whole device while the driver grows it.
void use_device(int device);

// Notes a kernel for use_device's stack limit; sources note their large kernels at file scope:
//   static const cuzk::cu::KernelStack noted[] = {(const void*)&some_kernel<T>, ...};
struct KernelStack {
    KernelStack(const void* kernel);
};

// Device memory from the stream-ordered pool, freed on the same stream when the owner goes.
template <class T>
struct PoolBuffer {
    T* ptr = nullptr;
    cudaStream_t stream = nullptr;
    PoolBuffer() = default;
    PoolBuffer(uint64_t count, cudaStream_t s) : stream(s) {
        void* p = nullptr;
        check(cudaMallocAsync(&p, count ? count * sizeof(T) : 1, s), "cudaMallocAsync");
        ptr = static_cast<T*>(p);
    }
    PoolBuffer(const PoolBuffer&) = delete;
    PoolBuffer& operator=(const PoolBuffer&) = delete;
    PoolBuffer(PoolBuffer&& o) noexcept : ptr(o.ptr), stream(o.stream) { o.ptr = nullptr; }
    PoolBuffer& operator=(PoolBuffer&& o) noexcept {
        if (this != &o) {
            if (ptr) cudaFreeAsync(ptr, stream);
            ptr = o.ptr;
            stream = o.stream;
            o.ptr = nullptr;
        }
        return *this;
    }
    ~PoolBuffer() {
        if (ptr) cudaFreeAsync(ptr, stream);
    }
};

}  // namespace cu
}  // namespace cuzk
