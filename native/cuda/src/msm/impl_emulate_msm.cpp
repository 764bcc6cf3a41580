// The CUDA MSM's algorithm run on the host, phase by phase over the whole grid, with the very
// per-thread bodies the kernels run (msm_gpu.hpp): a check of the GPU algorithm where no GPU is
// present (one build per arithmetic path; see runtime/impl.hpp).
#include <vector>

#include "msm/base_array.hpp"
#include "msm/msm_gpu.hpp"
#include "runtime/api_common.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

namespace {

template <class G>
void emulate_msm(const cuzk_msm_config& cfg, const Affine<G>* bases, const uint64_t* scalars, Affine<G>* out) {
    using P = XYZZ<G>;
    const uint64_t n = cfg.count;
    if (n == 0) {
        *out = Affine<G>::infinity();
        return;
    }
    const unsigned threads = resolve_threads(cfg.threads);
    const uint32_t c = cfg.window_bits ? cfg.window_bits : gpu::gpu_window_bits(n);
    const gpu::MsmShape sh = gpu::msm_shape(n, G::Fr::Params::BITS, c);
    const uint64_t pairs = (uint64_t)sh.windows * n;
    std::vector<uint32_t> keys(pairs), values(pairs);
    // phase 1: one "thread" per scalar
    parallel_for(threads, (n + 1023) / 1024, [&](size_t blk) {
        for (uint64_t i = blk * 1024; i < std::min<uint64_t>(n, (blk + 1) * 1024); i++)
            gpu::msm_digits_body<G>(sh, scalars, cfg.scalar_form == CUZK_SCALAR_MONTGOMERY, keys.data(), values.data(), i);
    });
    // phase 2: a stable sort by key (what CUB's radix sort gives), here a counting sort
    std::vector<uint64_t> count((size_t)sh.skip_key + 2, 0);
    for (uint64_t j = 0; j < pairs; j++) count[keys[j] + 1]++;
    for (size_t k = 1; k < count.size(); k++) count[k] += count[k - 1];
    std::vector<uint32_t> sorted_keys(pairs), sorted_values(pairs);
    for (uint64_t j = 0; j < pairs; j++) {
        uint64_t at = count[keys[j]]++;
        sorted_keys[at] = keys[j];
        sorted_values[at] = values[j];
    }
    // phase 3: bucket bounds
    const uint64_t nb = (uint64_t)sh.windows * sh.buckets;
    std::vector<uint32_t> start(nb, 0), end(nb, 0);
    for (uint64_t j = 0; j < pairs; j++) gpu::msm_bounds_body(sorted_keys.data(), pairs, sh.skip_key, start.data(), end.data(), j);
    // phase 4: one "thread" per bucket
    std::vector<P> sums(nb);
    parallel_for(threads, (nb + 255) / 256, [&](size_t blk) {
        for (uint64_t b = blk * 256; b < std::min<uint64_t>(nb, (blk + 1) * 256); b++)
            gpu::msm_bucket_body<G>(bases, sorted_values.data(), start.data(), end.data(), sums.data(), b);
    });
    // phase 5: one "thread" per run of buckets
    const uint64_t runs = (uint64_t)sh.windows * sh.segments;
    std::vector<P> seg_sum(runs), seg_weighted(runs);
    parallel_for(threads, (runs + 63) / 64, [&](size_t blk) {
        for (uint64_t t = blk * 64; t < std::min<uint64_t>(runs, (blk + 1) * 64); t++)
            gpu::msm_segment_body<G>(sh, sums.data(), seg_sum.data(), seg_weighted.data(), t);
    });
    // phase 6: one "thread" per window
    std::vector<P> window(sh.windows);
    for (uint64_t w = 0; w < sh.windows; w++) gpu::msm_window_body<G>(sh, seg_sum.data(), seg_weighted.data(), window.data(), w);
    // phase 7: Horner, on the host as on the GPU path
    P result = P::infinity();
    for (uint32_t w = sh.windows; w-- > 0;) {
        for (uint32_t i = 0; i < sh.c; i++) result = result.dbl();
        result.add(window[w]);
    }
    *out = result.to_affine();
}

}  // namespace

cuzk_status_t impl_emulate_msm(const cuzk_msm_config* config, const void* bases, const void* scalars, void* result) {
    return guarded("cuzk_emulate_msm", [&] {
        require_ptr(config, "config");
        require_aligned(result, "result");
        require(config->window_bits == 0 || (config->window_bits >= 2 && config->window_bits <= 20), "window_bits must be 0 or 2..20");
        require(config->count < (1ull << 31), "the GPU MSM takes fewer than 2^31 points");
        if (config->count > 0) {
            require_ptr(bases, "bases");  // at any address, as in cuzk_msm
            require_aligned(scalars, "scalars");
        }
        with_group(config->curve, config->group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            HostArray<Affine<G>> copy;
            emulate_msm<G>(*config, aligned_points<G>(bases, config->count, copy), static_cast<const uint64_t*>(scalars),
                           static_cast<Affine<G>*>(result));
        });
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
