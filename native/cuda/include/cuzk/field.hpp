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
};

using bn254_fp = Field<bn254_fp_params>;
using bn254_fr = Field<bn254_fr_params>;
using bn254_fp2 = Field2<bn254_fp>;
using bls12_381_fp = Field<bls12_381_fp_params>;
using bls12_381_fr = Field<bls12_381_fr_params>;
using bls12_381_fp2 = Field2<bls12_381_fp>;

CUZK_NS_END
