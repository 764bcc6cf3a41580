// Montgomery arithmetic over a prime field, and its quadratic extension.
// One template, compiled by the host compiler for the CPU backend and by nvcc for the kernels.
//
// Storage is LIMBS little-endian 64-bit words holding x*R mod p with R = 2^(64*LIMBS); this is
// also the byte layout of snarkjs files (n8 bytes, little-endian, Montgomery form), so zkey
// sections are usable in place.
#pragma once
#include "cuzk/arch.hpp"
#include "cuzk/constants.hpp"
#if defined(CUZK_MUL_ADX) && !defined(__CUDA_ARCH__)
#include "cuzk/mont_x86_64.hpp"
#endif

CUZK_NS_BEGIN

template <class P>
struct Field {
    static constexpr int N = P::LIMBS;
    static constexpr int BYTES = 8 * N;
    using Params = P;
    uint64_t l[N];

    CUZK_HD static Field from_limbs(const Limbs<N>& x) {
        Field r;
        CUZK_UNROLL for (int i = 0; i < N; i++) r.l[i] = x.v[i];
        return r;
    }
    CUZK_HD static Field zero() {
        Field r;
        CUZK_UNROLL for (int i = 0; i < N; i++) r.l[i] = 0;
        return r;
    }
    CUZK_HD static Field one() { return from_limbs(P::one()); }

    CUZK_HD bool is_zero() const {
        uint64_t acc = 0;
        CUZK_UNROLL for (int i = 0; i < N; i++) acc |= l[i];
        return acc == 0;
    }
    CUZK_HD bool operator==(const Field& o) const {
        uint64_t acc = 0;
        CUZK_UNROLL for (int i = 0; i < N; i++) acc |= l[i] ^ o.l[i];
        return acc == 0;
    }
    CUZK_HD bool operator!=(const Field& o) const { return !(*this == o); }

    // True when the little-endian words a[0..N) hold an integer below the modulus.
    CUZK_HD static bool is_canonical(const uint64_t* a) {
        const Limbs<N> m = P::modulus();
        uint64_t borrow = 0, d;
        CUZK_UNROLL for (int i = 0; i < N; i++) borrow = sub_borrow(a[i], m.v[i], borrow, d);
        return borrow != 0;
    }

    // r = a - p if a >= p, for a < 2p, with a branch: for a Montgomery product the subtraction is
    // rarely needed (the product is below p(1 + p/R)), so the branch predicts well.
    CUZK_HD static void reduce_once_rare(uint64_t* a) {
        const Limbs<N> m = P::modulus();
        uint64_t t[N];
        uint64_t borrow = 0;
        CUZK_UNROLL for (int i = 0; i < N; i++) borrow = sub_borrow(a[i], m.v[i], borrow, t[i]);
        if (!borrow) {
            CUZK_UNROLL for (int i = 0; i < N; i++) a[i] = t[i];
        }
    }

    // r = a - p if a >= p, for a < 2p, without a branch: after an addition the outcome is a coin toss,
    // and a mispredicted branch costs more than the select.
    CUZK_HD static void reduce_once(uint64_t* a) {
        const Limbs<N> m = P::modulus();
        uint64_t t[N];
        uint64_t borrow = 0;
        CUZK_UNROLL for (int i = 0; i < N; i++) borrow = sub_borrow(a[i], m.v[i], borrow, t[i]);
        const uint64_t keep = 0 - borrow;  // all ones when a < p
        CUZK_UNROLL for (int i = 0; i < N; i++) a[i] = (a[i] & keep) | (t[i] & ~keep);
    }

    CUZK_HD Field operator+(const Field& b) const {
        Field r;
        uint64_t c = 0;
        // The moduli leave a spare top bit, so a + b < 2p < 2^(64N) never carries out.
        CUZK_UNROLL for (int i = 0; i < N; i++) c = add_carry(l[i], b.l[i], c, r.l[i]);
        reduce_once(r.l);
        return r;
    }
    CUZK_HD Field operator-(const Field& b) const {
        Field r;
        uint64_t borrow = 0;
        CUZK_UNROLL for (int i = 0; i < N; i++) borrow = sub_borrow(l[i], b.l[i], borrow, r.l[i]);
        // add p back when the subtraction borrowed, without a branch
        const Limbs<N> m = P::modulus();
        const uint64_t mask = 0 - borrow;
        uint64_t c = 0;
        CUZK_UNROLL for (int i = 0; i < N; i++) c = add_carry(r.l[i], m.v[i] & mask, c, r.l[i]);
        return r;
    }
    CUZK_HD Field operator-() const { return zero() - *this; }
    CUZK_HD Field dbl() const { return *this + *this; }
    CUZK_HD Field& operator+=(const Field& b) { return *this = *this + b; }
    CUZK_HD Field& operator-=(const Field& b) { return *this = *this - b; }
    CUZK_HD Field& operator*=(const Field& b) { return *this = *this * b; }

    // Montgomery product a*b*R^-1 mod p: coarsely integrated operand scanning without the
    // extra carry word, valid because the top word of every modulus here is below 2^63 - 1.
    CUZK_MUL Field operator*(const Field& b) const {
#if defined(CUZK_MUL_ADX) && !defined(__CUDA_ARCH__)
        if constexpr (N == 4 || N == 6) {
            static constexpr Limbs<N> M = P::modulus();
            Field r;
            if constexpr (N == 4) x86::mont_mul_adx_4(r.l, l, b.l, M.v, P::INV);
            else x86::mont_mul_adx_6(r.l, l, b.l, M.v, P::INV);
            reduce_once_rare(r.l);
            return r;
        }
#endif
        const Limbs<N> m = P::modulus();
        uint64_t t[N];
        CUZK_UNROLL for (int i = 0; i < N; i++) t[i] = 0;
        CUZK_UNROLL for (int i = 0; i < N; i++) {
            uint64_t c1, c2, lo, mq;
            mul_add2(l[0], b.l[i], t[0], 0, lo, c1);
            mq = lo * P::INV;
            uint64_t discard;
            mul_add2(mq, m.v[0], lo, 0, discard, c2);
            CUZK_UNROLL for (int j = 1; j < N; j++) {
                mul_add2(l[j], b.l[i], t[j], c1, lo, c1);
                mul_add2(mq, m.v[j], lo, c2, t[j - 1], c2);
            }
            t[N - 1] = c1 + c2;
        }
        reduce_once_rare(t);
        Field r;
        CUZK_UNROLL for (int i = 0; i < N; i++) r.l[i] = t[i];
        return r;
    }
    CUZK_HD Field sqr() const { return *this * *this; }

    // x^e for a little-endian exponent of `words` words, left to right.
    CUZK_COLD Field pow(const uint64_t* e, int words) const {
        Field r = one();
        for (int w = words - 1; w >= 0; w--) {
            for (int bit = 63; bit >= 0; bit--) {
                r = r.sqr();
                if ((e[w] >> bit) & 1) r = r * *this;
            }
        }
        return r;
    }
    CUZK_HD Field pow_u64(uint64_t e) const { return pow(&e, 1); }

    // Inverse by Fermat's little theorem; the inverse of zero is zero.
    CUZK_COLD Field inv() const {
        const Limbs<N> e = P::modulus_minus_two();
        return pow(e.v, N);
    }

#if !defined(__CUDA_ARCH__)
    // The inverse (zero for zero) by the binary extended Euclidean algorithm, host only. Its time
    // depends on the value: it serves the CPU MSM's batched additions, whose bucket accesses
    // already depend on the scalars, and costs about half of inv()'s 380 products.
    //
    // On the integer A = x*R held here: u = A, v = p, x1*A = u, x2*A = v (mod p); subtract the
    // smaller of u, v from the larger and divide out its factors of two until one is 1. Dividing
    // x by 2^s mod p takes one step: x + m*p with m = -x/p mod 2^s is a multiple of 2^s. The
    // result A^-1 = x^-1 R^-1 becomes x^-1 R by a Montgomery product with R^3.
    Field inv_vartime() const {
        if (is_zero()) return zero();
        const Limbs<N> m = P::modulus();
        uint64_t u[N], v[N], x1[N], x2[N];
        for (int i = 0; i < N; i++) {
            u[i] = l[i];
            v[i] = m.v[i];
            x1[i] = 0;
            x2[i] = 0;
        }
        x1[0] = 1;
        reduce_once_rare(u);  // a stored value may be p itself (a lazy zero); no harm either way
        if (is_zero_words(u)) return zero();
        halve_out(u, x1, m);
        for (;;) {  // u and v are odd here
            if (is_one_words(u)) return finish(x1);
            if (is_one_words(v)) return finish(x2);
            if (geq_words(u, v)) {
                sub_words(u, v);
                sub_mod_words(x1, x2, m);
                halve_out(u, x1, m);
            } else {
                sub_words(v, u);
                sub_mod_words(x2, x1, m);
                halve_out(v, x2, m);
            }
        }
    }

private:
    static bool is_zero_words(const uint64_t* a) {
        uint64_t acc = 0;
        for (int i = 0; i < N; i++) acc |= a[i];
        return acc == 0;
    }
    static bool is_one_words(const uint64_t* a) {
        uint64_t acc = a[0] ^ 1;
        for (int i = 1; i < N; i++) acc |= a[i];
        return acc == 0;
    }
    static bool geq_words(const uint64_t* a, const uint64_t* b) {
        for (int i = N - 1; i >= 0; i--) {
            if (a[i] != b[i]) return a[i] > b[i];
        }
        return true;
    }
    static void sub_words(uint64_t* a, const uint64_t* b) {  // a -= b, a >= b
        uint64_t borrow = 0;
        for (int i = 0; i < N; i++) borrow = sub_borrow(a[i], b[i], borrow, a[i]);
    }
    static void sub_mod_words(uint64_t* a, const uint64_t* b, const Limbs<N>& m) {  // a = a - b mod p
        uint64_t borrow = 0;
        for (int i = 0; i < N; i++) borrow = sub_borrow(a[i], b[i], borrow, a[i]);
        if (borrow) {
            uint64_t c = 0;
            for (int i = 0; i < N; i++) c = add_carry(a[i], m.v[i], c, a[i]);
        }
    }
    // w /= 2^k and x = x / 2^k mod p, for the k trailing zero bits of w (w > 0).
    static void halve_out(uint64_t* w, uint64_t* x, const Limbs<N>& m) {
        int k = 0;
        while (w[k / 64] == 0) k += 64;
        k += __builtin_ctzll(w[k / 64]);
        if (k == 0) return;
        const int words = k / 64, bits = k % 64;
        for (int i = 0; i < N; i++) {
            const uint64_t lo = i + words < N ? w[i + words] : 0;
            const uint64_t hi = i + words + 1 < N ? w[i + words + 1] : 0;
            w[i] = bits ? (lo >> bits) | (hi << (64 - bits)) : lo;
        }
        while (k > 0) {
            const int s = k < 63 ? k : 63;
            const uint64_t q = (x[0] * P::INV) & ((uint64_t(1) << s) - 1);  // x + q*p = 0 mod 2^s
            uint64_t t[N + 1];
            unsigned __int128 acc = 0;
            for (int i = 0; i < N; i++) {
                acc += (unsigned __int128)q * m.v[i] + x[i];
                t[i] = (uint64_t)acc;
                acc >>= 64;
            }
            t[N] = (uint64_t)acc;
            for (int i = 0; i < N; i++) x[i] = (t[i] >> s) | (t[i + 1] << (64 - s));
            reduce_once_rare(x);  // below (2^s + 1) p / 2^s < 2p
            k -= s;
        }
    }
    static Field finish(const uint64_t* x) {
        static const Field r3 = from_limbs(P::r2()) * from_limbs(P::r2());  // R^4 / R
        Field r;
        for (int i = 0; i < N; i++) r.l[i] = x[i];
        return r * r3;
    }

public:
#endif

    CUZK_HD static Field to_mont(const Field& canonical) { return canonical * from_limbs(P::r2()); }
    CUZK_HD Field from_mont() const {
        Field o = zero();
        o.l[0] = 1;
        return *this * o;
    }
    // Small integer k (canonical) in Montgomery form.
    CUZK_HD static Field from_u64(uint64_t k) {
        Field c = zero();
        c.l[0] = k;
        return to_mont(c);
    }
};

// Fp2 = Fp[u] / (u^2 + 1): the non-residue is -1 for both BN254 and BLS12-381.
template <class F>
struct Field2 {
    using Base = F;
    static constexpr int BYTES = 2 * F::BYTES;
    F c0, c1;

    CUZK_HD static Field2 zero() { return {F::zero(), F::zero()}; }
    CUZK_HD static Field2 one() { return {F::one(), F::zero()}; }
    CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    CUZK_HD bool operator==(const Field2& o) const { return c0 == o.c0 && c1 == o.c1; }
    CUZK_HD bool operator!=(const Field2& o) const { return !(*this == o); }
    CUZK_HD Field2 operator+(const Field2& b) const { return {c0 + b.c0, c1 + b.c1}; }
    CUZK_HD Field2 operator-(const Field2& b) const { return {c0 - b.c0, c1 - b.c1}; }
    CUZK_HD Field2 operator-() const { return {-c0, -c1}; }
    CUZK_HD Field2 dbl() const { return {c0.dbl(), c1.dbl()}; }
    CUZK_HD Field2& operator+=(const Field2& b) { return *this = *this + b; }
    CUZK_HD Field2& operator-=(const Field2& b) { return *this = *this - b; }
    CUZK_HD Field2& operator*=(const Field2& b) { return *this = *this * b; }
    // Karatsuba: three base-field products.
    CUZK_HD Field2 operator*(const Field2& b) const {
        F v0 = c0 * b.c0;
        F v1 = c1 * b.c1;
        F s = (c0 + c1) * (b.c0 + b.c1);
        return {v0 - v1, s - v0 - v1};
    }
    CUZK_HD Field2 sqr() const {
        F a = (c0 + c1) * (c0 - c1);
        F b = c0 * c1;
        return {a, b.dbl()};
    }
    CUZK_HD Field2 mul_base(const F& k) const { return {c0 * k, c1 * k}; }
    CUZK_COLD Field2 inv() const {
        F norm = c0.sqr() + c1.sqr();
        F ni = norm.inv();
        return {c0 * ni, -(c1 * ni)};
    }
#if !defined(__CUDA_ARCH__)
    Field2 inv_vartime() const {  // as inv(), with the base field's variable-time inversion
        F norm = c0.sqr() + c1.sqr();
        F ni = norm.inv_vartime();
        return {c0 * ni, -(c1 * ni)};
    }
#endif
};

using bn254_fp = Field<bn254_fp_params>;
using bn254_fr = Field<bn254_fr_params>;
using bn254_fp2 = Field2<bn254_fp>;
using bls12_381_fp = Field<bls12_381_fp_params>;
using bls12_381_fr = Field<bls12_381_fr_params>;
using bls12_381_fp2 = Field2<bls12_381_fp>;

CUZK_NS_END
