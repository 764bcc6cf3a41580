// The G1 MSM on the GPU, in two phases for the engine: cuzk_cuda_msm_start queues every kernel on
// the caller's stream and returns; cuzk_cuda_msm_finish waits for the start's event, reads the
// window sums back and combines them on the host. The per-thread code is msm/msm_gpu.hpp, which
// the host emulation runs too. G2 MSMs stay on CPU threads, overlapped with the GPU's work (see
// docs/gpu.md for why).
#include <cub/device/device_radix_sort.cuh>

#include <mutex>
#include <vector>

#include "msm/msm_gpu.hpp"
#include "runtime/cuda/common.cuh"
#include "runtime/dispatch.hpp"

using namespace cuzk;
using cuzk::cuda::blocks;
using cuzk::cuda::check;
using cuzk::cuda::check_launch;
using cuzk::cuda::PoolBuffer;

struct cuzk_cuda_msm {
    int device;
    uint32_t curve;
    gpu::MsmShape shape;
    cudaEvent_t done = nullptr;
    void* windows = nullptr;  // pinned: the W window sums, XYZZ
    size_t window_bytes = 0;
};

namespace cuzk_msm_kernels {

template <class G>
__global__ void digits_kernel(gpu::MsmShape sh, const uint64_t* scalars, bool montgomery, uint32_t* keys, uint32_t* values) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < sh.n) gpu::msm_digits_body<G>(sh, scalars, montgomery, keys, values, i);
}

__global__ void bounds_kernel(const uint32_t* keys, uint64_t total, uint32_t skip, uint32_t* start, uint32_t* end) {
    uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j < total) gpu::msm_bounds_body(keys, total, skip, start, end, j);
}

template <class G>
__global__ void bucket_kernel(const Affine<G>* bases, const uint32_t* values, const uint32_t* start, const uint32_t* end,
                              XYZZ<G>* sums, uint64_t nb) {
    uint64_t b = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nb) gpu::msm_bucket_body<G>(bases, values, start, end, sums, b);
}

template <class G>
__global__ void segment_kernel(gpu::MsmShape sh, const XYZZ<G>* sums, XYZZ<G>* seg_sum, XYZZ<G>* seg_weighted, uint64_t runs) {
    uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < runs) gpu::msm_segment_body<G>(sh, sums, seg_sum, seg_weighted, t);
}

template <class G>
__global__ void window_kernel(gpu::MsmShape sh, const XYZZ<G>* seg_sum, const XYZZ<G>* seg_weighted, XYZZ<G>* window) {
    uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w < sh.windows) gpu::msm_window_body<G>(sh, seg_sum, seg_weighted, window, w);
}

int bit_width(uint64_t v) {
    int b = 0;
    while ((1ull << b) <= v) b++;
    return b;
}

// Small pinned buffers for the window sums, reused so that no MSM calls cudaHostAlloc.
std::mutex pinned_mutex;
std::vector<std::pair<size_t, void*>> pinned_free;

void* take_pinned(size_t bytes) {
    {
        std::lock_guard<std::mutex> g(pinned_mutex);
        for (size_t i = 0; i < pinned_free.size(); i++) {
            if (pinned_free[i].first >= bytes) {
                void* p = pinned_free[i].second;
                pinned_free.erase(pinned_free.begin() + (long)i);
                return p;
            }
        }
    }
    void* p = nullptr;
    check(cudaHostAlloc(&p, bytes < 65536 ? 65536 : bytes, cudaHostAllocPortable), "cudaHostAlloc");
    return p;
}

void give_pinned(void* p, size_t bytes) {
    std::lock_guard<std::mutex> g(pinned_mutex);
    pinned_free.emplace_back(bytes < 65536 ? 65536 : bytes, p);
}

template <class G>
void start(cuzk_cuda_msm& h, cudaStream_t s, const cuzk_msm_config& cfg, const void* d_bases, const void* d_scalars) {
    using P = XYZZ<G>;
    const gpu::MsmShape sh = h.shape;
    const uint64_t pairs = (uint64_t)sh.windows * sh.n;
    require(pairs < (1ull << 31), "the GPU MSM sorts fewer than 2^31 (window, point) pairs");
    PoolBuffer<uint32_t> keys(pairs, s), values(pairs, s), sorted_keys(pairs, s), sorted_values(pairs, s);
    digits_kernel<G><<<blocks(sh.n, 256), 256, 0, s>>>(sh, static_cast<const uint64_t*>(d_scalars),
                                                       cfg.scalar_form == CUZK_SCALAR_MONTGOMERY, keys.ptr, values.ptr);
    check_launch("digits_kernel");
    const int end_bit = bit_width(sh.skip_key);
    size_t temp_bytes = 0;
    check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys.ptr, sorted_keys.ptr, values.ptr, sorted_values.ptr,
                                          (int)pairs, 0, end_bit, s),
          "cub::DeviceRadixSort::SortPairs (size)");
    PoolBuffer<uint8_t> temp(temp_bytes, s);
    check(cub::DeviceRadixSort::SortPairs(temp.ptr, temp_bytes, keys.ptr, sorted_keys.ptr, values.ptr, sorted_values.ptr, (int)pairs,
                                          0, end_bit, s),
          "cub::DeviceRadixSort::SortPairs");
    const uint64_t nb = (uint64_t)sh.windows * sh.buckets;
    PoolBuffer<uint32_t> bstart(nb, s), bend(nb, s);
    check(cudaMemsetAsync(bstart.ptr, 0, nb * sizeof(uint32_t), s), "cudaMemsetAsync");
    check(cudaMemsetAsync(bend.ptr, 0, nb * sizeof(uint32_t), s), "cudaMemsetAsync");
    bounds_kernel<<<blocks(pairs, 256), 256, 0, s>>>(sorted_keys.ptr, pairs, sh.skip_key, bstart.ptr, bend.ptr);
    check_launch("bounds_kernel");
    PoolBuffer<P> sums(nb, s);
    bucket_kernel<G><<<blocks(nb, 128), 128, 0, s>>>(static_cast<const Affine<G>*>(d_bases), sorted_values.ptr, bstart.ptr, bend.ptr,
                                                     sums.ptr, nb);
    check_launch("bucket_kernel");
    const uint64_t runs = (uint64_t)sh.windows * sh.segments;
    PoolBuffer<P> seg_sum(runs, s), seg_weighted(runs, s), window(sh.windows, s);
    segment_kernel<G><<<blocks(runs, 128), 128, 0, s>>>(sh, sums.ptr, seg_sum.ptr, seg_weighted.ptr, runs);
    check_launch("segment_kernel");
    window_kernel<G><<<blocks(sh.windows, 32), 32, 0, s>>>(sh, seg_sum.ptr, seg_weighted.ptr, window.ptr);
    check_launch("window_kernel");
    check(cudaEventCreateWithFlags(&h.done, cudaEventDisableTiming | cudaEventBlockingSync), "cudaEventCreateWithFlags");
    h.window_bytes = sh.windows * sizeof(P);
    h.windows = take_pinned(h.window_bytes);
    check(cudaMemcpyAsync(h.windows, window.ptr, h.window_bytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync(window sums)");
    check(cudaEventRecord(h.done, s), "cudaEventRecord");
    // the buffers above go back to the stream-ordered pool here, after the queued work
}

template <class G>
void finish(cuzk_cuda_msm& h, void* result) {
    using P = XYZZ<G>;
    check(cudaEventSynchronize(h.done), "cudaEventSynchronize");
    const P* window = static_cast<const P*>(h.windows);
    P acc = P::infinity();
    for (uint32_t w = h.shape.windows; w-- > 0;) {
        for (uint32_t i = 0; i < h.shape.c; i++) acc = acc.dbl();
        acc.add(window[w]);
    }
    *static_cast<Affine<G>*>(result) = acc.to_affine();
}

void release(cuzk_cuda_msm* h) {
    if (!h) return;
    if (h->done) cudaEventDestroy(h->done);
    if (h->windows) give_pinned(h->windows, h->window_bytes);
    delete h;
}

template <class Fn>
void with_g1(uint32_t curve, Fn&& fn) {
    require_curve(curve);
    if (curve == CUZK_CURVE_BN254) fn(Tag<bn254_g1>{});
    else fn(Tag<bls12_381_g1>{});
}

}  // namespace cuzk_msm_kernels

using namespace cuzk_msm_kernels;

extern "C" {

CUZK_API cuzk_status_t cuzk_cuda_msm_start(int32_t device, void* stream, const cuzk_msm_config* config, const void* d_bases,
                                           const void* d_scalars, cuzk_cuda_msm** out) {
    return guarded("cuzk_cuda_msm_start", [&] {
        require(config != nullptr && out != nullptr, "config and out must not be null");
        *out = nullptr;
        require(config->group == CUZK_G1, "the GPU MSM is for G1; G2 MSMs run on the CPU backend, overlapped with the GPU");
        require(config->scalar_form <= CUZK_SCALAR_MONTGOMERY, "unknown scalar form");
        require(config->window_bits == 0 || (config->window_bits >= 2 && config->window_bits <= 20), "window_bits must be 0 or 2..20");
        require(config->count == 0 || (d_bases && d_scalars), "bases and scalars must not be null");
        require(config->count < (1ull << 31), "the GPU MSM takes fewer than 2^31 points");
        cuzk::cuda::use_device(device);
        auto* h = new cuzk_cuda_msm();
        try {
            h->device = device;
            h->curve = config->curve;
            with_g1(config->curve, [&](auto tag) {
                using G = typename decltype(tag)::type;
                uint64_t n = config->count ? config->count : 1;
                uint32_t c = config->window_bits ? config->window_bits : gpu::gpu_window_bits(n);
                h->shape = gpu::msm_shape(config->count, G::Fr::Params::BITS, c);
                if (config->count == 0) {
                    h->windows = nullptr;
                    check(cudaEventCreateWithFlags(&h->done, cudaEventDisableTiming), "cudaEventCreateWithFlags");
                    check(cudaEventRecord(h->done, static_cast<cudaStream_t>(stream)), "cudaEventRecord");
                    h->shape.windows = 0;
                    return;
                }
                start<G>(*h, static_cast<cudaStream_t>(stream), *config, d_bases, d_scalars);
            });
        } catch (...) {
            // work may already be queued that writes into the handle's pinned buffer: let it drain
            // before the buffer goes back to the free list
            cudaStreamSynchronize(static_cast<cudaStream_t>(stream));
            release(h);
            throw;
        }
        *out = h;
    });
}

CUZK_API cuzk_status_t cuzk_cuda_msm_finish(cuzk_cuda_msm* handle, void* result) {
    return guarded("cuzk_cuda_msm_finish", [&] {
        require(handle != nullptr && result != nullptr, "handle and result must not be null");
        struct Release {
            cuzk_cuda_msm* h;
            ~Release() { release(h); }
        } guard{handle};
        cuzk::cuda::use_device(handle->device);
        with_g1(handle->curve, [&](auto tag) {
            using G = typename decltype(tag)::type;
            if (handle->shape.windows == 0) {
                check(cudaEventSynchronize(handle->done), "cudaEventSynchronize");
                *static_cast<Affine<G>*>(result) = Affine<G>::infinity();
                return;
            }
            finish<G>(*handle, result);
        });
    });
}

}  // extern "C"
