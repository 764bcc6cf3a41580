// The GPU MSM, as per-thread bodies shared by the CUDA kernels (cuda/msm.cu) and their host
// emulation (impl_emulate_msm.cpp), which runs every phase over the whole grid on the CPU so that the
// algorithm is checked without a GPU.
//
// Phases, for n points and W windows of c bits (Booth digits, B = 2^(c-1) buckets per window),
// summed in S rows of buckets (S = W, or fewer over shifted copies of the bases: see below):
//   1. digits: one thread per scalar writes, per window w = k*S + t, the pair (key, value):
//      key = t*B + |d|-1 (or S*B for d = 0: sorted last, skipped), value = k*n + i | sign << 31;
//   2. sort the W*n pairs by key (CUB radix sort on the device, a stable sort on the host);
//   3. bounds: one thread per pair marks where each bucket's points start and end;
//   4. bucket sums, in levels of runs of at most R items, one thread per run (a bucket of a
//      million 1s takes log_R levels, not a million additions in one thread), then one thread per
//      bucket takes its single remaining run;
//   5. windows: sum_j (j+1) B_j per window, in levels of segments of 32 items, one thread per
//      segment (see MsmLevel);
//   6. on the host: result = sum_t 2^(t c) row_t (Horner).
//
// Shifted copies (fixed-base windows, for bases resident on the device): a table of K blocks of
// the n bases, block k = 2^(k S c) times block 0, S = ceil(W / K). Window k*S + t's digit of
// point i times 2^((k S + t) c) P_i is digit times 2^(t c) of block k's point i, so the W windows
// fold onto S rows of buckets: the bucket additions stay W*n, the window sums (phase 5) and the
// Horner steps shrink from W windows to S, and with fewer rows to sum wider windows pay. Without
// a table K = 1 and S = W. The table is made by msm_shift_body and msm_affine_body, block after
// block (cuzk_cuda_msm_precompute), K*n points of memory where the plain bases take n.
#pragma once
#include <string>

#include "cuzk/curve.hpp"
#include "cuzk/cuzk.h"
#include "runtime/errors.hpp"

CUZK_NS_BEGIN
namespace gpu {

constexpr uint32_t MSM_NEGATIVE = 0x80000000u;

struct MsmShape {
    uint64_t n;           // points
    uint32_t c;           // window bits
    uint32_t windows;     // W: the scalars' digits
    uint32_t rows;        // S: rows of buckets (W without shifted copies, ceil(W / K) with K)
    uint32_t buckets;     // B = 2^(c-1) per row
    uint32_t skip_key;    // S * B: the key of zero digits
    uint32_t run;         // R: items a thread adds in phase 4 (a power of two, 32..1024)
    uint32_t levels;      // phase 4's levels: the least l >= 1 with R^l >= n (a bucket's most points)
};

// Bits [start, start + len) of a 4-word little-endian scalar (start may be -1).
CUZK_HD uint32_t scalar_window_bits(const uint64_t* s, int start, int len) {
    int shift_in = 0;
    if (start < 0) {
        shift_in = -start;
        len -= shift_in;
        start = 0;
    }
    if (len <= 0 || start >= 256) return 0;
    int word = start >> 6, bit = start & 63;
    uint64_t v = s[word] >> bit;
    if (bit + len > 64 && word + 1 < 4) v |= s[word + 1] << (64 - bit);
    v &= (len >= 64) ? ~0ull : ((1ull << len) - 1);
    return (uint32_t)(v << shift_in);
}

// The signed digit of window w (c bits): ((v + 1) >> 1) - ((v >> c) << c), v being bits
// [wc - 1, wc + c) of the scalar; in [-2^(c-1), 2^(c-1)], with no carry from the window below.
CUZK_HD int booth_digit(const uint64_t* s, int w, int c) {
    uint32_t v = scalar_window_bits(s, w * c - 1, c + 1);
    return (int)((v + 1) >> 1) - (int)((v >> c) << c);
}

// Phase 1, thread i: the scalar made canonical and below r, then its digits.
template <class G>
CUZK_HDI void msm_digits_body(const MsmShape& sh, const uint64_t* scalars, bool montgomery, uint32_t* keys, uint32_t* values,
                              uint64_t i) {
    using Fr = typename G::Fr;
    Fr v;
    CUZK_UNROLL for (int j = 0; j < 4; j++) v.l[j] = scalars[4 * i + j];
    if (montgomery) {
        v = v.from_mont();
    } else {
        const Limbs<4> r = Fr::Params::modulus();
        for (int t = 0; t < 8 && !Fr::is_canonical(v.l); t++) {
            uint64_t borrow = 0;
            CUZK_UNROLL for (int j = 0; j < 4; j++) borrow = sub_borrow(v.l[j], r.v[j], borrow, v.l[j]);
        }
    }
    const int c = (int)sh.c;
    for (uint32_t w = 0; w < sh.windows; w++) {
        int d = booth_digit(v.l, (int)w, c);
        uint64_t slot = (uint64_t)w * sh.n + i;
        const uint32_t k = w / sh.rows, t = w - k * sh.rows;  // block k of the bases, row t
        if (d == 0) {
            keys[slot] = sh.skip_key;
            values[slot] = (uint32_t)i;
        } else {
            keys[slot] = t * sh.buckets + (uint32_t)((d < 0 ? -d : d) - 1);
            values[slot] = (uint32_t)(k * sh.n + i) | (d < 0 ? MSM_NEGATIVE : 0u);
        }
    }
}

// Phase 3, thread j over the sorted pairs: start[key] and end[key] (both zeroed beforehand).
CUZK_HD void msm_bounds_body(const uint32_t* keys, uint64_t total, uint32_t skip_key, uint32_t* start, uint32_t* end,
                             uint64_t j) {
    uint32_t k = keys[j];
    if (k == skip_key) return;
    if (j == 0 || keys[j - 1] != k) start[k] = (uint32_t)j;
    if (j + 1 == total || keys[j + 1] != k) end[k] = (uint32_t)(j + 1);
}

// Phase 4, the bucket sums, in levels, so that no thread adds more than `run` items however
// skewed the digits are (Groth16 witnesses are full of 0s and 1s, and every scalar 1 lands in the
// same bucket of window 0). Level l splits each bucket's items (level 0: its sorted points; level
// l > 0: the bucket's run sums from level l - 1, which lie contiguously) into runs of at most `run`
// items and sums each run in its own thread; after `levels` levels no bucket has more than one run.
//
// 4a, thread b <= nb: how many runs bucket b has (thread nb writes 0, the scan's last entry).
CUZK_HD void msm_run_count_body(uint32_t run, const uint32_t* start, const uint32_t* end, uint64_t nb, uint32_t* count,
                                uint64_t b) {
    uint32_t len = (b < nb && end[b] > start[b]) ? end[b] - start[b] : 0;
    count[b] = (len + run - 1) / run;
}
// 4b: offset = the exclusive prefix sum of count's nb + 1 entries (CUB's scan on the device), so
// bucket b's runs are [offset[b], offset[b + 1]), offset[nb] is the level's number of runs, and
// (offset, offset + 1) are the next level's bucket bounds.

// The bucket run r belongs to: the last b with offset[b] <= r (empty buckets before it share its
// offset, those after it start above r).
CUZK_HD uint64_t msm_run_bucket(const uint32_t* offset, uint64_t nb, uint32_t r) {
    uint64_t lo = 0, hi = nb;
    while (hi - lo > 1) {
        uint64_t mid = (lo + hi) >> 1;
        if (offset[mid] <= r) lo = mid;
        else hi = mid;
    }
    return lo;
}

// Run r's items: [lo, hi) of its bucket's items.
CUZK_HD void msm_run_range(uint32_t run, const uint32_t* start, const uint32_t* end, const uint32_t* offset, uint64_t nb,
                           uint32_t r, uint32_t& lo, uint32_t& hi) {
    const uint64_t b = msm_run_bucket(offset, nb, r);
    lo = start[b] + (r - offset[b]) * run;
    hi = end[b] - lo < run ? end[b] : lo + run;
}

// 4c, level 0, thread r < offset[nb]: the sum of run r's points (mixed XYZZ additions).
template <class G>
CUZK_HDI void msm_point_run_body(uint32_t run, const Affine<G>* bases, const uint32_t* values, const uint32_t* start,
                                 const uint32_t* end, const uint32_t* offset, uint64_t nb, XYZZ<G>* out, uint64_t r) {
    if (r >= offset[nb]) return;
    uint32_t lo, hi;
    msm_run_range(run, start, end, offset, nb, (uint32_t)r, lo, hi);
    XYZZ<G> acc = XYZZ<G>::infinity();
    for (uint32_t j = lo; j < hi; j++) {
        uint32_t v = values[j];
        const Affine<G>& p = bases[v & ~MSM_NEGATIVE];
        if (p.is_inf()) continue;
        if (v & MSM_NEGATIVE) acc.sub_affine(p);
        else acc.add_affine(p);
    }
    out[r] = acc;
}

// 4c, level l > 0, thread r < offset[nb]: the sum of run r's run sums from the level before.
template <class G>
CUZK_HDI void msm_sum_run_body(uint32_t run, const XYZZ<G>* in, const uint32_t* start, const uint32_t* end,
                               const uint32_t* offset, uint64_t nb, XYZZ<G>* out, uint64_t r) {
    if (r >= offset[nb]) return;
    uint32_t lo, hi;
    msm_run_range(run, start, end, offset, nb, (uint32_t)r, lo, hi);
    XYZZ<G> acc = in[lo];
    for (uint32_t j = lo + 1; j < hi; j++) acc.add(in[j]);
    out[r] = acc;
}

// 4d, thread b: bucket b's sum, from the last level's runs (at most one each).
template <class G>
CUZK_HDI void msm_bucket_gather_body(const XYZZ<G>* runs, const uint32_t* offset, XYZZ<G>* sums, uint64_t b) {
    sums[b] = offset[b + 1] > offset[b] ? runs[offset[b]] : XYZZ<G>::infinity();
}

// Phase 5, the windows: sum_j (j + 1) B_j over each window's B buckets, in levels of
// segments of at most 32 items, one thread per segment, so that no thread adds more than about
// 100 points (one thread per window would add 2B: 65,536 additions in a row at 16-bit windows).
// With G(x) = sum_i i x_i (0-based weights) over a window's items x at a level, the levels keep
//   V = K G(x) + sum a,  starting from x = the buckets, a = nothing, K = 1, V = G(buckets).
// A segment s of L items gives S_s = sum_j x_{sL+j}, T_s = sum_j j x_{sL+j}, U_s = sum_j a_{sL+j};
// as G(x) = L G(S) + sum_s T_s, the next level has x' = S, a' = K T + U (log2 K doublings) and
// K' = K L. When one item is left, G(x) = 0, so V = a, and the window's sum is G + sum B = a + x.
struct MsmLevel {
    uint32_t items;    // per window, at this level (a power of two)
    uint32_t segment;  // L: items per thread, min(32, items)
    uint32_t log_k;    // log2 K
};

// Thread t = (w, s) of a level: writes x'[t] and a'[t]; at the last level (items == segment),
// writes the window's sum to x'[w] instead.
template <class G>
CUZK_HDI void msm_window_level_body(const MsmLevel& lv, const XYZZ<G>* x, const XYZZ<G>* a, XYZZ<G>* x_out, XYZZ<G>* a_out,
                                    uint64_t t) {
    const uint32_t per_window = lv.items / lv.segment;
    const uint64_t w = t / per_window, s = t % per_window;
    const uint64_t first = w * lv.items + s * lv.segment;
    XYZZ<G> running = XYZZ<G>::infinity(), weighted = XYZZ<G>::infinity(), carried = XYZZ<G>::infinity();
    for (uint32_t j = lv.segment; j-- > 0;) {
        running.add(x[first + j]);
        if (j > 0) weighted.add(running);  // sum_{j >= 1} (x_j + ... + x_{L-1}) = sum_j j x_j
        if (a) carried.add(a[first + j]);
    }
    for (uint32_t i = 0; i < lv.log_k; i++) weighted = weighted.dbl();
    weighted.add(carried);
    if (per_window == 1) {
        weighted.add(running);
        x_out[w] = weighted;
    } else {
        x_out[t] = running;
        a_out[t] = weighted;
    }
}

// The window levels for B buckets per window.
inline int msm_window_levels(uint32_t buckets, MsmLevel* out) {
    int n = 0;
    uint32_t items = buckets, log_k = 0;
    do {
        uint32_t segment = items < 32 ? items : 32;
        out[n++] = MsmLevel{items, segment, log_k};
        for (uint32_t l = segment; l > 1; l >>= 1) log_k++;
        items /= segment;
    } while (items > 1);
    return n;
}

// The GPU's window width: wide windows (many buckets) keep the whole device busy in phase 4;
// from 8 bits for small inputs to 16 at 2^22 and above.
inline uint32_t gpu_window_bits(uint64_t n) {
    int lg = 0;
    while ((1ull << (lg + 1)) <= n) lg++;
    int c = lg - 6;
    return (uint32_t)(c < 8 ? 8 : (c > 16 ? 16 : c));
}

// The Booth digits of a scalar of `bits` bits in windows of c bits.
inline uint32_t msm_windows(int bits, uint32_t c) { return (uint32_t)((bits + 1 + (int)c - 1) / (int)c); }

// Rows of buckets over a table of `copies` blocks (0 or 1: the plain bases): S = ceil(W / K).
inline uint32_t msm_rows(uint32_t windows, uint32_t copies) {
    return copies <= 1 ? windows : (windows + copies - 1) / copies;
}

// The blocks a table needs for W windows in S rows: ceil(W / S) (K = 5 of W = 16 gives S = 4, so 4).
inline uint32_t msm_blocks(uint32_t windows, uint32_t rows) { return (windows + rows - 1) / rows; }

// The shape for n points and windows of c bits, over a table of `copies` blocks. R is about twice
// the mean bucket length (so that evenly filled buckets take one run), at least 32 and at most
// 1,024 points per thread.
inline MsmShape msm_shape(uint64_t n, int bits, uint32_t c, uint32_t copies = 1) {
    MsmShape sh;
    sh.n = n;
    sh.c = c;
    sh.windows = msm_windows(bits, c);
    sh.rows = msm_rows(sh.windows, copies);
    sh.buckets = 1u << (c - 1);
    sh.skip_key = sh.rows * sh.buckets;
    const uint64_t folds = msm_blocks(sh.windows, sh.rows);  // windows per row
    const uint64_t mean = n * folds / sh.buckets;
    sh.run = 32;
    while (sh.run < 1024 && sh.run < 2 * mean) sh.run <<= 1;
    sh.levels = 1;  // a bucket holds at most folds * n points
    for (uint64_t reach = sh.run; reach < n * folds; reach *= sh.run) sh.levels++;
    return sh;
}

// An upper bound of the runs level `level` makes: a bucket of k items has ceil(k / R) <= k / R + 1
// runs, so a level over m items in nb buckets makes at most m / R + nb.
inline uint64_t msm_level_runs(const MsmShape& sh, uint32_t level) {
    const uint64_t nb = (uint64_t)sh.rows * sh.buckets;
    uint64_t items = (uint64_t)sh.windows * sh.n;
    for (uint32_t l = 0;; l++) {
        uint64_t runs = items / sh.run + nb;
        if (runs > items) runs = items;  // never more runs than items
        if (l == level) return runs;
        items = runs;
    }
}

// A config's table of shifted copies, checked (host): 0 or 1 (none), or 2 up to the windows of its
// window_bits, which must then be given (the table was made for them); block indices must fit the
// 31 bits of a sorted pair's value.
inline void require_copies(const cuzk_msm_config& cfg, int bits) {
    if (cfg.copies <= 1) return;
    require(cfg.window_bits != 0, "a table of " + std::to_string(cfg.copies) + " copies needs the window_bits it was made for");
    const uint32_t w = msm_windows(bits, cfg.window_bits);
    require(cfg.copies <= w, "copies must be at most the " + std::to_string(w) + " windows of " + std::to_string(cfg.window_bits) +
                                 " bits, not " + std::to_string(cfg.copies));
    require((uint64_t)cfg.copies * cfg.count < (1ull << 31), "a table of copies x count points must hold fewer than 2^31 points");
}

// The table of shifted copies, block k (k >= 1) from block k - 1, in two steps over the points,
// so that each point costs S*c doublings and a share of one inversion:
// 1. thread i: prev[i] doubled `doublings` (S*c) times, in XYZZ.
template <class G>
CUZK_HDI void msm_shift_body(uint32_t doublings, const Affine<G>* prev, XYZZ<G>* shifted, uint64_t i) {
    XYZZ<G> p = XYZZ<G>::from_affine(prev[i]);
    for (uint32_t d = 0; d < doublings; d++) p = p.dbl();
    shifted[i] = p;
}

// 2. thread t: points [t*MSM_AFFINE_BATCH, ...) of n made affine with one inversion (Montgomery's
// trick over their zzz; points at infinity are left out of the product). The running products are
// kept in out[j].x until out[j] is written, walking back.
constexpr uint32_t MSM_AFFINE_BATCH = 32;

template <class G>
CUZK_HDI void msm_affine_body(const XYZZ<G>* in, uint64_t n, Affine<G>* out, uint64_t t) {
    using F = typename G::F;
    const uint64_t lo = t * MSM_AFFINE_BATCH;
    if (lo >= n) return;
    const uint64_t hi = n - lo < MSM_AFFINE_BATCH ? n : lo + MSM_AFFINE_BATCH;
    F acc = F::one();
    for (uint64_t j = lo; j < hi; j++) {
        if (!in[j].is_inf()) acc = acc * in[j].zzz;
        out[j].x = acc;  // the product over [lo, j]
    }
    F inv = acc.inv();  // 1 / (the product over [lo, j]) as j walks back
    for (uint64_t j = hi; j-- > lo;) {
        const XYZZ<G> p = in[j];
        if (p.is_inf()) {
            out[j] = Affine<G>::infinity();
            continue;
        }
        const F before = j > lo ? out[j - 1].x : F::one();
        const F zzz_inv = inv * before;
        inv = inv * p.zzz;
        out[j] = p.to_affine_with(zzz_inv);
    }
}

}  // namespace gpu
CUZK_NS_END
