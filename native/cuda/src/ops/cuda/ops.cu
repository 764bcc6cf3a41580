// The arithmetic self-test of libcuzk_cuda: cuzk_field_op and cuzk_point_op run on a device by
// nvcc's build of the same field and curve code, to be compared with the host's. The Montgomery
// product (mont32.hpp's PTX) is kept out of line here: the self-test checks the same code, and
// inlined into every G2 formula this one source took nvcc about two minutes on CI's machine.
#define CUZK_DEVICE_MUL_OUT_OF_LINE 1
#include "cuzk/ops.hpp"
#include "runtime/cuda/common.cuh"
#include "runtime/dispatch.hpp"

using namespace cuzk;
using cuzk::cu::blocks;
using cuzk::cu::check;
using cuzk::cu::check_launch;
using cuzk::cu::PoolBuffer;

namespace cuzk_ops_kernels {

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

// For the stack limit set at device open: the point operations of every group.
const cu::KernelStack noted[] = {
    (const void*)&point_op_kernel<bn254_g1>,     (const void*)&point_op_kernel<bn254_g2>,
    (const void*)&point_op_kernel<bls12_381_g1>, (const void*)&point_op_kernel<bls12_381_g2>,
};

struct Scope {
    cudaStream_t stream = nullptr;
    explicit Scope(int device) {
        cuzk::cu::use_device(device);
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

}  // namespace cuzk_ops_kernels

using namespace cuzk_ops_kernels;

extern "C" {

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
        const bool mul = op == CUZK_POINT_MUL || op == CUZK_POINT_MUL_SUBGROUP;
        bool has_b = op == CUZK_POINT_ADD || mul;
        require(!has_b || b != nullptr, "b is null");
        with_group(curve, group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            using A = Affine<G>;
            const size_t bytes = n * sizeof(A);
            const size_t b_stride = mul ? 32 : sizeof(A);
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
