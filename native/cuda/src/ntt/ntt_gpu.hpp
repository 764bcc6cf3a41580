// The GPU NTT, as per-thread bodies shared by the CUDA kernels (cuda/ntt.cu) and their host
// emulation (impl_emulate_ntt.cpp).
//
// Radix-2, decimation in time after a bit-reversal permutation, like the CPU backend, but several
// stages per launch: a block loads a group of 2^k elements into shared memory, runs k stages on
// them and writes them back. After s0 stages, the elements that stages s0+1 .. s0+k combine are
// those whose index agrees outside bits [s0, s0 + k): group g holds
// index(t) = (g >> s0) << (s0 + k) | t << s0 | (g & (2^s0 - 1)) for t < 2^k.
// Twiddles w^e, e < n/2, of the domain's primitive root w come from two partial tables (NttTwiddles).
#pragma once
#include "cuzk/field.hpp"

CUZK_NS_BEGIN
namespace gpu {

constexpr int NTT_MAX_GROUP_LOG = 10;  // 1024 elements per block in shared memory

// The stage groups of a 2^log_n NTT: as few launches as NTT_MAX_GROUP_LOG allows, their sizes as
// even as possible (24 = 8 + 8 + 8, not 10 + 10 + 4, whose last launch would run 2^20 blocks of 8
// threads; 11 = 6 + 5, not 10 + 1, whose one-stage launch has one-thread blocks). Writes the
// sizes, largest first, and returns their count.
inline int ntt_stage_groups(int log_n, int* k) {
    const int groups = (log_n + NTT_MAX_GROUP_LOG - 1) / NTT_MAX_GROUP_LOG;
    for (int i = 0; i < groups; i++) k[i] = log_n / groups + (i < log_n % groups ? 1 : 0);
    return groups;
}

// The launches of a 2^log_n transform's stage groups, in order: DIT from the low bits up
// (bit-reversed in, natural out), DIF from the top bits down (natural in, bit-reversed out). Writes
// each launch's first stage s0 and size k; returns their number. Host code, shared by the kernels'
// launcher and the emulation.
inline int ntt_passes(int log_n, bool dif, int* s0, int* k) {
    int ks[8];
    const int passes = ntt_stage_groups(log_n, ks);
    for (int i = 0, start = 0; i < passes; start += ks[i], i++) {
        const int at = dif ? passes - 1 - i : i;
        s0[at] = start;
        k[at] = ks[i];
    }
    return passes;
}

// The twiddles w^e, e < n/2, of a 2^log_n domain from two partial tables: lo[i] = w^i for i < 2^L
// and hi[i] = w^(i 2^L), L = log_n / 2, so w^e = hi[e >> L] * lo[e mod 2^L]. 2^24 takes 4,096 + 2,048
// entries (192 KiB) where the whole table took 2^23 (256 MiB), for one more product per butterfly,
// against a load from a table far larger than any cache.
template <class Fr>
struct NttTwiddles {
    const Fr* lo;
    const Fr* hi;
    int lo_bits;

    CUZK_HD Fr power(uint64_t e) const { return hi[e >> lo_bits] * lo[e & ((1ull << lo_bits) - 1)]; }
};

inline int ntt_twiddle_lo_bits(int log_n) { return log_n / 2; }

// hi's entries: 2^(log_n - 1 - L), at least 1 (log_n >= 1).
inline uint64_t ntt_twiddle_hi_count(int log_n) { return (1ull << (log_n - 1)) >> ntt_twiddle_lo_bits(log_n); }

// Fills lo (2^L entries) and hi (ntt_twiddle_hi_count) for the root w of a 2^log_n domain, log_n >= 1.
// Host code, shared by the device's tables and the emulation.
template <class Fr>
void ntt_twiddle_tables(const Fr& w, int log_n, Fr* lo, Fr* hi) {
    const int bits = ntt_twiddle_lo_bits(log_n);
    Fr v = Fr::one();
    for (uint64_t i = 0; i < (1ull << bits); i++, v = v * w) lo[i] = v;
    const Fr step = v;  // w^(2^L)
    v = Fr::one();
    for (uint64_t i = 0; i < ntt_twiddle_hi_count(log_n); i++, v = v * step) hi[i] = v;
}

CUZK_HD uint64_t bit_reverse_u64(uint64_t x, int bits) {
#if defined(__CUDA_ARCH__)
    return bits ? __brevll(x) >> (64 - bits) : 0;
#else
    uint64_t r = 0;
    for (int i = 0; i < bits; i++) {
        r = (r << 1) | (x & 1);
        x >>= 1;
    }
    return r;
#endif
}

// Thread i of the permutation: swaps a[i] and a[rev(i)] once.
template <class Fr>
CUZK_HD void ntt_bitrev_body(Fr* a, int log_n, uint64_t i) {
    uint64_t j = bit_reverse_u64(i, log_n);
    if (i < j) {
        Fr t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

CUZK_HD uint64_t ntt_group_index(uint64_t g, uint64_t t, int s0, int k) {
    uint64_t low_mask = (1ull << s0) - 1;
    return ((g >> s0) << (s0 + k)) | (t << s0) | (g & low_mask);
}

// Load: thread q of group g copies elements 2q and 2q + 1 of the group into shared memory.
template <class Fr>
CUZK_HD void ntt_group_load(const Fr* a, Fr* shared, int s0, int k, uint64_t g, uint32_t q) {
    for (uint32_t t = 2 * q; t < 2 * q + 2; t++) shared[t] = a[ntt_group_index(g, t, s0, k)];
}

// Stage j of the group (global stage s0 + j + 1), thread q: one butterfly.
template <class Fr>
CUZK_HDI void ntt_group_stage(Fr* shared, const NttTwiddles<Fr>& tw, int log_n, int s0, int j, uint64_t g, uint32_t q) {
    uint32_t below = q & ((1u << j) - 1);
    uint32_t t = ((q >> j) << (j + 1)) | below;  // bit j of t is 0; its partner is t + 2^j
    uint64_t low = g & ((1ull << s0) - 1);
    int s = s0 + j + 1;
    uint64_t e = (((uint64_t)below << s0) | low) << (log_n - s);  // (i mod 2^(s-1)) * n / 2^s
    Fr x = shared[t];
    Fr y = shared[t + (1u << j)] * tw.power(e);
    shared[t] = x + y;
    shared[t + (1u << j)] = x - y;
}

// The twiddle w^e of the forward transform (e < n/2), or w^-e of the inverse from the same tables:
// w^-e = w^(n/2) w^(n/2 - e) = -w^(n/2 - e) for 0 < e < n/2.
template <class Fr>
CUZK_HD Fr ntt_twiddle(const NttTwiddles<Fr>& tw, int log_n, uint64_t e, bool inverse) {
    if (!inverse) return tw.power(e);
    if (e == 0) return Fr::one();
    return -tw.power((1ull << (log_n - 1)) - e);
}

// The decimation-in-frequency stage (Gentleman-Sande), for natural order in and bit-reversed order
// out: stages run from log_n down to 1 (groups from the top bits down, and j from k - 1 down to 0
// within a group); the pairs and exponents are those of the stage above, the butterfly is
// (x, y) -> (x + y, (x - y) w^e).
template <class Fr>
CUZK_HDI void ntt_group_stage_dif(Fr* shared, const NttTwiddles<Fr>& tw, int log_n, int s0, int j, bool inverse, uint64_t g,
                                  uint32_t q) {
    uint32_t below = q & ((1u << j) - 1);
    uint32_t t = ((q >> j) << (j + 1)) | below;
    uint64_t low = g & ((1ull << s0) - 1);
    int s = s0 + j + 1;
    uint64_t e = (((uint64_t)below << s0) | low) << (log_n - s);
    Fr x = shared[t];
    Fr y = shared[t + (1u << j)];
    shared[t] = x + y;
    shared[t + (1u << j)] = (x - y) * ntt_twiddle(tw, log_n, e, inverse);
}

// Between Groth16's inverse transform (DIF: coefficients in bit-reversed order) and the forward
// transform on the coset (DIT without its bit reversal: bit-reversed in, natural out), thread j:
// coefficient rev(j) times scale * g^rev(j), g^k = high[k >> 10] * low[k & 1023]. One pass
// instead of the reversal, scaling, coset and two bit-reversal passes of the plain transforms.
template <class Fr>
CUZK_HD void ntt_bitrev_coset_body(Fr* a, const Fr* low, const Fr* high, const Fr& scale, int log_n, uint64_t j) {
    uint64_t k = bit_reverse_u64(j, log_n);
    a[j] = a[j] * (high[k >> 10] * low[k & 1023]) * scale;
}

template <class Fr>
CUZK_HD void ntt_group_store(Fr* a, const Fr* shared, int s0, int k, uint64_t g, uint32_t q) {
    for (uint32_t t = 2 * q; t < 2 * q + 2; t++) a[ntt_group_index(g, t, s0, k)] = shared[t];
}

// After the forward transform, for the inverse: out[i] = a[(n - i) mod n] * scale, done in place
// by thread i < n/2 + 1 swapping i and n - i.
template <class Fr>
CUZK_HD void ntt_reverse_scale_body(Fr* a, uint64_t n, const Fr& scale, uint64_t i) {
    uint64_t j = (n - i) & (n - 1);
    if (i == j) {
        a[i] = a[i] * scale;
    } else if (i < j) {
        Fr t = a[i];
        a[i] = a[j] * scale;
        a[j] = t * scale;
    }
}

// The two small tables of a coset's powers for 2^log_n elements: g^i = high[i >> 10] * low[i & 1023].
// Host code, shared by the device's tables and the emulation.
template <class Fr>
void ntt_coset_powers(const Fr& g, int log_n, Fr* low, Fr* high) {
    Fr v = Fr::one();
    for (int j = 0; j < 1024; j++, v = v * g) low[j] = v;
    const Fr step = v;  // g^1024
    v = Fr::one();
    for (uint64_t i = 0; i <= ((1ull << log_n) >> 10); i++, v = v * step) high[i] = v;
}

// a[i] *= scale * g^i, with g^i = high[i >> 10] * low[i & 1023] from two small tables.
template <class Fr>
CUZK_HD void ntt_coset_body(Fr* a, const Fr* low, const Fr* high, const Fr& scale, uint64_t i) {
    a[i] = a[i] * (high[i >> 10] * low[i & 1023]) * scale;
}

}  // namespace gpu
CUZK_NS_END
