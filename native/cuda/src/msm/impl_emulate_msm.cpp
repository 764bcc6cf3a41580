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
    gpu::require_copies(cfg, G::Fr::Params::BITS);
    const gpu::MsmShape sh = gpu::msm_shape(n, G::Fr::Params::BITS, c, cfg.copies);
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
    const uint64_t nb = (uint64_t)sh.rows * sh.buckets;
    std::vector<uint32_t> start(nb, 0), end(nb, 0);
    for (uint64_t j = 0; j < pairs; j++) gpu::msm_bounds_body(sorted_keys.data(), pairs, sh.skip_key, start.data(), end.data(), j);
    // phase 4: bucket sums in levels of runs
    std::vector<uint32_t> runs_of(nb + 1), offset[2] = {std::vector<uint32_t>(nb + 1), std::vector<uint32_t>(nb + 1)};
    std::vector<P> runs[2];
    const uint32_t* lo = start.data();
    const uint32_t* hi = end.data();
    for (uint32_t level = 0; level < sh.levels; level++) {
        std::vector<uint32_t>& off = offset[level & 1];
        for (uint64_t b = 0; b <= nb; b++) gpu::msm_run_count_body(sh.run, lo, hi, nb, runs_of.data(), b);
        uint32_t total = 0;  // the scan
        for (uint64_t b = 0; b <= nb; b++) {
            off[b] = total;
            total += runs_of[b];
        }
        std::vector<P>& out = runs[level & 1];
        out.assign(gpu::msm_level_runs(sh, level), P::infinity());
        require(total <= out.size(), "emulated MSM: a level made more runs than its bound");
        const uint64_t grid = out.size();  // the device launches the bound, threads above the total return
        parallel_for(threads, (grid + 63) / 64, [&](size_t blk) {
            for (uint64_t r = blk * 64; r < std::min<uint64_t>(grid, (blk + 1) * 64); r++) {
                if (level == 0) gpu::msm_point_run_body<G>(sh.run, bases, sorted_values.data(), lo, hi, off.data(), nb, out.data(), r);
                else gpu::msm_sum_run_body<G>(sh.run, runs[(level - 1) & 1].data(), lo, hi, off.data(), nb, out.data(), r);
            }
        });
        lo = off.data();
        hi = off.data() + 1;
    }
    std::vector<P> sums(nb);
    const std::vector<uint32_t>& last = offset[(sh.levels - 1) & 1];
    for (uint64_t b = 0; b < nb; b++) {
        require(last[b + 1] - last[b] <= 1, "emulated MSM: a bucket kept more than one run after the last level");
        gpu::msm_bucket_gather_body<G>(runs[(sh.levels - 1) & 1].data(), last.data(), sums.data(), b);
    }
    // phase 5: window sums in levels of segments
    gpu::MsmLevel levels[32];
    const int nl = gpu::msm_window_levels(sh.buckets, levels);
    std::vector<P> x = std::move(sums), a, x_next, a_next;
    for (int l = 0; l < nl; l++) {
        const uint64_t grid = (uint64_t)sh.rows * (levels[l].items / levels[l].segment);
        x_next.assign(grid, P::infinity());
        a_next.assign(grid, P::infinity());
        parallel_for(threads, (grid + 63) / 64, [&](size_t blk) {
            for (uint64_t t = blk * 64; t < std::min<uint64_t>(grid, (blk + 1) * 64); t++)
                gpu::msm_window_level_body<G>(levels[l], x.data(), l == 0 ? nullptr : a.data(), x_next.data(), a_next.data(), t);
        });
        std::swap(x, x_next);
        std::swap(a, a_next);
    }
    const std::vector<P>& window = x;  // the last level wrote each row's sum to x[t]
    // phase 6: Horner, on the host as on the GPU path
    P result = P::infinity();
    for (uint32_t w = sh.rows; w-- > 0;) {
        for (uint32_t i = 0; i < sh.c; i++) result = result.dbl();
        result.add(window[w]);
    }
    *out = result.to_affine();
}

// Blocks 1..K-1 of the table, as cuzk_cuda_msm_precompute makes them: the shift and affine bodies
// over every point, block after block.
template <class G>
void emulate_precompute(const cuzk_msm_config& cfg, Affine<G>* table) {
    const uint64_t n = cfg.count;
    const unsigned threads = resolve_threads(cfg.threads);
    const gpu::MsmShape sh = gpu::msm_shape(n, G::Fr::Params::BITS, cfg.window_bits, cfg.copies);
    std::vector<XYZZ<G>> shifted(n);
    const uint64_t batches = (n + gpu::MSM_AFFINE_BATCH - 1) / gpu::MSM_AFFINE_BATCH;
    for (uint32_t k = 1; k < gpu::msm_blocks(sh.windows, sh.rows); k++) {
        parallel_for(threads, (n + 255) / 256, [&](size_t blk) {
            for (uint64_t i = blk * 256; i < std::min<uint64_t>(n, (blk + 1) * 256); i++)
                gpu::msm_shift_body<G>(sh.rows * sh.c, table + (k - 1) * n, shifted.data(), i);
        });
        parallel_for(threads, (batches + 7) / 8, [&](size_t blk) {
            for (uint64_t t = blk * 8; t < std::min<uint64_t>(batches, (blk + 1) * 8); t++)
                gpu::msm_affine_body<G>(shifted.data(), n, table + k * n, t);
        });
    }
}

}  // namespace

cuzk_status_t impl_emulate_msm_precompute(const cuzk_msm_config* config, void* table) {
    return guarded("cuzk_emulate_msm_precompute", [&] {
        require_ptr(config, "config");
        require(config->count < (1ull << 31), "the GPU MSM takes fewer than 2^31 points");
        if (config->count > 0) require_aligned(table, "table");
        with_group(config->curve, config->group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            gpu::require_copies(*config, G::Fr::Params::BITS);
            if (config->count > 0 && config->copies > 1) emulate_precompute<G>(*config, static_cast<Affine<G>*>(table));
        });
    });
}

cuzk_status_t impl_msm_plan(cuzk_msm_config* config, uint64_t max_bytes) {
    return guarded("cuzk_msm_plan", [&] {
        require_ptr(config, "config");
        require(config->window_bits == 0 || (config->window_bits >= 2 && config->window_bits <= 20), "window_bits must be 0 or 2..20");
        require(config->count < (1ull << 31), "the GPU MSM takes fewer than 2^31 points");
        with_group(config->curve, config->group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            const uint64_t n = config->count;
            const uint32_t c = config->window_bits ? config->window_bits : gpu::gpu_window_bits(n ? n : 1);
            const uint32_t w = gpu::msm_windows(G::Fr::Params::BITS, c);
            const uint64_t block = n * sizeof(Affine<G>);
            uint64_t k = block == 0 ? 1 : max_bytes / block;
            if (k > w) k = w;
            if (n > 0 && k > ((1ull << 31) - 1) / n) k = ((1ull << 31) - 1) / n;
            if (k < 1) k = 1;
            config->window_bits = c;
            // the fewest blocks that give the same rows: 5 blocks of 16 windows make 4 rows, which 4 blocks give
            config->copies = k <= 1 ? 1 : gpu::msm_blocks(w, gpu::msm_rows(w, (uint32_t)k));
        });
    });
}

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
            gpu::require_copies(*config, G::Fr::Params::BITS);  // before the table's size is trusted
            const uint64_t points = config->count * (config->copies > 1 ? config->copies : 1);
            emulate_msm<G>(*config, aligned_points<G>(bases, points, copy), static_cast<const uint64_t*>(scalars),
                           static_cast<Affine<G>*>(result));
        });
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
