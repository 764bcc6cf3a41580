// NTTs over Fr on the GPU, asynchronous on a caller-given stream. The per-thread code is
// ntt_gpu.hpp, which the host emulation runs too.
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "ntt/cuda/ntt.cuh"
#include "ntt/ntt_cpu.hpp"
#include "ntt/ntt_gpu.hpp"
#include "runtime/api_common.hpp"
#include "runtime/cuda/common.cuh"
#include "runtime/dispatch.hpp"

using namespace cuzk;
using cuzk::cu::blocks;
using cuzk::cu::check;
using cuzk::cu::check_launch;

namespace cuzk_ntt_kernels {

template <class Fr>
__global__ void bitrev_kernel(Fr* a, int log_n) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (1ull << log_n)) gpu::ntt_bitrev_body(a, log_n, i);
}

// One block per group of 2^k elements, 2^(k-1) threads, the group in shared memory. DIT: stages j
// upwards; DIF: stages j downwards, with the inverse's twiddles when inverse.
template <class Fr>
__global__ void __launch_bounds__(1 << (gpu::NTT_MAX_GROUP_LOG - 1))
    group_kernel(Fr* a, gpu::NttTwiddles<Fr> tw, int log_n, int s0, int k, bool dif, bool inverse) {
    extern __shared__ uint64_t smem[];
    Fr* shared = reinterpret_cast<Fr*>(smem);
    const uint64_t g = blockIdx.x;
    const uint32_t q = threadIdx.x;
    gpu::ntt_group_load(a, shared, s0, k, g, q);
    __syncthreads();
    for (int jj = 0; jj < k; jj++) {
        if (dif) gpu::ntt_group_stage_dif(shared, tw, log_n, s0, k - 1 - jj, inverse, g, q);
        else gpu::ntt_group_stage(shared, tw, log_n, s0, jj, g, q);
        __syncthreads();
    }
    gpu::ntt_group_store(a, shared, s0, k, g, q);
}

template <class Fr>
__global__ void bitrev_coset_kernel(Fr* a, uint64_t n, int log_n, const Fr* low, const Fr* high, Fr scale) {
    uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) gpu::ntt_bitrev_coset_body(a, low, high, scale, log_n, j);
}

template <class Fr>
__global__ void reverse_scale_kernel(Fr* a, uint64_t n, Fr scale) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n / 2) gpu::ntt_reverse_scale_body(a, n, scale, i);
}

template <class Fr>
__global__ void coset_kernel(Fr* a, uint64_t n, const Fr* low, const Fr* high, Fr scale) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) gpu::ntt_coset_body(a, low, high, scale, i);
}

// For the stack limit set at device open.
const cu::KernelStack noted[] = {
    (const void*)&group_kernel<bn254_fr>, (const void*)&group_kernel<bls12_381_fr>,
    (const void*)&coset_kernel<bn254_fr>, (const void*)&coset_kernel<bls12_381_fr>,
};

// The partial twiddle tables on each device (gpu::NttTwiddles: a few KiB to 192 KiB), made once per
// (device, curve, size), log_n >= 1, and kept.
template <class Fr>
gpu::NttTwiddles<Fr> device_twiddles(int device, int log_n) {
    static std::mutex m;
    static std::map<std::pair<int, int>, gpu::NttTwiddles<Fr>> tables;
    std::lock_guard<std::mutex> g(m);
    auto key = std::make_pair(device, log_n);
    auto it = tables.find(key);
    if (it != tables.end()) return it->second;
    const size_t lo = (size_t)1 << gpu::ntt_twiddle_lo_bits(log_n), hi = gpu::ntt_twiddle_hi_count(log_n);
    std::vector<Fr> host(lo + hi);
    gpu::ntt_twiddle_tables(root_of_unity<Fr>(log_n), log_n, host.data(), host.data() + lo);
    void* p = nullptr;
    check(cudaMalloc(&p, host.size() * sizeof(Fr)), "cudaMalloc(twiddles)");  // kept for the process: not per call
    check(cudaMemcpy(p, host.data(), host.size() * sizeof(Fr), cudaMemcpyHostToDevice), "cudaMemcpy(twiddles)");
    // a pageable cudaMemcpy may return before its DMA lands, and the callers' streams are
    // non-blocking (not ordered after the legacy stream): wait before publishing the tables
    check(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize(legacy)");
    gpu::NttTwiddles<Fr> t{static_cast<Fr*>(p), static_cast<Fr*>(p) + lo, gpu::ntt_twiddle_lo_bits(log_n)};
    tables[key] = t;
    return t;
}

// The tables of g^i (low: i < 1024, high: multiples of 1024) for a coset shift, on each device,
// made once per (device, size, shift) and kept: Groth16 uses one shift per domain.
template <class Fr>
std::pair<const Fr*, const Fr*> coset_tables(int device, int log_n, const Fr& g) {
    static std::mutex m;
    static std::map<std::vector<uint64_t>, std::pair<Fr*, Fr*>> tables;
    std::vector<uint64_t> key{(uint64_t)device, (uint64_t)log_n};
    key.insert(key.end(), g.l, g.l + Fr::N);
    std::lock_guard<std::mutex> lock(m);
    auto it = tables.find(key);
    if (it != tables.end()) return it->second;
    const uint64_t n = 1ull << log_n;
    std::vector<Fr> low(1024), high((n >> 10) + 1);
    gpu::ntt_coset_powers(g, log_n, low.data(), high.data());
    void *dl = nullptr, *dh = nullptr;
    check(cudaMalloc(&dl, low.size() * sizeof(Fr)), "cudaMalloc(coset table)");
    check(cudaMalloc(&dh, high.size() * sizeof(Fr)), "cudaMalloc(coset table)");
    check(cudaMemcpy(dl, low.data(), low.size() * sizeof(Fr), cudaMemcpyHostToDevice), "cudaMemcpy(coset table)");
    check(cudaMemcpy(dh, high.data(), high.size() * sizeof(Fr), cudaMemcpyHostToDevice), "cudaMemcpy(coset table)");
    check(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize(legacy)");  // as for the twiddles
    auto t = std::make_pair(static_cast<Fr*>(dl), static_cast<Fr*>(dh));
    tables[key] = t;
    return t;
}

// a[i] *= scale * g^i, queued on the stream.
template <class Fr>
void coset_scale(int device, Fr* a, int log_n, const Fr& g, const Fr& scale, cudaStream_t stream) {
    auto t = coset_tables<Fr>(device, log_n, g);
    const uint64_t n = 1ull << log_n;
    coset_kernel<Fr><<<blocks(n, 256), 256, 0, stream>>>(a, n, t.first, t.second, scale);
    check_launch("coset_kernel");
}

// The stage-group launches: DIT from the low bits up (bit-reversed in, natural out), or DIF from the
// top bits down (natural in, bit-reversed out; the inverse's twiddles when inverse).
template <class Fr>
void groups_on_stream(cudaStream_t stream, Fr* a, const gpu::NttTwiddles<Fr>& tw, int log_n, bool dif, bool inverse) {
    const uint64_t n = 1ull << log_n;
    int s0[8], ks[8];
    const int passes = gpu::ntt_passes(log_n, dif, s0, ks);
    for (int p = 0; p < passes; p++) {
        const int k = ks[p];
        const unsigned grid = (unsigned)(n >> k), threads = 1u << (k - 1);
        const size_t shared = sizeof(Fr) << k;
        group_kernel<Fr><<<grid, threads, shared, stream>>>(a, tw, log_n, s0[p], k, dif, inverse);
        check_launch("group_kernel");
    }
}

template <class Fr>
void h_transform_on_stream(int device, cudaStream_t stream, Fr* a, int log_n) {
    const uint64_t n = 1ull << log_n;
    const gpu::NttTwiddles<Fr> tw = n > 1 ? device_twiddles<Fr>(device, log_n) : gpu::NttTwiddles<Fr>{nullptr, nullptr, 0};
    if (n > 1) groups_on_stream(stream, a, tw, log_n, true, true);
    auto t = coset_tables<Fr>(device, log_n, root_of_unity<Fr>(log_n + 1));
    bitrev_coset_kernel<Fr><<<blocks(n, 256), 256, 0, stream>>>(a, n, log_n, t.first, t.second, Fr::from_u64(n).inv());
    check_launch("bitrev_coset_kernel");
    if (n > 1) groups_on_stream(stream, a, tw, log_n, false, false);
}
template void h_transform_on_stream(int, cudaStream_t, bn254_fr*, int);
template void h_transform_on_stream(int, cudaStream_t, bls12_381_fr*, int);

template <class Fr>
void ntt_on_stream(int device, cudaStream_t stream, Fr* a, int log_n, bool inverse, const Fr* shift) {
    const uint64_t n = 1ull << log_n;
    if (!inverse && shift) coset_scale(device, a, log_n, *shift, Fr::one(), stream);
    if (n > 1) {
        const gpu::NttTwiddles<Fr> tw = device_twiddles<Fr>(device, log_n);
        bitrev_kernel<Fr><<<blocks(n, 256), 256, 0, stream>>>(a, log_n);
        check_launch("bitrev_kernel");
        groups_on_stream(stream, a, tw, log_n, false, false);
    }
    if (inverse) {
        const Fr n_inv = Fr::from_u64(n).inv();
        reverse_scale_kernel<Fr><<<blocks(n / 2 + 1, 256), 256, 0, stream>>>(a, n, shift ? Fr::one() : n_inv);
        check_launch("reverse_scale_kernel");
        if (shift) coset_scale(device, a, log_n, shift->inv(), n_inv, stream);
    }
}

template void ntt_on_stream(int, cudaStream_t, bn254_fr*, int, bool, const bn254_fr*);
template void ntt_on_stream(int, cudaStream_t, bls12_381_fr*, int, bool, const bls12_381_fr*);

}  // namespace cuzk_ntt_kernels

using namespace cuzk_ntt_kernels;

extern "C" {

CUZK_API cuzk_status_t cuzk_cuda_ntt(int32_t device, void* stream, const cuzk_ntt_config* config, void* d_data) {
    return guarded("cuzk_cuda_ntt", [&] {
        require(config != nullptr && d_data != nullptr, "config and data must not be null");
        require(config->direction <= CUZK_NTT_INVERSE && config->coset <= 1, "bad direction or coset");
        cuzk::cu::use_device(device);
        with_scalar_field(config->curve, [&](auto tag) {
            using Fr = typename decltype(tag)::type;
            require(config->log_n <= (uint32_t)std::min(MAX_NTT_LOG, Fr::Params::TWO_ADICITY), "log_n too large");
            Fr shift = Fr::from_limbs(Fr::Params::generator());
            if (config->coset && config->coset_shift) std::memcpy(shift.l, config->coset_shift, sizeof(shift.l));
            ntt_on_stream<Fr>(device, static_cast<cudaStream_t>(stream), static_cast<Fr*>(d_data), (int)config->log_n,
                              config->direction == CUZK_NTT_INVERSE, config->coset ? &shift : nullptr);
        });
    });
}

}  // extern "C"
