// Groth16's H on the GPU, asynchronous on a caller-given stream: per polynomial the paired transform
// of ntt/cuda/ntt.cu (inverse as DIF, coset as DIT, no bit-reversal passes), then h = a * b - c by the per-thread body the CPU code runs too (h_gpu.hpp).
#include "groth16/h_gpu.hpp"
#include "ntt/cuda/ntt.cuh"
#include "runtime/api_common.hpp"
#include "runtime/cuda/common.cuh"
#include "runtime/dispatch.hpp"

using namespace cuzk;
using cuzk::cu::blocks;
using cuzk::cu::check_launch;
using cuzk_ntt_kernels::h_transform_on_stream;

namespace cuzk_h_kernels {

template <class Fr>
__global__ void h_kernel(Fr* a, const Fr* b, const Fr* c, uint64_t n) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) gpu::groth16_h_body(a, b, c, i);
}

}  // namespace cuzk_h_kernels

using namespace cuzk_h_kernels;

extern "C" {

CUZK_API cuzk_status_t cuzk_cuda_groth16_h(int32_t device, void* stream, uint32_t curve, uint32_t log_n, void* d_a, void* d_b,
                                           void* d_c) {
    return guarded("cuzk_cuda_groth16_h", [&] {
        require(d_a && d_b && d_c, "a, b and c must not be null");
        cuzk::cu::use_device(device);
        with_scalar_field(curve, [&](auto tag) {
            using Fr = typename decltype(tag)::type;
            require(log_n <= (uint32_t)std::min(MAX_NTT_LOG, Fr::Params::TWO_ADICITY - 1), "log_n too large");
            cudaStream_t s = static_cast<cudaStream_t>(stream);
            Fr* v[3] = {static_cast<Fr*>(d_a), static_cast<Fr*>(d_b), static_cast<Fr*>(d_c)};
            for (Fr* x : v) h_transform_on_stream<Fr>(device, s, x, (int)log_n);
            uint64_t n = 1ull << log_n;
            h_kernel<Fr><<<blocks(n, 256), 256, 0, s>>>(v[0], v[1], v[2], n);
            check_launch("h_kernel");
        });
    });
}

}  // extern "C"
