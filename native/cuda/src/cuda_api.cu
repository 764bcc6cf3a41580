// CUDA entry points of the ABI. The kernels here run the very templates of cuzk/*.hpp that the CPU
// backend runs, compiled by nvcc, so a GPU run can be compared with the host element by element.
#include <cuda_runtime.h>

#include <string>

#include "cuzk/cuzk.h"
#include "cuzk/ops.hpp"
#include "dispatch.hpp"
#include "errors.hpp"

using namespace cuzk;

namespace {

void check_cuda(cudaError_t e, const char* call) {
    if (e != cudaSuccess) {
        cuzk_status_t s = (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) ? CUZK_ERR_NO_DEVICE : CUZK_ERR_CUDA;
        fail(s, std::string(call) + ": " + cudaGetErrorName(e) + " (" + std::to_string((int)e) + "): " + cudaGetErrorString(e));
    }
}

template <class F, bool EXT>
__global__ void field_op_kernel(uint32_t op, const F* a, const F* b, F* out, uint64_t n) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if constexpr (EXT) out[i] = ext_field_apply(op, a[i], b[i]);
    else out[i] = prime_field_apply(op, a[i], b[i]);
}

template <class G>
__global__ void point_op_kernel(uint32_t op, const Affine<G>* a, const uint8_t* b, size_t b_stride, Affine<G>* out,
                                uint64_t n) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = point_apply<G>(op, a ? a[i] : Affine<G>::infinity(), b ? b + i * b_stride : nullptr);
}

// Device buffers from the stream-ordered pool, released on every path.
struct DeviceScope {
    cudaStream_t stream = nullptr;
    void* ptrs[4] = {nullptr, nullptr, nullptr, nullptr};
    int used = 0;
    explicit DeviceScope(int device) {
        check_cuda(cudaSetDevice(device), "cudaSetDevice");
        check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    }
    void* alloc(size_t bytes) {
        void* p = nullptr;
        check_cuda(cudaMallocAsync(&p, bytes ? bytes : 1, stream), "cudaMallocAsync");
        ptrs[used++] = p;
        return p;
    }
    void upload(void* dst, const void* src, size_t bytes) {
        check_cuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync(host to device)");
    }
    void download(void* dst, const void* src, size_t bytes) {
        check_cuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync(device to host)");
        check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    }
    ~DeviceScope() {
        for (int i = 0; i < used; i++) cudaFreeAsync(ptrs[i], stream);
        if (stream) {
            cudaStreamSynchronize(stream);
            cudaStreamDestroy(stream);
        }
    }
};

unsigned blocks_for(uint64_t n, unsigned block) { return (unsigned)((n + block - 1) / block); }

}  // namespace

extern "C" {

CUZK_API cuzk_status_t cuzk_cuda_device_count(int32_t* count) {
    return guarded("cuzk_cuda_device_count", [&] {
        require(count != nullptr, "count is null");
        *count = 0;
        int c = 0;
        check_cuda(cudaGetDeviceCount(&c), "cudaGetDeviceCount");
        *count = c;
    });
}

CUZK_API cuzk_status_t cuzk_cuda_field_op(int32_t device, uint32_t curve, uint32_t field, uint32_t op, const void* a,
                                          const void* b, void* out, uint64_t n) {
    return guarded("cuzk_cuda_field_op", [&] {
        require(field_op_known(op), "unknown field operation " + std::to_string(op));
        if (n == 0) return;
        require(a != nullptr && out != nullptr, "a and out must not be null");
        bool binary = op == CUZK_OP_ADD || op == CUZK_OP_SUB || op == CUZK_OP_MUL;
        require(!binary || b != nullptr, "b is null");
        with_field(curve, field, [&](auto tag) {
            using F = typename decltype(tag)::type;
            constexpr bool EXT = is_ext_field<F>::value;
            const size_t bytes = n * sizeof(F);
            DeviceScope scope(device);
            F* da = static_cast<F*>(scope.alloc(bytes));
            F* db = binary ? static_cast<F*>(scope.alloc(bytes)) : da;
            F* dout = static_cast<F*>(scope.alloc(bytes));
            scope.upload(da, a, bytes);
            if (binary) scope.upload(db, b, bytes);
            field_op_kernel<F, EXT><<<blocks_for(n, 128), 128, 0, scope.stream>>>(op, da, db, dout, n);
            check_cuda(cudaGetLastError(), "field_op_kernel launch");
            scope.download(out, dout, bytes);
        });
    });
}

CUZK_API cuzk_status_t cuzk_cuda_point_op(int32_t device, uint32_t curve, uint32_t group, uint32_t op, const void* a,
                                          const void* b, void* out, uint64_t n) {
    return guarded("cuzk_cuda_point_op", [&] {
        require(point_op_known(op), "unknown point operation " + std::to_string(op));
        if (n == 0) return;
        require(out != nullptr, "out is null");
        require(op == CUZK_POINT_GENERATOR || a != nullptr, "a is null");
        bool has_b = op == CUZK_POINT_ADD || op == CUZK_POINT_MUL;
        require(!has_b || b != nullptr, "b is null");
        with_group(curve, group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            using A = Affine<G>;
            const size_t bytes = n * sizeof(A);
            const size_t b_stride = op == CUZK_POINT_MUL ? 32 : sizeof(A);
            DeviceScope scope(device);
            A* da = nullptr;
            if (a) {
                da = static_cast<A*>(scope.alloc(bytes));
                scope.upload(da, a, bytes);
            }
            uint8_t* dbp = nullptr;
            if (has_b) {
                dbp = static_cast<uint8_t*>(scope.alloc(n * b_stride));
                scope.upload(dbp, b, n * b_stride);
            }
            A* dout = static_cast<A*>(scope.alloc(bytes));
            point_op_kernel<G><<<blocks_for(n, 64), 64, 0, scope.stream>>>(op, da, dbp, b_stride, dout, n);
            check_cuda(cudaGetLastError(), "point_op_kernel launch");
            scope.download(out, dout, bytes);
        });
    });
}

}  // extern "C"
