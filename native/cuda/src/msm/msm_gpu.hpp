// The GPU MSM, as per-thread bodies shared by the CUDA kernels (cuda/msm.cu) and their host
// emulation (impl_emulate_msm.cpp), which runs every phase over the whole grid on the CPU so that the
// algorithm is checked without a GPU.
//
// Phases, for n points and W windows of c bits (Booth digits, B = 2^(c-1) buckets per window):
//   1. digits: one thread per scalar writes, per window, the pair (key, value):
//      key = w*B + |d|-1 (or W*B for d = 0: sorted last, skipped), value = i | sign << 31;
//   2. sort the W*n pairs by key (CUB radix sort on the device, a stable sort on the host);
//   3. bounds: one thread per pair marks where each bucket's run starts and ends;
//   4. bucket sums: one thread per bucket adds its points (mixed XYZZ additions);
//   5. segments: one thread per run of L buckets of a window computes the run's sum S and its
//      locally weighted sum T = sum (j - first + 1) B_j, by running sums from the top;
//   6. windows: one thread per window combines its runs: sum_j (j+1) B_j = sum_s T_s + L * sum_s s*S_s,
//      the last sum again by running sums over the runs, then log2(L) doublings;
//   7. on the host: result = sum_w 2^(w c) window_w (Horner).
#pragma once
#include "cuzk/curve.hpp"

CUZK_NS_BEGIN
namespace gpu {

constexpr uint32_t MSM_NEGATIVE = 0x80000000u;

struct MsmShape {
    uint64_t n;           // points
    uint32_t c;           // window bits
    uint32_t windows;     // W
    uint32_t buckets;     // B = 2^(c-1) per window
    uint32_t segment;     // L buckets per run (a power of two dividing B)
    uint32_t segments;    // B / L
    uint32_t skip_key;    // W * B: the key of zero digits
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
        if (d == 0) {
            keys[slot] = sh.skip_key;
            values[slot] = (uint32_t)i;
        } else {
            keys[slot] = w * sh.buckets + (uint32_t)((d < 0 ? -d : d) - 1);
            values[slot] = (uint32_t)i | (d < 0 ? MSM_NEGATIVE : 0u);
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

// Phase 4, thread b: the sum of bucket b's points.
template <class G>
CUZK_HDI void msm_bucket_body(const Affine<G>* bases, const uint32_t* values, const uint32_t* start, const uint32_t* end,
                              XYZZ<G>* sums, uint64_t b) {
    XYZZ<G> acc = XYZZ<G>::infinity();
    for (uint32_t j = start[b]; j < end[b]; j++) {
        uint32_t v = values[j];
        const Affine<G>& p = bases[v & ~MSM_NEGATIVE];
        if (p.is_inf()) continue;
        if (v & MSM_NEGATIVE) acc.sub_affine(p);
        else acc.add_affine(p);
    }
    sums[b] = acc;
}

// Phase 5, thread (w, s) = t: run s of window w; S and T as described above.
template <class G>
CUZK_HDI void msm_segment_body(const MsmShape& sh, const XYZZ<G>* sums, XYZZ<G>* seg_sum, XYZZ<G>* seg_weighted, uint64_t t) {
    const uint32_t w = (uint32_t)(t / sh.segments), s = (uint32_t)(t % sh.segments);
    const XYZZ<G>* bucket = sums + (uint64_t)w * sh.buckets + (uint64_t)s * sh.segment;
    XYZZ<G> running = XYZZ<G>::infinity(), acc = XYZZ<G>::infinity();
    for (uint32_t j = sh.segment; j-- > 0;) {
        running.add(bucket[j]);
        acc.add(running);
    }
    seg_sum[t] = running;
    seg_weighted[t] = acc;
}

// Phase 6, thread w: sum_s T_s + L * sum_s s*S_s.
template <class G>
CUZK_HDI void msm_window_body(const MsmShape& sh, const XYZZ<G>* seg_sum, const XYZZ<G>* seg_weighted, XYZZ<G>* window,
                              uint64_t w) {
    const XYZZ<G>* S = seg_sum + w * sh.segments;
    const XYZZ<G>* T = seg_weighted + w * sh.segments;
    XYZZ<G> running = XYZZ<G>::infinity(), weighted = XYZZ<G>::infinity(), total = XYZZ<G>::infinity();
    for (uint32_t s = sh.segments; s-- > 1;) {  // sum_{s>=1} s*S_s
        running.add(S[s]);
        weighted.add(running);
    }
    for (uint32_t k = 1; k < sh.segment; k <<= 1) weighted = weighted.dbl();
    for (uint32_t s = 0; s < sh.segments; s++) total.add(T[s]);
    total.add(weighted);
    window[w] = total;
}

// The GPU's window width: wide windows (many buckets) keep the whole device busy in phase 4;
// from 8 bits for small inputs to 16 at 2^22 and above.
inline uint32_t gpu_window_bits(uint64_t n) {
    int lg = 0;
    while ((1ull << (lg + 1)) <= n) lg++;
    int c = lg - 6;
    return (uint32_t)(c < 8 ? 8 : (c > 16 ? 16 : c));
}

// The shape for n points and windows of c bits (runs of at most 32 buckets).
inline MsmShape msm_shape(uint64_t n, int bits, uint32_t c) {
    MsmShape sh;
    sh.n = n;
    sh.c = c;
    sh.windows = (uint32_t)((bits + 1 + (int)c - 1) / (int)c);
    sh.buckets = 1u << (c - 1);
    sh.segment = sh.buckets < 32 ? sh.buckets : 32;
    sh.segments = sh.buckets / sh.segment;
    sh.skip_key = sh.windows * sh.buckets;
    return sh;
}

}  // namespace gpu
CUZK_NS_END
