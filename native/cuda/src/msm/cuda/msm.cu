// The G1 and G2 MSMs on the GPU, in two phases for the engine: cuzk_cuda_msm_start queues every
// kernel on the caller's stream and returns; cuzk_cuda_msm_finish waits for the start's event,
// reads the window sums back and combines them on the host. The per-thread code is
// msm/msm_gpu.hpp, which the host emulation runs too, for both groups. Whether a proof's G2 MSM
// runs here or on CPU threads overlapped with the GPU is the Java backend's choice (docs/gpu.md).
// cuzk_cuda_msm_precompute makes the tables of shifted copies the MSM can run over instead of the
// plain bases (fixed-base windows; see msm_gpu.hpp).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <mutex>
#include <vector>

#include "msm/msm_gpu.hpp"
#include "runtime/cuda/common.cuh"
#include "runtime/dispatch.hpp"

using namespace cuzk;
using cuzk::cu::blocks;
using cuzk::cu::check;
using cuzk::cu::check_launch;
using cuzk::cu::PoolBuffer;

struct cuzk_cuda_msm {
    int device;
    uint32_t curve;
    uint32_t group;
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

__global__ void run_count_kernel(uint32_t run, const uint32_t* start, const uint32_t* end, uint64_t nb, uint32_t* count) {
    uint64_t b = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b <= nb) gpu::msm_run_count_body(run, start, end, nb, count, b);
}

template <class G>
__global__ void point_run_kernel(uint32_t run, const Affine<G>* bases, const uint32_t* values, const uint32_t* start,
                                 const uint32_t* end, const uint32_t* offset, uint64_t nb, XYZZ<G>* out, uint64_t grid) {
    uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r < grid) gpu::msm_point_run_body<G>(run, bases, values, start, end, offset, nb, out, r);
}

template <class G>
__global__ void sum_run_kernel(uint32_t run, const XYZZ<G>* in, const uint32_t* start, const uint32_t* end,
                               const uint32_t* offset, uint64_t nb, XYZZ<G>* out, uint64_t grid) {
    uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r < grid) gpu::msm_sum_run_body<G>(run, in, start, end, offset, nb, out, r);
}

template <class G>
__global__ void bucket_gather_kernel(const XYZZ<G>* runs, const uint32_t* offset, XYZZ<G>* sums, uint64_t nb) {
    uint64_t b = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nb) gpu::msm_bucket_gather_body<G>(runs, offset, sums, b);
}

template <class G>
__global__ void shift_kernel(uint32_t doublings, const Affine<G>* prev, XYZZ<G>* shifted, uint64_t n) {
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) gpu::msm_shift_body<G>(doublings, prev, shifted, i);
}

template <class G>
__global__ void affine_kernel(const XYZZ<G>* in, uint64_t n, Affine<G>* out) {
    uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t * gpu::MSM_AFFINE_BATCH < n) gpu::msm_affine_body<G>(in, n, out, t);
}

template <class G>
__global__ void window_level_kernel(gpu::MsmLevel lv, const XYZZ<G>* x, const XYZZ<G>* a, XYZZ<G>* x_out, XYZZ<G>* a_out,
                                    uint64_t grid) {
    uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < grid) gpu::msm_window_level_body<G>(lv, x, a, x_out, a_out, t);
}

// The kernels with the largest frames (the G2 points' and BLS12-381's), for the stack limit set at
// device open.
const cu::KernelStack noted[] = {
    (const void*)&point_run_kernel<bn254_g1>,         (const void*)&point_run_kernel<bls12_381_g1>,
    (const void*)&sum_run_kernel<bn254_g1>,           (const void*)&sum_run_kernel<bls12_381_g1>,
    (const void*)&window_level_kernel<bn254_g1>,      (const void*)&window_level_kernel<bls12_381_g1>,
    (const void*)&bucket_gather_kernel<bls12_381_g1>, (const void*)&digits_kernel<bls12_381_g1>,
    (const void*)&point_run_kernel<bn254_g2>,         (const void*)&point_run_kernel<bls12_381_g2>,
    (const void*)&sum_run_kernel<bn254_g2>,           (const void*)&sum_run_kernel<bls12_381_g2>,
    (const void*)&window_level_kernel<bn254_g2>,      (const void*)&window_level_kernel<bls12_381_g2>,
    (const void*)&bucket_gather_kernel<bls12_381_g2>,
    (const void*)&affine_kernel<bls12_381_g1>,        (const void*)&affine_kernel<bls12_381_g2>,
    (const void*)&shift_kernel<bls12_381_g2>,
};

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
    const uint64_t nb = (uint64_t)sh.rows * sh.buckets;
    require(gpu::msm_level_runs(sh, 0) + nb < (1ull << 32), "the GPU MSM's runs must be counted in 32 bits");
    // The pairs, sorted in place between two buffers each (CUB's DoubleBuffer form: its temporary
    // storage is then a few MiB, not a third copy of the pairs as the plain form's is).
    PoolBuffer<uint32_t> keys(pairs, s), values(pairs, s), keys_alt(pairs, s), values_alt(pairs, s);
    digits_kernel<G><<<blocks(sh.n, 256), 256, 0, s>>>(sh, static_cast<const uint64_t*>(d_scalars),
                                                       cfg.scalar_form == CUZK_SCALAR_MONTGOMERY, keys.ptr, values.ptr);
    check_launch("digits_kernel");
    const int end_bit = bit_width(sh.skip_key);
    cub::DoubleBuffer<uint32_t> sort_keys(keys.ptr, keys_alt.ptr), sort_values(values.ptr, values_alt.ptr);
    PoolBuffer<uint32_t> count(nb + 1, s), offset_a(nb + 1, s), offset_b(nb + 1, s);
    size_t sort_bytes = 0, scan_bytes = 0;
    check(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, sort_keys, sort_values, (int)pairs, 0, end_bit, s),
          "cub::DeviceRadixSort::SortPairs (size)");
    check(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, count.ptr, offset_a.ptr, (int)(nb + 1), s),
          "cub::DeviceScan::ExclusiveSum (size)");
    size_t temp_bytes = sort_bytes > scan_bytes ? sort_bytes : scan_bytes;
    PoolBuffer<uint8_t> temp(temp_bytes, s);
    check(cub::DeviceRadixSort::SortPairs(temp.ptr, temp_bytes, sort_keys, sort_values, (int)pairs, 0, end_bit, s),
          "cub::DeviceRadixSort::SortPairs");
    const uint32_t* sorted_keys = sort_keys.Current();
    const uint32_t* sorted_values = sort_values.Current();
    PoolBuffer<uint32_t> bstart(nb, s), bend(nb, s);
    check(cudaMemsetAsync(bstart.ptr, 0, nb * sizeof(uint32_t), s), "cudaMemsetAsync");
    check(cudaMemsetAsync(bend.ptr, 0, nb * sizeof(uint32_t), s), "cudaMemsetAsync");
    bounds_kernel<<<blocks(pairs, 256), 256, 0, s>>>(sorted_keys, pairs, sh.skip_key, bstart.ptr, bend.ptr);
    check_launch("bounds_kernel");
    // Bucket sums in levels of runs; each level's bounds are the previous level's offsets.
    PoolBuffer<P> runs[2];
    uint64_t runs_size[2] = {0, 0};
    for (uint32_t level = 0; level < sh.levels; level++) {
        uint64_t bound = gpu::msm_level_runs(sh, level);
        if (bound > runs_size[level & 1]) runs_size[level & 1] = bound;
    }
    for (int i = 0; i < 2; i++) runs[i] = PoolBuffer<P>(runs_size[i], s);
    const uint32_t* lo = bstart.ptr;
    const uint32_t* hi = bend.ptr;
    uint32_t* offsets[2] = {offset_a.ptr, offset_b.ptr};
    for (uint32_t level = 0; level < sh.levels; level++) {
        uint32_t* off = offsets[level & 1];
        run_count_kernel<<<blocks(nb + 1, 256), 256, 0, s>>>(sh.run, lo, hi, nb, count.ptr);
        check_launch("run_count_kernel");
        check(cub::DeviceScan::ExclusiveSum(temp.ptr, temp_bytes, count.ptr, off, (int)(nb + 1), s), "cub::DeviceScan::ExclusiveSum");
        const uint64_t grid = gpu::msm_level_runs(sh, level);
        if (level == 0) {
            point_run_kernel<G><<<blocks(grid, 128), 128, 0, s>>>(sh.run, static_cast<const Affine<G>*>(d_bases), sorted_values, lo, hi,
                                                                   off, nb, runs[0].ptr, grid);
            check_launch("point_run_kernel");
        } else {
            sum_run_kernel<G><<<blocks(grid, 128), 128, 0, s>>>(sh.run, runs[(level - 1) & 1].ptr, lo, hi, off, nb,
                                                                 runs[level & 1].ptr, grid);
            check_launch("sum_run_kernel");
        }
        lo = off;
        hi = off + 1;
    }
    PoolBuffer<P> sums(nb, s);
    bucket_gather_kernel<G><<<blocks(nb, 256), 256, 0, s>>>(runs[(sh.levels - 1) & 1].ptr, offsets[(sh.levels - 1) & 1], sums.ptr, nb);
    check_launch("bucket_gather_kernel");
    // Window sums in levels of segments; the last level writes each window's sum to x[w].
    gpu::MsmLevel levels[32];
    const int nl = gpu::msm_window_levels(sh.buckets, levels);
    const uint64_t first_grid = (uint64_t)sh.rows * (levels[0].items / levels[0].segment);
    PoolBuffer<P> xs[2] = {PoolBuffer<P>(first_grid, s), PoolBuffer<P>(first_grid, s)};
    PoolBuffer<P> as[2] = {PoolBuffer<P>(first_grid, s), PoolBuffer<P>(first_grid, s)};
    const P* x = sums.ptr;
    const P* a = nullptr;
    for (int l = 0; l < nl; l++) {
        const uint64_t grid = (uint64_t)sh.rows * (levels[l].items / levels[l].segment);
        window_level_kernel<G><<<blocks(grid, 64), 64, 0, s>>>(levels[l], x, a, xs[l & 1].ptr, as[l & 1].ptr, grid);
        check_launch("window_level_kernel");
        x = xs[l & 1].ptr;
        a = as[l & 1].ptr;
    }
    const P* window = x;
    check(cudaEventCreateWithFlags(&h.done, cudaEventDisableTiming | cudaEventBlockingSync), "cudaEventCreateWithFlags");
    h.window_bytes = sh.rows * sizeof(P);
    h.windows = take_pinned(h.window_bytes);
    check(cudaMemcpyAsync(h.windows, window, h.window_bytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync(window sums)");
    check(cudaEventRecord(h.done, s), "cudaEventRecord");
    // the buffers above go back to the stream-ordered pool here, after the queued work
}

template <class G>
void finish(cuzk_cuda_msm& h, void* result) {
    using P = XYZZ<G>;
    check(cudaEventSynchronize(h.done), "cudaEventSynchronize");
    const P* window = static_cast<const P*>(h.windows);
    P acc = P::infinity();
    for (uint32_t w = h.shape.rows; w-- > 0;) {
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

// Blocks 1..K-1 of a table whose block 0 holds the bases, each from the one before, in chunks of
// points so that the XYZZ scratch stays within 2^20 points whatever n is.
template <class G>
void precompute(cudaStream_t s, const gpu::MsmShape& sh, uint32_t blocks_needed, Affine<G>* table) {
    const uint64_t n = sh.n;
    const uint64_t chunk = n < (1ull << 20) ? n : (1ull << 20);
    PoolBuffer<XYZZ<G>> shifted(chunk, s);
    for (uint32_t k = 1; k < blocks_needed; k++) {
        for (uint64_t lo = 0; lo < n; lo += chunk) {
            const uint64_t len = n - lo < chunk ? n - lo : chunk;
            shift_kernel<G><<<blocks(len, 128), 128, 0, s>>>(sh.rows * sh.c, table + (k - 1) * n + lo, shifted.ptr, len);
            check_launch("shift_kernel");
            const uint64_t batches = (len + gpu::MSM_AFFINE_BATCH - 1) / gpu::MSM_AFFINE_BATCH;
            affine_kernel<G><<<blocks(batches, 64), 64, 0, s>>>(shifted.ptr, len, table + k * n + lo);
            check_launch("affine_kernel");
        }
    }
}

}  // namespace cuzk_msm_kernels

using namespace cuzk_msm_kernels;

extern "C" {

CUZK_API cuzk_status_t cuzk_cuda_msm_start(int32_t device, void* stream, const cuzk_msm_config* config, const void* d_bases,
                                           const void* d_scalars, cuzk_cuda_msm** out) {
    return guarded("cuzk_cuda_msm_start", [&] {
        require(config != nullptr && out != nullptr, "config and out must not be null");
        *out = nullptr;
        require(config->scalar_form <= CUZK_SCALAR_MONTGOMERY, "unknown scalar form");
        require(config->window_bits == 0 || (config->window_bits >= 2 && config->window_bits <= 20), "window_bits must be 0 or 2..20");
        require(config->count == 0 || (d_bases && d_scalars), "bases and scalars must not be null");
        require(config->count < (1ull << 31), "the GPU MSM takes fewer than 2^31 points");
        cuzk::cu::use_device(device);
        auto* h = new cuzk_cuda_msm();
        try {
            h->device = device;
            h->curve = config->curve;
            h->group = config->group;
            with_group(config->curve, config->group, [&](auto tag) {
                using G = typename decltype(tag)::type;
                uint64_t n = config->count ? config->count : 1;
                uint32_t c = config->window_bits ? config->window_bits : gpu::gpu_window_bits(n);
                gpu::require_copies(*config, G::Fr::Params::BITS);
                h->shape = gpu::msm_shape(config->count, G::Fr::Params::BITS, c, config->copies);
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

CUZK_API cuzk_status_t cuzk_cuda_msm_precompute(int32_t device, void* stream, const cuzk_msm_config* config, void* d_table) {
    return guarded("cuzk_cuda_msm_precompute", [&] {
        require(config != nullptr, "config must not be null");
        require(config->count == 0 || d_table != nullptr, "the table must not be null");
        require(config->count < (1ull << 31), "the GPU MSM takes fewer than 2^31 points");
        with_group(config->curve, config->group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            gpu::require_copies(*config, G::Fr::Params::BITS);
            if (config->count == 0 || config->copies <= 1) return;
            cuzk::cu::use_device(device);
            const gpu::MsmShape sh = gpu::msm_shape(config->count, G::Fr::Params::BITS, config->window_bits, config->copies);
            precompute<G>(static_cast<cudaStream_t>(stream), sh, gpu::msm_blocks(sh.windows, sh.rows), static_cast<Affine<G>*>(d_table));
        });
    });
}

CUZK_API cuzk_status_t cuzk_cuda_msm_finish(cuzk_cuda_msm* handle, void* result) {
    return guarded("cuzk_cuda_msm_finish", [&] {
        require(handle != nullptr && result != nullptr, "handle and result must not be null");
        struct Release {
            cuzk_cuda_msm* h;
            ~Release() { release(h); }
        } guard{handle};
        cuzk::cu::use_device(handle->device);
        with_group(handle->curve, handle->group, [&](auto tag) {
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
