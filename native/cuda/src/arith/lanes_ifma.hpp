// Eight Montgomery products at once with AVX-512 IFMA (vpmadd52luq / vpmadd52huq).
//
// An element is held in K limbs of 52 bits (radix 2^52, Montgomery radix R' = 2^(52K)), one
// element per 64-bit lane, so a vector of K registers holds the same limb of eight independent
// elements. The field's ordinary form is x*R mod p in 64-bit limbs (R = 2^(64N)); the two forms
// convert with one scalar product each (to_lanes_form / from_lanes_form).
//
// Bounds: K is chosen so that 16p < R', which makes the Montgomery product of two values below 4p
// come out below 2p; subtractions add p or 2p to stay non-negative. Fp2 (Lanes2) is two such
// elements, multiplied with Karatsuba. Values kept in buckets are
// canonical (below p) so that equal x coordinates can be recognised by comparing words.
//
// Only compiled into the x86-ifma code path (see CMakeLists.txt), and only the functions marked
// CUZK_IFMA are compiled for AVX-512: the translation unit itself is built for plain x86-64, so
// no shared (COMDAT) template instance can pick up AVX-512 instructions. Callers check CPUID.
#pragma once
#if defined(CUZK_BATCH_IFMA) && !defined(__CUDA_ARCH__)
#include <immintrin.h>

#define CUZK_IFMA __attribute__((target("avx512f,avx512ifma")))
// The field operations are always inlined: called out of line, each passes its limbs through
// memory; inlined, they stay in the 32 vector registers (G1 and G2 MSMs 4-11 % faster).
#define CUZK_IFMA_INLINE __attribute__((target("avx512f,avx512ifma"), always_inline))
// GCC 12 warns about the deliberately undefined pass-through operand of the AVX-512 shifts.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include <cstring>

#include "cuzk/field.hpp"

CUZK_NS_BEGIN
namespace lanes {

constexpr uint64_t MASK52 = (1ull << 52) - 1;

// A 64-bit word that may alias a vector register's storage: __m512i holds long long, which a
// uint64_t (unsigned long) may not alias, so plain uint64_t accesses to a V let the compiler keep
// stale copies (seen: a lane read back the value the register held before a product).
typedef uint64_t __attribute__((may_alias)) aliasing_word;

// Lane `lane` of a lanes vector v (v.l[j] holds word j of eight elements) from or to W words.
template <int W, class V>
inline void lane_put(V& v, int lane, const uint64_t* words) {
    aliasing_word* w = reinterpret_cast<aliasing_word*>(v.l);
    for (int j = 0; j < W; j++) w[8 * j + lane] = words[j];
}
template <int W, class V>
inline void lane_get(const V& v, int lane, uint64_t* words) {
    const aliasing_word* w = reinterpret_cast<const aliasing_word*>(v.l);
    for (int j = 0; j < W; j++) words[j] = w[8 * j + lane];
}

// 64-bit limbs (N words) to 52-bit limbs (K words) of the same integer; the integer must fit.
template <int N, int K>
inline void to52(const uint64_t* a, uint64_t* r) {
    for (int j = 0; j < K; j++) {
        const int bit = 52 * j, w = bit / 64, s = bit % 64;
        uint64_t v = w < N ? a[w] >> s : 0;
        if (s > 12 && w + 1 < N) v |= a[w + 1] << (64 - s);
        r[j] = v & MASK52;
    }
}

// 52-bit limbs (normalised) to 64-bit limbs; the integer must fit in N words.
template <int N, int K>
inline void from52(const uint64_t* a, uint64_t* r) {
    for (int i = 0; i < N; i++) r[i] = 0;
    for (int j = 0; j < K; j++) {
        const int bit = 52 * j, w = bit / 64, s = bit % 64;
        if (w < N) r[w] |= a[j] << s;
        if (s > 12 && w + 1 < N) r[w + 1] |= a[j] >> (64 - s);
    }
}

template <class F>
struct Lanes {
    using P = typename F::Params;
    static constexpr int N = F::N;
    static constexpr int K = (P::BITS + 4 + 51) / 52;  // 16p < 2^(52K)
    static_assert(52 * K <= 64 * N + 64, "the 52-bit form must fit one extra word");

    struct Consts {
        uint64_t p[K], p2[K];    // p and 2p in 52-bit limbs
        uint64_t one[K];         // R' mod p: 1 in the lanes form
        uint64_t pinv;           // -p^-1 mod 2^52
        F to_lanes, from_lanes;  // raw words R' mod p and R^2/R' mod p, as F multipliers
    };

    // 2^e as an element of F (e may be negative).
    static F pow2(int e) {
        const F two = F::one().dbl();
        return e >= 0 ? two.pow_u64((uint64_t)e) : two.inv().pow_u64((uint64_t)-e);
    }

    static const Consts& consts() {
        static const Consts c = [] {
            Consts k{};
            const Limbs<N> m = P::modulus();
            to52<N, K>(m.v, k.p);
            uint64_t m2[N + 1];
            uint64_t carry = 0;
            for (int i = 0; i < N; i++) carry = add_carry(m.v[i], m.v[i], carry, m2[i]);
            m2[N] = carry;
            to52<N + 1, K>(m2, k.p2);
            k.pinv = P::INV & MASK52;
            // The stored words of an element of value v are v*R. R' mod p as stored words is the
            // element of value R'/R; R^2/R' as stored words is the element of value R/R'.
            F one_lanes = pow2(52 * K - 64 * N);
            to52<N, K>(one_lanes.l, k.one);
            k.to_lanes = one_lanes;
            k.from_lanes = pow2(64 * N - 52 * K);
            return k;
        }();
        return c;
    }

    // Ordinary form (x*R, canonical) to the lanes form (x*R', canonical, 52-bit limbs).
    static void to_lanes_form(const F& x, uint64_t* r) {
        F t = x * consts().to_lanes;  // x*R * R' / R = x*R'
        to52<N, K>(t.l, r);
    }

    // Lanes form (below 2p) to the ordinary form.
    static F from_lanes_form(const uint64_t* a) {
        F t;
        from52<N, K>(a, t.l);
        F::reduce_once(t.l);
        return t * consts().from_lanes;  // x*R' * R^2/R' / R = x*R
    }

    // p - a for canonical a (0 stays 0), in 52-bit limbs.
    static void neg(const uint64_t* a, uint64_t* r) {
        uint64_t any = 0;
        for (int j = 0; j < K; j++) any |= a[j];
        if (!any) {
            for (int j = 0; j < K; j++) r[j] = 0;
            return;
        }
        const Consts& c = consts();
        int64_t borrow = 0;
        for (int j = 0; j < K; j++) {
            int64_t d = (int64_t)c.p[j] - (int64_t)a[j] + borrow;
            r[j] = (uint64_t)d & MASK52;
            borrow = d >> 52;
        }
    }

    static bool equal(const uint64_t* a, const uint64_t* b) {
        uint64_t d = 0;
        for (int j = 0; j < K; j++) d |= a[j] ^ b[j];
        return d == 0;
    }

    static constexpr int W = K;  // 64-bit words per element in the lanes form
    static const uint64_t* one_words() { return consts().one; }

    // ---- vector operations on eight elements: l[j] holds limb j of each lane ----
    // alignas: outside AVX-512 code GCC gives __m512i only 16-byte alignment.
    struct alignas(64) V {
        __m512i l[K];
    };

    CUZK_IFMA_INLINE static inline __m512i bc(uint64_t x) { return _mm512_set1_epi64((long long)x); }

    // Carry-propagates limbs holding signed 64-bit partial sums into 52-bit limbs and returns
    // the final carry: -1 in the lanes whose value was negative, else 0 for values that fit.
    CUZK_IFMA_INLINE static inline __m512i normalize(__m512i* t) {
        const __m512i mask = bc(MASK52);
        __m512i carry = _mm512_setzero_si512();
        for (int j = 0; j < K; j++) {
            __m512i v = _mm512_add_epi64(t[j], carry);
            carry = _mm512_srai_epi64(v, 52);
            t[j] = _mm512_and_si512(v, mask);
        }
        return carry;
    }

    // r = a * b / R' mod p, for a * b < p * R' (so below 4p each is enough); r is below 2p.
    CUZK_IFMA_INLINE static inline void mul(const __m512i* a, const __m512i* b, __m512i* r) {
        const Consts& c = consts();
        const __m512i zero = _mm512_setzero_si512();
        const __m512i pinv = bc(c.pinv);
        __m512i p[K];
        for (int j = 0; j < K; j++) p[j] = bc(c.p[j]);
        __m512i t[K + 1];
        for (int j = 0; j <= K; j++) t[j] = zero;
        for (int i = 0; i < K; i++) {
            const __m512i bi = b[i];
            for (int j = 0; j < K; j++) {
                t[j] = _mm512_madd52lo_epu64(t[j], a[j], bi);
                t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a[j], bi);
            }
            const __m512i m = _mm512_madd52lo_epu64(zero, t[0], pinv);
            for (int j = 0; j < K; j++) {
                t[j] = _mm512_madd52lo_epu64(t[j], m, p[j]);
                t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, p[j]);
            }
            // t[0] is now a multiple of 2^52: shift the whole sum down one limb.
            const __m512i carry = _mm512_srli_epi64(t[0], 52);
            for (int j = 0; j < K; j++) t[j] = t[j + 1];
            t[0] = _mm512_add_epi64(t[0], carry);
            t[K] = zero;
        }
        normalize(t);
        for (int j = 0; j < K; j++) r[j] = t[j];
    }

    // r = a - b + kp for b at most kp (kp: the limbs of p, 2p, ...); normalised.
    CUZK_IFMA_INLINE static inline void sub(const __m512i* a, const __m512i* b, const uint64_t* kp, __m512i* r) {
        for (int j = 0; j < K; j++) r[j] = _mm512_sub_epi64(_mm512_add_epi64(a[j], bc(kp[j])), b[j]);
        normalize(r);
    }

    // r = a + b; normalised.
    CUZK_IFMA_INLINE static inline void add(const __m512i* a, const __m512i* b, __m512i* r) {
        for (int j = 0; j < K; j++) r[j] = _mm512_add_epi64(a[j], b[j]);
        normalize(r);
    }

    // a - kp where that is non-negative, else a (one conditional subtraction).
    CUZK_IFMA_INLINE static inline void reduce_once(__m512i* a, const uint64_t* kp) {
        __m512i t[K];
        for (int j = 0; j < K; j++) t[j] = _mm512_sub_epi64(a[j], bc(kp[j]));
        // a final borrow (carry = -1) means a < kp: keep a
        const __m512i carry = normalize(t);
        const __mmask8 keep_t = _mm512_cmpeq_epi64_mask(carry, _mm512_setzero_si512());
        for (int j = 0; j < K; j++) a[j] = _mm512_mask_blend_epi64(keep_t, a[j], t[j]);
    }

    // The interface IfmaBuckets uses (shared with Lanes2).
    CUZK_IFMA_INLINE static inline V mul(const V& a, const V& b) {
        V r;
        mul(a.l, b.l, r.l);
        return r;
    }
    // a - b + p, for canonical b.
    CUZK_IFMA_INLINE static inline V sub_p(const V& a, const V& b) {
        V r;
        sub(a.l, b.l, consts().p, r.l);
        return r;
    }
    // One conditional subtraction of p.
    CUZK_IFMA_INLINE static inline void reduce_p(V& a) { reduce_once(a.l, consts().p); }

    // For the projective sums (IfmaBuckets::weighted_sum), values below 2p in and out:
    // a - b and a + b, each followed by one conditional subtraction of 2p.
    CUZK_IFMA_INLINE static inline void sub_r(const __m512i* a, const __m512i* b, __m512i* r) {
        sub(a, b, consts().p2, r);  // below 4p
        reduce_once(r, consts().p2);
    }
    CUZK_IFMA_INLINE static inline void add_r(const __m512i* a, const __m512i* b, __m512i* r) {
        add(a, b, r);
        reduce_once(r, consts().p2);
    }
    // Zero in the lanes whose value (below 2p) is 0 mod p.
    CUZK_IFMA_INLINE static inline __m512i residue(const __m512i* a) {
        __m512i t[K];
        for (int j = 0; j < K; j++) t[j] = a[j];
        reduce_once(t, consts().p);
        __m512i any = t[0];
        for (int j = 1; j < K; j++) any = _mm512_or_si512(any, t[j]);
        return any;
    }
    CUZK_IFMA_INLINE static inline V sub_r(const V& a, const V& b) {
        V r;
        sub_r(a.l, b.l, r.l);
        return r;
    }
    CUZK_IFMA_INLINE static inline V add_r(const V& a, const V& b) {
        V r;
        add_r(a.l, b.l, r.l);
        return r;
    }
    CUZK_IFMA_INLINE static inline __mmask8 zero_mask(const V& a) {
        return _mm512_cmpeq_epi64_mask(residue(a.l), _mm512_setzero_si512());
    }
    // b in the lanes of m, a in the others.
    CUZK_IFMA_INLINE static inline V blend(__mmask8 m, const V& a, const V& b) {
        V r;
        for (int j = 0; j < K; j++) r.l[j] = _mm512_mask_blend_epi64(m, a.l[j], b.l[j]);
        return r;
    }
    // a = p - a in the lanes of m, for canonical a (0 becomes p, which every caller accepts).
    CUZK_IFMA_INLINE static inline void neg_where(__mmask8 m, __m512i* a) {
        __m512i t[K];
        const __m512i zero[K] = {};
        sub(zero, a, consts().p, t);
        for (int j = 0; j < K; j++) a[j] = _mm512_mask_blend_epi64(m, a[j], t[j]);
    }
    CUZK_IFMA_INLINE static inline void neg_where(__mmask8 m, V& a) { neg_where(m, a.l); }
    // The inverses of a's eight lanes (values below 2p) with one inversion (Montgomery's trick);
    // false, inv unset, when a lane is 0 mod p.
    static bool invert(const V& a, V& inv) {
        F prod[8], pre[8];
        for (int lane = 0; lane < 8; lane++) {
            uint64_t w[K];
            lane_get<K>(a, lane, w);
            prod[lane] = from_lanes_form(w);
            pre[lane] = lane ? pre[lane - 1] * prod[lane] : prod[lane];
        }
        if (pre[7].is_zero()) return false;
        F t = pre[7].inv_vartime();
        for (int lane = 7; lane >= 0; lane--) {
            uint64_t w[K];
            to_lanes_form(lane ? t * pre[lane - 1] : t, w);
            lane_put<K>(inv, lane, w);
            t = t * prod[lane];
        }
        return true;
    }
    // Words [from, from + K) of the eight elements at byte addresses `at`: word j of each in limb j.
    CUZK_IFMA_INLINE static inline void gather(__m512i at, int from, __m512i* l) {
        for (int j = 0; j < K; j++) {
            l[j] = _mm512_i64gather_epi64(_mm512_add_epi64(at, bc((uint64_t)(8 * (from + j)))), nullptr, 1);
        }
    }
    CUZK_IFMA_INLINE static inline void gather(__m512i at, int from, V& v) { gather(at, from, v.l); }
};

// The quadratic extension Fp2 = Fp[u]/(u^2 + 1) in the same lanes: c0's K limbs then c1's.
template <class B>
struct Lanes2 {
    using F = Field2<B>;
    using L = Lanes<B>;
    static constexpr int K = L::K;
    static constexpr int W = 2 * K;

    static const uint64_t* one_words() {
        static const struct Words {
            uint64_t w[W];
            Words() {
                for (int j = 0; j < K; j++) {
                    w[j] = L::one_words()[j];
                    w[K + j] = 0;
                }
            }
        } one;
        return one.w;
    }
    static void to_lanes_form(const F& x, uint64_t* r) {
        L::to_lanes_form(x.c0, r);
        L::to_lanes_form(x.c1, r + K);
    }
    static F from_lanes_form(const uint64_t* a) { return F{L::from_lanes_form(a), L::from_lanes_form(a + K)}; }
    static void neg(const uint64_t* a, uint64_t* r) {
        L::neg(a, r);
        L::neg(a + K, r + K);
    }
    static bool equal(const uint64_t* a, const uint64_t* b) { return L::equal(a, b) && L::equal(a + K, b + K); }

    struct alignas(64) V {
        __m512i l[W];
    };

    // Karatsuba, with each component below 2p on entry and on exit.
    CUZK_IFMA_INLINE static inline V mul(const V& a, const V& b) {
        const typename L::Consts& c = L::consts();
        __m512i v0[K], v1[K], sa[K], sb[K], s[K];
        L::mul(a.l, b.l, v0);
        L::mul(a.l + K, b.l + K, v1);
        L::add(a.l, a.l + K, sa);  // below 4p
        L::add(b.l, b.l + K, sb);
        L::mul(sa, sb, s);  // below 2p (4p * 4p < p * R')
        V r;
        L::sub(v0, v1, c.p2, r.l);  // below 4p
        L::reduce_once(r.l, c.p2);
        L::sub(s, v0, c.p2, sa);  // below 4p
        L::sub(sa, v1, c.p2, r.l + K);  // below 6p
        L::reduce_once(r.l + K, c.p2);
        L::reduce_once(r.l + K, c.p2);
        return r;
    }
    CUZK_IFMA_INLINE static inline V sub_p(const V& a, const V& b) {
        const typename L::Consts& c = L::consts();
        V r;
        L::sub(a.l, b.l, c.p, r.l);
        L::sub(a.l + K, b.l + K, c.p, r.l + K);
        return r;
    }
    CUZK_IFMA_INLINE static inline void reduce_p(V& a) {
        const typename L::Consts& c = L::consts();
        L::reduce_once(a.l, c.p);
        L::reduce_once(a.l + K, c.p);
    }
    CUZK_IFMA_INLINE static inline V sub_r(const V& a, const V& b) {
        V r;
        L::sub_r(a.l, b.l, r.l);
        L::sub_r(a.l + K, b.l + K, r.l + K);
        return r;
    }
    CUZK_IFMA_INLINE static inline V add_r(const V& a, const V& b) {
        V r;
        L::add_r(a.l, b.l, r.l);
        L::add_r(a.l + K, b.l + K, r.l + K);
        return r;
    }
    CUZK_IFMA_INLINE static inline __mmask8 zero_mask(const V& a) {
        return _mm512_cmpeq_epi64_mask(_mm512_or_si512(L::residue(a.l), L::residue(a.l + K)), _mm512_setzero_si512());
    }
    CUZK_IFMA_INLINE static inline V blend(__mmask8 m, const V& a, const V& b) {
        V r;
        for (int j = 0; j < W; j++) r.l[j] = _mm512_mask_blend_epi64(m, a.l[j], b.l[j]);
        return r;
    }
};

// The lanes algebra of a coordinate field: Lanes for Fp (G1), Lanes2 for Fp2 (G2).
template <class F>
struct algebra_of {
    static constexpr bool exists = false;
};
template <class P>
struct algebra_of<Field<P>> {
    static constexpr bool exists = true;
    using type = Lanes<Field<P>>;
};
template <class B>
struct algebra_of<Field2<B>> {
    static constexpr bool exists = true;
    using type = Lanes2<B>;
};

}  // namespace lanes
CUZK_NS_END
#pragma GCC diagnostic pop
#endif
