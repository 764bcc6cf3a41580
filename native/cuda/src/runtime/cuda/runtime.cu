// libcuzk_cuda: errors of its own (its thread-local message is separate from libcuzk's), device
// selection, and the arithmetic self-test that compares nvcc's build of the field and curve code
// with the host's.
#include <mutex>
#include <set>

#include "cuzk/ops.hpp"
#include "runtime/cuda/common.cuh"
#include "runtime/dispatch.hpp"

namespace cuzk {

namespace {
thread_local std::string last_error;
}

void set_last_error(const std::string& message) { last_error = message; }

namespace cuda {

void use_device(int device) {
    check(cudaSetDevice(device), "cudaSetDevice");
    static std::mutex m;
    static std::set<int> configured;
    std::lock_guard<std::mutex> g(m);
    if (configured.insert(device).second) {
        cudaMemPool_t pool;
        check(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool");
        uint64_t keep = UINT64_MAX;
        check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "cudaMemPoolSetAttribute");
    }
}

}  // namespace cuda
}  // namespace cuzk

using namespace cuzk;
using cuzk::cuda::blocks;
using cuzk::cuda::check;
using cuzk::cuda::check_launch;
using cuzk::cuda::PoolBuffer;

namespace cuzk_glue {

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

struct Scope {
    cudaStream_t stream = nullptr;
    explicit Scope(int device) {
        cuzk::cuda::use_device(device);
        check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    }
    void upload(void* dst, const void* src, size_t bytes) {
        check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync(host to device)");
    }
    void download(void* dst, const void* src, size_t bytes) {
        check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync(device to host)");
        check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    }
    ~Scope() {
        if (stream) {
            cudaStreamSynchronize(stream);
            cudaStreamDestroy(stream);
        }
    }
};

}  // namespace cuzk_glue

using namespace cuzk_glue;

extern "C" {

CUZK_API const char* cuzk_cuda_last_error(void) { return cuzk::last_error.c_str(); }

CUZK_API cuzk_status_t cuzk_cuda_device_count(int32_t* count) {
    return guarded("cuzk_cuda_device_count", [&] {
        require(count != nullptr, "count is null");
        *count = 0;
        int c = 0;
        check(cudaGetDeviceCount(&c), "cudaGetDeviceCount");
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
            const size_t bytes = n * sizeof(F);
            Scope scope(device);
            PoolBuffer<F> da(n, scope.stream), db(binary ? n : 1, scope.stream), dout(n, scope.stream);
            scope.upload(da.ptr, a, bytes);
            if (binary) scope.upload(db.ptr, b, bytes);
            field_op_kernel<F, is_ext_field<F>::value><<<blocks(n, 128), 128, 0, scope.stream>>>(op, da.ptr, binary ? db.ptr : da.ptr,
                                                                                                 dout.ptr, n);
            check_launch("field_op_kernel");
            scope.download(out, dout.ptr, bytes);
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
            Scope scope(device);
            PoolBuffer<A> da(a ? n : 1, scope.stream), dout(n, scope.stream);
            PoolBuffer<uint8_t> dbp(has_b ? n * b_stride : 1, scope.stream);
            if (a) scope.upload(da.ptr, a, bytes);
            if (has_b) scope.upload(dbp.ptr, b, n * b_stride);
            point_op_kernel<G><<<blocks(n, 64), 64, 0, scope.stream>>>(op, a ? da.ptr : nullptr, has_b ? dbp.ptr : nullptr, b_stride,
                                                                        dout.ptr, n);
            check_launch("point_op_kernel");
            scope.download(out, dout.ptr, bytes);
        });
    });
}

}  // extern "C"
