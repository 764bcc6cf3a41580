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
#include "cuzk/mont32.hpp"

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
#if defined(CUZK_X86_CARRY)
        // CMOV: GCC makes the masks below into vector shuffles, and a plain ?: into a branch
        CUZK_UNROLL for (int i = 0; i < N; i++) {
            uint64_t v = t[i];
            __asm__("testq %[b], %[b]\n\tcmovnzq %[a], %[v]" : [v] "+r"(v) : [a] "rm"(a[i]), [b] "r"(borrow) : "cc");
            a[i] = v;
        }
#else
        const uint64_t keep = 0 - borrow;  // all ones when a < p
        CUZK_UNROLL for (int i = 0; i < N; i++) a[i] = (a[i] & keep) | (t[i] & ~keep);
#endif
    }

    CUZK_HD Field operator+(const Field& b) const {
        Field r;
        uint64_t c = 0;
        // The moduli leave a spare top bit, so a + b < 2p < 2^(64N) never carries out.
        CUZK_UNROLL for (int i = 0; i < N; i++) c = add_carry(l[i], b.l[i], c, r.l[i]);
        reduce_once(r.l);
        return r;
    }
    // a + b without the final reduction: below 2p for a, b <= p. Only as a factor of a product:
    // the Montgomery product of two factors below 2p is still below 2p before its own reduction,
    // because 4p < R for every modulus here (two spare top bits).
    CUZK_HD Field add_unreduced(const Field& b) const {
        Field r;
        uint64_t c = 0;
        CUZK_UNROLL for (int i = 0; i < N; i++) c = add_carry(l[i], b.l[i], c, r.l[i]);
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
#if defined(__CUDA_ARCH__) || defined(CUZK_DEVICE_MODEL)
        // the GPU's form (mont32.hpp): PTX on the device, its host model in the emulation's build
        {
            const Limbs<N> m = P::modulus();
            Field r;
#if defined(__CUDA_ARCH__)
            mont32::mont_mul_limbs<N, mont32::Ptx>(r.l, l, b.l, m.v, P::INV);
#else
            mont32::mont_mul_limbs<N, mont32::Model>(r.l, l, b.l, m.v, P::INV);
#endif
            return r;
        }
#else
#if defined(CUZK_MUL_ADX)
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
#endif
    }
    CUZK_HD Field sqr() const { return *this * *this; }

#if defined(CUZK_MUL_ADX) && !defined(__CUDA_ARCH__) && !defined(CUZK_DEVICE_MODEL)
    // The Montgomery product's two halves, for products whose sums are reduced once (Field2's
    // lazily reduced product), on 4 and 6 limbs: w = a*b on 2N words (factors below 2^(64N))...
    __attribute__((always_inline)) static void mul_wide(uint64_t* w, const Field& a, const Field& b) {
        static_assert(N == 4 || N == 6);
        if constexpr (N == 4) x86::mul_wide_adx_4(w, a.l, b.l);
        else x86::mul_wide_adx_6(w, a.l, b.l);
    }
    // ...and w R^-1 mod p, below 2p, for a 2N-word w < p R (reduce_once_rare after it: a caller
    // with two reductions does both before either subtraction, which keeps them independent).
    __attribute__((always_inline)) static Field redc_wide(const uint64_t* w) {
        static_assert(N == 4 || N == 6);
        static constexpr Limbs<N> M = P::modulus();
        Field r;
        if constexpr (N == 4) x86::redc_adx_4(r.l, w, M.v, P::INV);
        else x86::redc_adx_6(r.l, w, M.v, P::INV);
        return r;
    }
#endif

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
    // The inverse (zero for zero), host only, in time that depends on the value: it serves the CPU
    // MSM's batched additions, whose bucket accesses already depend on the scalars, and the
    // pairing's affine steps. About a fifth of inv()'s time (its 380 products): 1.5 us for
    // BN254's Fp here, 2.5 us for BLS12-381's.
    //
    // Bernstein and Yang's divsteps ("Fast constant-time gcd computation and modular inversion",
    // 2019) on the integer A = x*R held here: f = p, g = A, and d, e with f = d*A, g = e*A (mod p).
    // Each round does 62 divsteps on the low words of f and g alone, collecting them in a matrix
    // T (entries at most 2^62) with T*(f, g) = 2^62 * (f', g'); the matrix is then applied to the
    // full f, g (exactly) and to d, e (mod p, adding the multiple of p that makes the division by
    // 2^62 exact). When g reaches 0, f = +-1 and A^-1 = +-d. The numbers are held in signed limbs
    // of 62 bits (the top one carries the sign), so that a limb times a matrix entry fits in 128.
    // A^-1 = x^-1 R^-1 becomes x^-1 R by a Montgomery product with R^3. Kept out of line: inlined,
    // its size changed what GCC inlined elsewhere in a unit (a C++ harness's BN254 pairings came
    // out 11 % slower).
    __attribute__((noinline)) Field inv_vartime() const {
        uint64_t a[N];
        for (int i = 0; i < N; i++) a[i] = l[i];
        reduce_once_rare(a);  // a stored value may be p itself (a lazy zero)
        uint64_t nonzero = 0;
        for (int i = 0; i < N; i++) nonzero |= a[i];
        if (!nonzero) return zero();
        const Limbs<N> m = P::modulus();
        int64_t f[S], g[S], d[S] = {}, e[S] = {}, mod[S];
        to_s62(m.v, mod);
        to_s62(m.v, f);
        to_s62(a, g);
        e[0] = 1;
        int64_t delta = 1;
        for (;;) {
            int64_t u, v, q, r;
            delta = divsteps62(delta, (uint64_t)f[0] | ((uint64_t)f[1] << 62), (uint64_t)g[0] | ((uint64_t)g[1] << 62), u, v, q, r);
            apply<true>(d, e, mod, u, v, q, r);
            apply<false>(f, g, nullptr, u, v, q, r);
            bool g_zero = true;
            for (int j = 0; j < S; j++) g_zero &= g[j] == 0;
            if (g_zero) break;
        }
        if (f[S - 1] < 0) negate_s62(d);  // f = -1
        while (d[S - 1] < 0) add_s62(d, mod, 1);
        while (!less_s62(d, mod)) add_s62(d, mod, -1);
        uint64_t w[N];
        from_s62(d, w);
        static const Field r3 = from_limbs(P::r2()) * from_limbs(P::r2());  // R^4 / R
        Field res;
        for (int i = 0; i < N; i++) res.l[i] = w[i];
        return res * r3;
    }

private:
    // 62-bit limbs for 64N-bit values, with room for d and e, which grow by at most p per round.
    static constexpr int S = (64 * N + 63) / 62;
    static constexpr int64_t MASK62 = (int64_t(1) << 62) - 1;

    static void to_s62(const uint64_t* w, int64_t* out) {  // 0 <= value < 2^(64N)
        for (int j = 0; j < S; j++) {
            const int bit = 62 * j, word = bit / 64, off = bit % 64;
            uint64_t v = word < N ? w[word] >> off : 0;
            if (off > 2 && word + 1 < N) v |= w[word + 1] << (64 - off);
            out[j] = (int64_t)(v & (uint64_t)MASK62);
        }
    }
    static void from_s62(const int64_t* x, uint64_t* w) {  // 0 <= value < 2^(64N)
        unsigned __int128 acc = 0;
        int bits = 0, j = 0;
        for (int i = 0; i < N; i++) {
            while (bits < 64 && j < S) {
                acc |= (unsigned __int128)(uint64_t)x[j++] << bits;
                bits += 62;
            }
            w[i] = (uint64_t)acc;
            acc >>= 64;
            bits -= 64;
        }
    }
    static void carry_s62(int64_t* x) {  // limbs below the top back into [0, 2^62)
        for (int j = 0; j < S - 1; j++) {
            x[j + 1] += x[j] >> 62;
            x[j] &= MASK62;
        }
    }
    static void add_s62(int64_t* x, const int64_t* y, int64_t sign) {
        for (int j = 0; j < S; j++) x[j] += sign * y[j];
        carry_s62(x);
    }
    static void negate_s62(int64_t* x) {
        for (int j = 0; j < S; j++) x[j] = -x[j];
        carry_s62(x);
    }
    static bool less_s62(const int64_t* x, const int64_t* y) {  // both normalized
        for (int j = S - 1; j >= 0; j--) {
            if (x[j] != y[j]) return x[j] < y[j];
        }
        return false;
    }

    // 62 divsteps on the low 64 bits of f (odd) and g; returns the new delta. The matrix (u v; q r)
    // maps the starting (f, g) to 2^62 times the final ones: each halving of g doubles the f row.
    // Several divsteps at a time, branch by branch as the steps would go: g's trailing zeros
    // together (halvings); an odd g with delta > 0 swaps to (g, -f) and negates delta, so that the
    // step's (g - f)/2 becomes the other case's (g + f)/2; and while delta stays at most 0 the next
    // k steps add f or not and halve, together g + w f with the one w < 2^k that clears g's low k
    // bits (w = -g/f mod 2^k), for k up to min(1 - delta, 6, the steps left). The same steps as one
    // at a time, so the same matrix and delta, in about a quarter of the branches.
    static int64_t divsteps62(int64_t delta, uint64_t f, uint64_t g, int64_t& u_out, int64_t& v_out, int64_t& q_out,
                              int64_t& r_out) {
        uint64_t u = 1, v = 0, q = 0, r = 1;  // modulo 2^64: the true entries fit in 63 bits
        int left = 62;
        for (;;) {
            // the trailing zeros, at most `left` (the mask's bit at `left` stops the count there)
            const int z = __builtin_ctzll(g | (~uint64_t(0) << left));
            g >>= z;
            u <<= z;
            v <<= z;
            delta += z;
            left -= z;
            if (left == 0) break;
            if (delta > 0) {  // (f, g) <- (g, -f), delta <- -delta: the next step adds instead
                const uint64_t f0 = f, u0 = u, v0 = v;
                f = g;
                u = q;
                v = r;
                g = 0 - f0;
                q = 0 - u0;
                r = 0 - v0;
                delta = -delta;
            }
            // g odd, delta <= 0: k steps at once, k = min(1 - delta, left, 6)
            int k = (int)(1 - delta) < left ? (int)(1 - delta) : left;
            if (k > 6) k = 6;
            const uint64_t mask = (~uint64_t(0)) >> (64 - k);
            const uint64_t finv = f * (2 - f * f);  // 1/f mod 2^6 (f f = 1 mod 8 for odd f; one Newton step)
            const uint64_t w = (0 - g * finv) & mask;
            g += w * f;
            q += w * u;
            r += w * v;
        }
        u_out = (int64_t)u;
        v_out = (int64_t)v;
        q_out = (int64_t)q;
        r_out = (int64_t)r;
        return delta;
    }

    // (x, y) <- ((u x + v y + mx p) / 2^62, (q x + r y + my p) / 2^62), exactly. For f and g
    // (MOD false) the matrix alone makes the division exact; for d and e (MOD true) mx and my are
    // the multiples of p that do, chosen from the low limbs.
    template <bool MOD>
    static void apply(int64_t* x, int64_t* y, const int64_t* p, int64_t u, int64_t v, int64_t q, int64_t r) {
        int64_t mx = 0, my = 0;
        if constexpr (MOD) {
            const uint64_t pinv = P::INV;  // -p^-1 mod 2^64
            const uint64_t low_x = (uint64_t)u * (uint64_t)x[0] + (uint64_t)v * (uint64_t)y[0];
            const uint64_t low_y = (uint64_t)q * (uint64_t)x[0] + (uint64_t)r * (uint64_t)y[0];
            mx = (int64_t)((low_x * pinv) & (uint64_t)MASK62);
            my = (int64_t)((low_y * pinv) & (uint64_t)MASK62);
        }
        __int128 cx = 0, cy = 0;
        for (int j = 0; j < S; j++) {
            cx += (__int128)u * x[j] + (__int128)v * y[j];
            cy += (__int128)q * x[j] + (__int128)r * y[j];
            if constexpr (MOD) {
                cx += (__int128)mx * p[j];
                cy += (__int128)my * p[j];
            }
            if (j > 0) {
                x[j - 1] = (int64_t)cx & MASK62;
                y[j - 1] = (int64_t)cy & MASK62;
            }
            cx >>= 62;  // the low 62 bits of limb 0's sum are zero
            cy >>= 62;
        }
        x[S - 1] = (int64_t)cx;
        y[S - 1] = (int64_t)cy;
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
    // Karatsuba: three base-field products. With MULX/ADX on the host (4 and 6 limbs) the
    // reduction is lazy: the three whole products, c0 = a0 b0 - a1 b1 and c1 = (a0 + a1)(b0 + b1)
    // - a0 b0 - a1 b1 formed on 2N words, and two Montgomery reductions instead of three.
    CUZK_HD Field2 operator*(const Field2& b) const {
#if defined(CUZK_MUL_ADX) && !defined(__CUDA_ARCH__) && !defined(CUZK_DEVICE_MODEL)
        if constexpr (F::N == 4 || F::N == 6) return mul_lazy(b);
#endif
        F v0 = c0 * b.c0;
        F v1 = c1 * b.c1;
        F s = c0.add_unreduced(c1) * b.c0.add_unreduced(b.c1);
        return {v0 - v1, s - v0 - v1};
    }
#if defined(CUZK_MUL_ADX) && !defined(__CUDA_ARCH__) && !defined(CUZK_DEVICE_MODEL)
    // Every coefficient at most p (a stored value may be p, a lazy zero), so each whole product is
    // at most p^2, (a0 + a1)(b0 + b1) at most 4p^2, and both differences below p R (4p < R here):
    // each reduction's result is below 2p, then brought below p.
    Field2 mul_lazy(const Field2& b) const {
        constexpr int N = F::N;
        uint64_t w0[2 * N], w1[2 * N], w2[2 * N];
        F::mul_wide(w0, c0, b.c0);
        F::mul_wide(w1, c1, b.c1);
        F::mul_wide(w2, c0.add_unreduced(c1), b.c0.add_unreduced(b.c1));
        // w2 = a0 b1 + a1 b0 exactly (no borrow out): w2 - w0 - w1
        uint64_t borrow = 0;
        CUZK_UNROLL for (int i = 0; i < 2 * N; i++) borrow = sub_borrow(w2[i], w0[i], borrow, w2[i]);
        borrow = 0;
        CUZK_UNROLL for (int i = 0; i < 2 * N; i++) borrow = sub_borrow(w2[i], w1[i], borrow, w2[i]);
        // w0 = a0 b0 - a1 b1, plus p R when that is negative (a multiple of p: the same residue)
        borrow = 0;
        CUZK_UNROLL for (int i = 0; i < 2 * N; i++) borrow = sub_borrow(w0[i], w1[i], borrow, w0[i]);
        static constexpr Limbs<N> M = F::Params::modulus();
        const uint64_t mask = 0 - borrow;
        uint64_t c = 0;
        CUZK_UNROLL for (int i = 0; i < N; i++) c = add_carry(w0[N + i], M.v[i] & mask, c, w0[N + i]);
        Field2 r{F::redc_wide(w0), F::redc_wide(w2)};
        F::reduce_once_rare(r.c0.l);
        F::reduce_once_rare(r.c1.l);
        return r;
    }
#endif
    CUZK_HD Field2 sqr() const {
        F a = c0.add_unreduced(c1) * (c0 - c1);
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
