// Groth16's H (cuzk_groth16_h) with AVX-512 IFMA: the three round trips of ntt_values_to_coset and
// the product a * b - c, eight elements at a time.
//
// The vectors are copied into the lanes' layout (groups of eight consecutive elements, limb j of
// all eight in one register) without any product: the stored words x R (R = 2^(64N)) are only
// cut into 52-bit limbs, and the lanes' Montgomery product by a table entry kept as w R'
// (R' = 2^(52K)) gives x w R again, so the data never leaves the ordinary form. Only the final
// a * b needs a correction (one more product by the constant R'^2 / R). Butterflies whose two
// elements are at least eight apart pair whole registers; the three stages with pairs inside a
// register exchange lanes with a permutation (each product is then computed in both lanes of the
// pair, for three stages out of log n). Values stay below 2p throughout and are reduced once on
// the way out. The twiddle and scaling tables are made once per domain size and kept.
#pragma once
#if defined(CUZK_BATCH_IFMA) && !defined(__CUDA_ARCH__)
#include <memory>

#include "arith/lanes_ifma.hpp"
#include "groth16/h_cpu.hpp"
#include "ntt/ntt_cpu.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/pool.hpp"

// GCC 12 warns about the deliberately undefined pass-through operand of the AVX-512 permutes.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

CUZK_NS_BEGIN
namespace lanes {

template <class Fr>
class LanesH {
    using L = Lanes<Fr>;
    using V = typename L::V;
    static constexpr int K = L::K;
    static constexpr int N = Fr::N;

    // Tables of one domain size, in the form w R' (see the top of this file), in one buffer: from
    // 2^14 on (1.97 MB there) it takes 2 MiB pages, where three separate tables below 1 MiB each
    // took hundreds of 4 KiB pages (each a fault, dear on virtual machines).
    struct Tables {
        HostArray<V> storage;
        // Stage twiddles for half-widths h >= 8: w^j (forward) and w^-j (inverse), w the 2h-th
        // root of unity, j < h, eight per register, the stage of h from register h/8 - 1 on.
        V* fwd;
        V* inv;
        // h = 1, 2, 4 (s = 0, 1, 2): lane l holds the twiddle of j = l mod h; forward at s,
        // inverse at 3 + s.
        V* small;
        // Position i of the bit-reversed coefficients: n^-1 shift^bitrev(i).
        V* scale;
    };

    static void put_element(V& v, int lane, const Fr& x) {  // as x R'
        uint64_t w[K];
        L::to_lanes_form(x, w);
        lane_put<K>(v, lane, w);
    }

    static std::shared_ptr<const Tables> tables(int log_n, unsigned threads) {
        return PerDomainSize<Tables>::get(log_n, [&] { return make_tables(log_n, threads); });
    }

    static std::shared_ptr<const Tables> make_tables(int log_n, unsigned threads) {
        const size_t n = (size_t)1 << log_n, half = n / 2, nv = n / 8;
        auto dom = ntt_domain<Fr>(log_n, threads);
        const Fr* tw = dom->twiddle.data();  // w_n^e, e < n/2
        auto inv_tw = [&](size_t e) { return e == 0 ? Fr::one() : -tw[half - e]; };  // w_n^-e
        auto t = std::make_shared<Tables>();
        t->storage = HostArray<V>(3 * nv + 4, Fill::SCRATCH);  // every element is written below
        t->fwd = t->storage.get();
        t->inv = t->fwd + (nv - 1);
        t->small = t->inv + (nv - 1);
        t->scale = t->small + 6;
        for (int s = 0; s < 3; s++) {
            const size_t h = (size_t)1 << s, stride = n / (2 * h);
            for (int lane = 0; lane < 8; lane++) {
                put_element(t->small[s], lane, tw[(lane % h) * stride]);
                put_element(t->small[3 + s], lane, inv_tw((lane % h) * stride));
            }
        }
        // Register r of the big tables belongs to the stage of h with h/8 - 1 <= r < h/4 - 1.
        parallel_for(threads, nv - 1, [&](size_t r) {
            const size_t h = (size_t)8 << (63 - __builtin_clzll((uint64_t)(r + 1))), stride = n / (2 * h);
            const size_t j0 = 8 * (r + 1 - h / 8);
            for (int lane = 0; lane < 8; lane++) {
                put_element(t->fwd[r], lane, tw[(j0 + lane) * stride]);
                put_element(t->inv[r], lane, inv_tw((j0 + lane) * stride));
            }
        });
        HostArray<Fr> powers(n, Fill::SCRATCH);
        fill_powers(powers.get(), n, Fr::from_u64(n).inv(), root_of_unity<Fr>(log_n + 1), threads);
        parallel_for(threads, nv, [&](size_t g) {
            for (int lane = 0; lane < 8; lane++) put_element(t->scale[g], lane, powers[bit_reverse(8 * g + lane, log_n)]);
        });
        return t;
    }

    CUZK_IFMA_INLINE static inline V permute(const V& a, __m512i idx) {
        V r;
        for (int j = 0; j < K; j++) r.l[j] = _mm512_permutexvar_epi64(idx, a.l[j]);
        return r;
    }
    // Lanes l and l ^ h of one register: u the lower element, v the upper one.
    CUZK_IFMA_INLINE static inline void pair(const V& x, int h, V& u, V& v, __mmask8& upper) {
        const __m512i idx = _mm512_xor_si512(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(h));
        upper = h == 1 ? 0xAA : h == 2 ? 0xCC : 0xF0;
        const V p = permute(x, idx);
        u = L::blend(upper, x, p);
        v = L::blend(upper, p, x);
    }
    // Inverse butterfly (decimation in frequency): u + v, (u - v) w.
    CUZK_IFMA_INLINE static inline void dif(V& x, V& y, const V& w) {
        const V s = L::add_r(x, y);
        y = L::mul(L::sub_r(x, y), w);
        x = s;
    }
    // Forward butterfly (decimation in time): u + v w, u - v w.
    CUZK_IFMA_INLINE static inline void dit(V& x, V& y, const V& w) {
        const V t = L::mul(y, w);
        y = L::sub_r(x, t);
        x = L::add_r(x, t);
    }
    CUZK_IFMA_INLINE static inline void dif_small(V& x, int s, const Tables& t) {
        V u, v;
        __mmask8 upper;
        pair(x, 1 << s, u, v, upper);
        dif(u, v, t.small[3 + s]);
        x = L::blend(upper, u, v);
    }
    CUZK_IFMA_INLINE static inline void dit_small(V& x, int s, const Tables& t) {
        V u, v;
        __mmask8 upper;
        pair(x, 1 << s, u, v, upper);
        dit(u, v, t.small[s]);
        x = L::blend(upper, u, v);
    }

    // One stage of half-width h >= 8 over the registers [first, first + count) of x, whole groups
    // of 2h elements.
    CUZK_IFMA static void stage_dif(V* x, size_t first, size_t count, size_t h, const V* table) {
        const size_t hv = h / 8;
        const V* tw = table + (hv - 1);
        for (size_t g = first; g < first + count; g += 2 * hv) {
            for (size_t k = 0; k < hv; k++) dif(x[g + k], x[g + k + hv], tw[k]);
        }
    }
    CUZK_IFMA static void stage_dit(V* x, size_t first, size_t count, size_t h, const V* table) {
        const size_t hv = h / 8;
        const V* tw = table + (hv - 1);
        for (size_t g = first; g < first + count; g += 2 * hv) {
            for (size_t k = 0; k < hv; k++) dit(x[g + k], x[g + k + hv], tw[k]);
        }
    }

    // Register pairs [q0, q1) of a stage of half-width h >= 8 over the whole vector.
    template <bool Forward>
    CUZK_IFMA static void wide(V* x, size_t h, const V* table, size_t q0, size_t q1) {
        const size_t hv = h / 8;
        const V* tw = table + (hv - 1);
        for (size_t q = q0; q < q1; q++) {
            const size_t k = q % hv, g = (q / hv) * 2 * hv + k;
            if constexpr (Forward) dit(x[g], x[g + hv], tw[k]);
            else dif(x[g], x[g + hv], tw[k]);
        }
    }

    // The stages inside one block of registers [first, first + bv), 2^block_log elements: the
    // inverse transform's last stages, the scaling, the forward transform's first stages.
    CUZK_IFMA static void block(V* x, size_t first, size_t bv, int block_log, const Tables& t) {
        for (int s = block_log; s >= 4; s--) stage_dif(x, first, bv, (size_t)1 << (s - 1), t.inv);
        for (size_t g = first; g < first + bv; g++) {
            V y = x[g];
            for (int s = 2; s >= 0; s--) dif_small(y, s, t);
            y = L::mul(y, t.scale[g]);
            for (int s = 0; s <= 2; s++) dit_small(y, s, t);
            x[g] = y;
        }
        for (int s = 4; s <= block_log; s++) stage_dit(x, first, bv, (size_t)1 << (s - 1), t.fwd);
    }

    // Natural order in, bit-reversed coefficients out (without n^-1), then scaled, then the
    // forward transform back to natural order: ntt_values_to_coset in the lanes.
    static void to_coset(V* x, int log_n, const Tables& t, unsigned threads) {
        const size_t nv = (size_t)1 << (log_n - 3), pairs = nv / 2;
        const int block_log = log_n < 12 ? log_n : 12;
        const size_t bv = (size_t)1 << (block_log - 3);  // registers per block
        const size_t chunk = 256;                        // register pairs per task in the wide stages
        auto wide_stage = [&](int s, bool forward) {
            const V* table = forward ? t.fwd : t.inv;
            parallel_for(threads, (pairs + chunk - 1) / chunk, [&](size_t c) {
                const size_t h = (size_t)1 << (s - 1), q0 = c * chunk, q1 = std::min(pairs, q0 + chunk);
                if (forward) wide<true>(x, h, table, q0, q1);
                else wide<false>(x, h, table, q0, q1);
            });
        };
        for (int s = log_n; s > block_log; s--) wide_stage(s, false);
        parallel_for(threads, nv / bv, [&](size_t b) { block(x, b * bv, bv, block_log, t); });
        for (int s = block_log + 1; s <= log_n; s++) wide_stage(s, true);
    }

    static void load(const Fr* a, V* x, size_t nv, unsigned threads) {
        parallel_for(threads, (nv + 511) / 512, [&](size_t c) {
            const size_t end = std::min(nv, (c + 1) * 512);
            for (size_t g = c * 512; g < end; g++) {
                for (int lane = 0; lane < 8; lane++) {
                    uint64_t w[K];
                    to52<N, K>(a[8 * g + lane].l, w);
                    lane_put<K>(x[g], lane, w);
                }
            }
        });
    }

    // a = a * b - c over registers [g0, g1), stored back reduced below p; f is R'^2 / R (the
    // product of two values x R by the lanes' product leaves x^2 R^2 / R'). With u (R' / R, not
    // null) the result is multiplied once more, which takes its Montgomery form h R to h.
    CUZK_IFMA static void finish(const V* xa, const V* xb, const V* xc, const uint64_t* f, const uint64_t* u, Fr* a, size_t g0,
                                 size_t g1) {
        V fv, uv;
        for (int j = 0; j < K; j++) fv.l[j] = _mm512_set1_epi64((long long)f[j]);
        for (int j = 0; j < K && u; j++) uv.l[j] = _mm512_set1_epi64((long long)u[j]);
        for (size_t g = g0; g < g1; g++) {
            V h = L::sub_r(L::mul(L::mul(xa[g], xb[g]), fv), xc[g]);  // below 2p
            if (u) h = L::mul(h, uv);
            for (int lane = 0; lane < 8; lane++) {
                uint64_t limbs[K];
                lane_get<K>(h, lane, limbs);
                Fr r;
                from52<N, K>(limbs, r.l);
                Fr::reduce_once(r.l);
                a[8 * g + lane] = r;
            }
        }
    }

public:
    // Domains this path takes: below 2^6 the scalar code is as fast; above 2^20 the lanes' copies
    // (3 x 40 bytes per element per call) and kept tables (3 x 40 bytes per element per domain
    // size) would cost more memory than a proof on the CPU at that size should, so the scalar
    // code, in place, runs there.
    static constexpr int MIN_LOG = 6, MAX_LOG = 20;

    static void prepare(int log_n, unsigned threads) { tables(log_n, resolve_threads(threads)); }

    static void run(Fr* a, Fr* b, Fr* c, int log_n, unsigned threads, bool canonical) {
        threads = resolve_threads(threads);
        auto t = tables(log_n, threads);
        const size_t nv = (size_t)1 << (log_n - 3);
        // One allocation for the three: from 2^12 elements on it is large enough for huge pages.
        HostArray<V> all(3 * nv, Fill::SCRATCH);
        V* x[3] = {all.get(), all.get() + nv, all.get() + 2 * nv};
        Fr* v[3] = {a, b, c};
        for (int k = 0; k < 3; k++) {
            load(v[k], x[k], nv, threads);
            to_coset(x[k], log_n, *t, threads);
        }
        const Fr factor = L::pow2(2 * 52 * K - 128 * N);  // its stored words are R'^2 / R
        uint64_t f[K];
        to52<N, K>(factor.l, f);
        // For canonical output, one more product with R'/R: the Montgomery form's words h*R
        // become h (the stored words of 2^(52K - 128N) are R'/R).
        uint64_t u[K];
        if (canonical) to52<N, K>(L::pow2(52 * K - 128 * N).l, u);
        parallel_for(threads, (nv + 511) / 512, [&](size_t ch) {
            finish(x[0], x[1], x[2], f, canonical ? u : nullptr, a, ch * 512, std::min(nv, (ch + 1) * 512));
        });
    }
};

// cuzk_groth16_h on this path: the lanes from 2^6 to 2^20 elements, the scalar code elsewhere.
template <class Fr>
void groth16_h_ifma(Fr* a, Fr* b, Fr* c, int log_n, unsigned threads, bool canonical) {
    if (log_n < LanesH<Fr>::MIN_LOG || log_n > LanesH<Fr>::MAX_LOG) {
        groth16_h_cpu(a, b, c, log_n, threads, canonical);
        return;
    }
    LanesH<Fr>::run(a, b, c, log_n, threads, canonical);
}

// What groth16_h_ifma keeps per domain size.
template <class Fr>
void groth16_h_ifma_prepare(int log_n, unsigned threads) {
    if (log_n < LanesH<Fr>::MIN_LOG || log_n > LanesH<Fr>::MAX_LOG) {
        groth16_h_cpu_prepare<Fr>(log_n, threads);
        return;
    }
    LanesH<Fr>::prepare(log_n, threads);
}

}  // namespace lanes
CUZK_NS_END
#pragma GCC diagnostic pop
#endif
