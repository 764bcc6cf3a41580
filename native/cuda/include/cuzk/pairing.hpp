// Optimal ate pairings of BN254 and BLS12-381, on the field and curve templates of field.hpp and
// curve.hpp (host only: verification runs on the CPU).
//
// The tower is the one both curves' specifications and the reference libraries use:
//   Fp6  = Fp2[v] / (v^3 - xi)     xi = 9 + u (BN254), 1 + u (BLS12-381)
//   Fp12 = Fp6[w] / (w^2 - v)
// G2 points live on the sextic twist E'(Fp2): a D-type twist for BN254 (y^2 = x^3 + 3/xi), an
// M-type twist for BLS12-381 (y^2 = x^3 + 4 xi). The Miller loop keeps the running G2 point in
// homogeneous projective coordinates and evaluates each line at P as a sparse Fp12 element (three
// Fp2 coefficients), so a step costs no inversion; n pairs share one Miller loop (one squaring of
// f per step for all of them) and one final exponentiation. From 8 pairs on (a batch
// verification), their running points are affine instead, each step's slopes sharing one
// inversion (in Fp, of their norms); those lines, and the lines prepared for fixed G2 points, are
// normalized (divided by the coefficient that then becomes one), which saves three of a line
// product's thirteen Fp2 products, and each affine pair runs on a copy of the twist scaled by its
// G1 point (affine_loop), so that its normalized line needs one product by Fp instead of two.
// On the x86-ifma path those affine pairs run eight at a time, one a 64-bit lane of AVX-512 IFMA
// vectors (src/pairing/lanes_loop.hpp), with the same value.
//
// The final exponentiation raises to (p^12 - 1)/r: the easy part (p^6 - 1)(p^2 + 1) with one
// inversion and Frobenius maps, the hard part (p^4 - p^2 + 1)/r with cyclotomic squarings
// (Granger and Scott) in exponentiations by the curve's parameter. Both hard parts raise to a fixed
// multiple of (p^4 - p^2 + 1)/r, coprime to r, so a product of pairings is one exactly when the
// exact one is, which is what verification asks, and the values are those of snarkjs
// (vk_alphabeta_12), ffjavascript and @noble/curves: for BN254 the chain of Fuentes-Castaneda et
// al. (the pairing to the power 2u(6u^2 + 3u + 1)), for BLS12-381
// 3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3 (Hayashida, Hayasaka and Teruya: the
// pairing cubed, as blst and gnark compute it).
#pragma once
#include <cstddef>
#include <vector>

#include "cuzk/curve.hpp"

CUZK_NS_BEGIN

// ---- the tower --------------------------------------------------------------------------------

template <class T>
struct Field6 {
    using F2 = typename T::F2;
    F2 c0, c1, c2;

    static Field6 zero() { return {F2::zero(), F2::zero(), F2::zero()}; }
    static Field6 one() { return {F2::one(), F2::zero(), F2::zero()}; }
    bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
    bool operator==(const Field6& o) const { return c0 == o.c0 && c1 == o.c1 && c2 == o.c2; }
    Field6 operator+(const Field6& b) const { return {c0 + b.c0, c1 + b.c1, c2 + b.c2}; }
    Field6 operator-(const Field6& b) const { return {c0 - b.c0, c1 - b.c1, c2 - b.c2}; }
    Field6 operator-() const { return {-c0, -c1, -c2}; }
    Field6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

    // Karatsuba over the three coefficients: six Fp2 products.
    Field6 operator*(const Field6& b) const {
        F2 v0 = c0 * b.c0, v1 = c1 * b.c1, v2 = c2 * b.c2;
        F2 r0 = T::mul_xi((c1 + c2) * (b.c1 + b.c2) - v1 - v2) + v0;
        F2 r1 = (c0 + c1) * (b.c0 + b.c1) - v0 - v1 + T::mul_xi(v2);
        F2 r2 = (c0 + c2) * (b.c0 + b.c2) - v0 - v2 + v1;
        return {r0, r1, r2};
    }
    // Chung and Hasan's squaring (SQR2): two squarings and three products of Fp2.
    Field6 sqr() const {
        F2 s0 = c0.sqr();
        F2 ab = c0 * c1;
        F2 s1 = ab.dbl();
        F2 s2 = (c0 - c1 + c2).sqr();
        F2 bc = c1 * c2;
        F2 s3 = bc.dbl();
        F2 s4 = c2.sqr();
        return {T::mul_xi(s3) + s0, T::mul_xi(s4) + s1, s1 + s2 + s3 - s0 - s4};
    }
    // times v: (c0, c1, c2) v = (xi c2, c0, c1)
    Field6 mul_v() const { return {T::mul_xi(c2), c0, c1}; }
    // times (b0 + b1 v): five Fp2 products
    Field6 mul_01(const F2& b0, const F2& b1) const { return mul_01(b0, b1, b0 + b1); }
    // the same with b01 = b0 + b1 given: a line's two products with f's halves share it
    Field6 mul_01(const F2& b0, const F2& b1, const F2& b01) const {
        F2 aa = c0 * b0, bb = c1 * b1;
        F2 t0 = T::mul_xi((c1 + c2) * b1 - bb) + aa;
        F2 t1 = b01 * (c0 + c1) - aa - bb;
        F2 t2 = (c0 + c2) * b0 - aa + bb;
        return {t0, t1, t2};
    }
    // times b1 v: three Fp2 products
    Field6 mul_1(const F2& b1) const { return {T::mul_xi(c2 * b1), c0 * b1, c1 * b1}; }
    Field6 mul_fp2(const F2& k) const { return {c0 * k, c1 * k, c2 * k}; }
    Field6 inv() const {
        F2 t0 = c0.sqr() - T::mul_xi(c1 * c2);
        F2 t1 = T::mul_xi(c2.sqr()) - c0 * c1;
        F2 t2 = c1.sqr() - c0 * c2;
        F2 d = c0 * t0 + T::mul_xi(c2 * t1 + c1 * t2);
        F2 di = d.inv_vartime();
        return {t0 * di, t1 * di, t2 * di};
    }
};

template <class T>
struct Field12 {
    using F2 = typename T::F2;
    using F6 = Field6<T>;
    F6 c0, c1;

    static Field12 one() { return {F6::one(), F6::zero()}; }
    bool operator==(const Field12& o) const { return c0 == o.c0 && c1 == o.c1; }
    bool is_one() const { return *this == one(); }
    Field12 operator*(const Field12& b) const {
        F6 aa = c0 * b.c0, bb = c1 * b.c1;
        return {aa + bb.mul_v(), (c0 + c1) * (b.c0 + b.c1) - aa - bb};
    }
    Field12& operator*=(const Field12& b) { return *this = *this * b; }
    // complex squaring: two Fp6 products
    Field12 sqr() const {
        F6 ab = c0 * c1;
        F6 t = (c0 + c1) * (c0 + c1.mul_v()) - ab - ab.mul_v();
        return {t, ab.dbl()};
    }
    Field12 conj() const { return {c0, -c1}; }
    Field12 inv() const {
        F6 t = (c0.sqr() - c1.sqr().mul_v()).inv();
        return {c0 * t, -(c1 * t)};
    }

    // times the sparse (a0 + a1 v) + (a4 v) w: the line of an M-type twist
    Field12 mul_014(const F2& a0, const F2& a1, const F2& a4) const {
        F6 aa = c0.mul_01(a0, a1);
        F6 bb = c1.mul_1(a4);
        F6 s = (c1 + c0).mul_01(a0, a1 + a4) - aa - bb;
        return {bb.mul_v() + aa, s};
    }
    // times the sparse a0 + (a3 + a4 v) w: the line of a D-type twist
    Field12 mul_034(const F2& a0, const F2& a3, const F2& a4) const {
        F6 aa = c0.mul_fp2(a0);
        F6 bb = c1.mul_01(a3, a4);
        F6 s = (c0 + c1).mul_01(a0 + a3, a4) - aa - bb;
        return {bb.mul_v() + aa, s};
    }

    // times A + v w, A = a0 + a1 v: an M-type twist's line divided by its w coefficient (mul_014
    // with a4 = 1): ten Fp2 products instead of thirteen. Directly, (c0 + c1 w)(A + v w) =
    // (c0 A + c1 v^2) + (c1 A + c0 v) w, which needs fewer additions than Karatsuba's form (whose
    // middle product saves nothing here: the v w factor costs no product).
    Field12 mul_01_v(const F2& a0, const F2& a1) const {
        const F2 a01 = a0 + a1;
        return {c0.mul_01(a0, a1, a01) + c1.mul_v().mul_v(), c1.mul_01(a0, a1, a01) + c0.mul_v()};
    }
    // times 1 + B w, B = a3 + a4 v: a D-type twist's line divided by its constant (mul_034 with
    // a0 = 1): (c0 + c1 w)(1 + B w) = (c0 + c1 B v) + (c0 B + c1) w, ten Fp2 products
    Field12 mul_1_34(const F2& a3, const F2& a4) const {
        const F2 a34 = a3 + a4;
        return {c1.mul_01(a3, a4, a34).mul_v() + c0, c0.mul_01(a3, a4, a34) + c1};
    }

    // x^(p^k) for k = 1, 2, 3: the coefficient of v^j w^i is conjugated for odd k and scaled by
    // xi^((2j + i)(p^k - 1)/6).
    Field12 frobenius(int k) const {
        const auto& g = T::gammas();
        const F2* c = g.g[k - 1];
        auto f = [&](const F2& x, int e) {
            F2 y = (k & 1) ? F2{x.c0, -x.c1} : x;
            return e == 0 ? y : y * c[e];
        };
        return {{f(c0.c0, 0), f(c0.c1, 2), f(c0.c2, 4)}, {f(c1.c0, 1), f(c1.c1, 3), f(c1.c2, 5)}};
    }

    // Granger and Scott's squaring in the cyclotomic subgroup (after the easy part): the element
    // as three Fp4 pairs (c0.c0, c1.c1), (c1.c0, c0.c2), (c0.c1, c1.c2); six Fp2 squarings.
    Field12 cyclotomic_sqr() const {
        auto fp4_sqr = [](const F2& a, const F2& b, F2& r0, F2& r1) {
            F2 t0 = a.sqr(), t1 = b.sqr();
            r0 = T::mul_xi(t1) + t0;
            r1 = (a + b).sqr() - t0 - t1;
        };
        F2 z0 = c0.c0, z4 = c0.c1, z3 = c0.c2, z2 = c1.c0, z1 = c1.c1, z5 = c1.c2;
        F2 t0, t1, t2, t3;
        fp4_sqr(z0, z1, t0, t1);
        // z0 = 3 t0 - 2 z0, z1 = 3 t1 + 2 z1
        z0 = (t0 - z0).dbl() + t0;
        z1 = (t1 + z1).dbl() + t1;
        fp4_sqr(z2, z3, t0, t1);
        fp4_sqr(z4, z5, t2, t3);
        // z4 = 3 t0 - 2 z4, z5 = 3 t1 + 2 z5
        z4 = (t0 - z4).dbl() + t0;
        z5 = (t1 + z5).dbl() + t1;
        // z2 = 3 xi t3 + 2 z2, z3 = 3 t2 - 2 z3
        t0 = T::mul_xi(t3);
        z2 = (t0 + z2).dbl() + t0;
        z3 = (t2 - z3).dbl() + t2;
        return {{z0, z4, z3}, {z2, z1, z5}};
    }
    // x^e in the cyclotomic subgroup for a fixed e of many set bits, in the window-4 signed form
    // (digits 0 and odd +-1..7, at most one nonzero in four; a negative digit multiplies by the
    // conjugate, which is the inverse there): BN254's u, 28 set bits, costs 3 + 13 products
    // instead of 27.
    template <uint64_t E>
    Field12 cyclotomic_pow_w4() const {
        struct Digits {
            int8_t d[66] = {};
            int len = 0;
            constexpr Digits() {
                uint64_t v[1] = {E};
                len = signed_digits_w4(v, d);
            }
        };
        static_assert(E != 0 && E < (uint64_t(1) << 63), "a nonzero exponent below 2^63");
        static constexpr Digits w{};
        const Field12 sq = cyclotomic_sqr();
        Field12 odd[4] = {*this, Field12{}, Field12{}, Field12{}};  // x, x^3, x^5, x^7
        for (int i = 1; i < 4; i++) odd[i] = odd[i - 1] * sq;
        auto times = [&](const Field12& r, int digit) { return digit > 0 ? r * odd[digit >> 1] : r * odd[(-digit) >> 1].conj(); };
        const int top = w.d[w.len - 1];  // positive
        Field12 r = odd[top >> 1];
        for (int i = w.len - 2; i >= 0; i--) {
            r = r.cyclotomic_sqr();
            if (w.d[i] != 0) r = times(r, w.d[i]);
        }
        return r;
    }

    // x^e in the cyclotomic subgroup, for a 64-bit e, from the top bit down
    Field12 cyclotomic_pow(uint64_t e) const {
        Field12 r = one();
        bool started = false;
        for (int bit = 63; bit >= 0; bit--) {
            if (started) r = r.cyclotomic_sqr();
            if ((e >> bit) & 1) {
                r = started ? r * *this : *this;
                started = true;
            }
        }
        return r;
    }
};

// ---- the curves' pairing parameters -------------------------------------------------------

// Frobenius coefficients xi^(k (p^j - 1)/6), k = 0..5, j = 1..3, from xi and p at first use.
template <class F2, class Fp>
struct Gammas {
    F2 g[3][6];
    explicit Gammas(const F2& xi) {
        // (p - 1) / 6: p = 1 mod 6 for both curves
        const auto m = Fp::Params::modulus();
        constexpr int N = Fp::N;
        uint64_t e[N];
        unsigned __int128 rem = 0;
        for (int i = N - 1; i >= 0; i--) {
            unsigned __int128 cur = (rem << 64) | (i == 0 ? m.v[0] - 1 : m.v[i]);
            e[i] = (uint64_t)(cur / 6);
            rem = cur % 6;
        }
        F2 base = F2::one();  // xi^((p-1)/6), left to right
        for (int w = N - 1; w >= 0; w--) {
            for (int bit = 63; bit >= 0; bit--) {
                base = base.sqr();
                if ((e[w] >> bit) & 1) base = base * xi;
            }
        }
        g[0][0] = F2::one();
        for (int k = 1; k < 6; k++) g[0][k] = g[0][k - 1] * base;
        for (int k = 0; k < 6; k++) {
            F2 c{g[0][k].c0, -g[0][k].c1};  // its p-th power
            g[1][k] = g[0][k] * c;           // xi^(k(p^2-1)/6) = gamma * gamma^p
            g[2][k] = g[1][k] * g[0][k];     // xi^(k(p^3-1)/6) = gamma * gamma^p * gamma^(p^2), gamma^(p^2) = gamma
        }
    }
};

struct bn254_tower {
    using Fp = bn254_fp;
    using F2 = bn254_fp2;
    using G1 = bn254_g1;
    using G2 = bn254_g2;
    static constexpr bool M_TWIST = false;
    static F2 mul_xi(const F2& a) {  // (9 + u) a
        F2 a8 = a.dbl().dbl().dbl();
        return {a8.c0 + a.c0 - a.c1, a8.c1 + a.c1 + a.c0};
    }
    static const Gammas<F2, Fp>& gammas() {
        static const Gammas<F2, Fp> g(F2{Fp::from_u64(9), Fp::one()});
        return g;
    }
    static F2 mul_3b(const F2& a) {  // 3 b' a, b' = 3 / xi: one product
        static const F2 k = [] {
            const F2 b = G2::b();
            return b.dbl() + b;
        }();
        return k * a;
    }
};

struct bls12_381_tower {
    using Fp = bls12_381_fp;
    using F2 = bls12_381_fp2;
    using G1 = bls12_381_g1;
    using G2 = bls12_381_g2;
    static constexpr bool M_TWIST = true;
    static constexpr uint64_t X_ABS = 0xd201000000010000ull;  // x = -X_ABS
    static F2 mul_xi(const F2& a) { return {a.c0 - a.c1, a.c0 + a.c1}; }  // (1 + u) a
    static const Gammas<F2, Fp>& gammas() {
        static const Gammas<F2, Fp> g(F2{Fp::one(), Fp::one()});
        return g;
    }
    static F2 mul_3b(const F2& a) {  // 3 b' a, b' = 4 (1 + u): 12 xi a, by additions
        const F2 m = mul_xi(a);
        return (m.dbl() + m).dbl().dbl();
    }
};

// ---- the Miller loop -----------------------------------------------------------------------

template <class T>
struct LanesLoop;  // the x86-ifma path's batch loop: pairing/lanes_loop.hpp

template <class T>
struct Pairing {
    using Fp = typename T::Fp;
    using F2 = typename T::F2;
    using F12 = Field12<T>;
    using G1A = Affine<typename T::G1>;
    using G2A = Affine<typename T::G2>;

    struct Proj {  // homogeneous projective: x = X/Z, y = Y/Z
        F2 x, y, z;
    };
    struct Line {  // three Fp2 coefficients before scaling by P
        F2 a, b, c;
    };

    // The tangent at R (doubled in place), with Costello, Lange and Naehrig's formulas, the new
    // point scaled by 4 (the same projective point) so that no coordinate is halved:
    // X' = 2XY(b - f), Y' = (b + f)^2 - 12 e^2, Z' = 4 b h.
    static Line doubling(Proj& r) {
        F2 a = r.x * r.y;
        F2 b = r.y.sqr();
        F2 c = r.z.sqr();
        F2 e = T::mul_3b(c);
        F2 f = e.dbl() + e;
        F2 h = (r.y + r.z).sqr() - (b + c);
        F2 i = e - b;
        F2 j = r.x.sqr();
        F2 e2 = e.sqr();
        r.x = (a * (b - f)).dbl();
        r.y = (b + f).sqr() - (e2.dbl() + e2).dbl().dbl();
        r.z = (b * h).dbl().dbl();
        return T::M_TWIST ? Line{i, j.dbl() + j, -h} : Line{-h, j.dbl() + j, i};
    }

    // The line through R and Q (R <- R + Q).
    static Line addition(Proj& r, const G2A& q) {
        F2 theta = r.y - q.y * r.z;
        F2 lambda = r.x - q.x * r.z;
        F2 c = theta.sqr();
        F2 d = lambda.sqr();
        F2 e = lambda * d;
        F2 f = r.z * c;
        F2 g = r.x * d;
        F2 h = e + f - g.dbl();
        r.x = lambda * h;
        r.y = theta * (g - h) - e * r.y;
        r.z = r.z * e;
        F2 j = theta * q.x - lambda * q.y;
        return T::M_TWIST ? Line{j, -theta, lambda} : Line{lambda, -theta, j};
    }

    static void ell(F12& f, const Line& l, const G1A& p) {
        if constexpr (T::M_TWIST) {
            f = f.mul_014(l.a, l.b.mul_base(p.x), l.c.mul_base(p.y));
        } else {
            f = f.mul_034(l.a.mul_base(p.y), l.b.mul_base(p.x), l.c);
        }
    }

    // The Frobenius endomorphism on the twist: (x^p * xi^((p-1)/3), y^p * xi^((p-1)/2)).
    static G2A frobenius_twist(const G2A& q) {
        const auto& g = T::gammas();
        return {F2{q.x.c0, -q.x.c1} * g.g[0][2], F2{q.y.c0, -q.y.c1} * g.g[0][3]};
    }

    // BN254's loop count 6u + 2 in signed binary (its NAF), least significant digit first.
    static constexpr int8_t NAF[] = {0, 0, 0, 1, 0, 1, 0, -1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, -1, 0, 0, 0, 1, 0, -1, 0,
                                     0, 0, 0, -1, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, -1, 0, 0, -1, 0, 1, 0, -1, 0, 0,
                                     0, -1, 0, -1, 0, 0, 0, 1, 0, -1, 0, 1};
    static constexpr int NAF_LEN = sizeof(NAF);

    // The loop's schedule, the same for every pair: square() before each doubling step but the
    // first, line(kind) for each line of a pair, kind 0 the tangent (doubling), +1 / -1 the line
    // through Q / -Q, 2 through pi(Q), 3 through -pi^2(Q) (BN254's last two).
    template <class Square, class LineOf>
    static void schedule(Square&& square, LineOf&& line) {
        if constexpr (T::M_TWIST) {
            // BLS12-381: the bits of |x| below the top one; x < 0 conjugates f at the end
            for (int bit = 62; bit >= 0; bit--) {
                if (bit != 62) square();
                line(0);
                if ((T::X_ABS >> bit) & 1) line(1);
            }
        } else {
            for (int i = NAF_LEN - 2; i >= 0; i--) {
                if (i != NAF_LEN - 2) square();
                line(0);
                if (NAF[i] != 0) line(NAF[i]);
            }
            line(2);
            line(3);
        }
    }

    // The number of lines in one pair's loop: what prepare() writes for a G2 point.
    static constexpr int line_count() {
        int n = 0;
        if constexpr (T::M_TWIST) {
            for (int bit = 62; bit >= 0; bit--) n += 1 + (int)((T::X_ABS >> bit) & 1);
        } else {
            for (int i = NAF_LEN - 2; i >= 0; i--) n += 1 + (NAF[i] != 0);
            n += 2;
        }
        return n;
    }
    static constexpr int LINES = line_count();

    // The next line of the pair whose running point is r and whose G2 point is q.
    static Line next_line(Proj& r, const G2A& q, int kind) {
        switch (kind) {
            case 0: return doubling(r);
            case 1: return addition(r, q);
            case -1: return addition(r, q.neg());
            case 2: return addition(r, frobenius_twist(q));
            default: return addition(r, frobenius_twist(frobenius_twist(q)).neg());
        }
    }

    // A line divided by one of its coefficients, so that its product with f costs ten Fp2
    // products instead of thirteen. At the G1 point P = (xP, yP) it is, up to a factor in Fp
    // (which the final exponentiation removes),
    //   M-type: s0/yP + (s1 xP/yP) v + v w      (the line a + b xP v + c yP v w, over c yP)
    //   D-type: 1 + (s1 xP/yP + (s0/yP) v) w    (the line a yP + (b xP + c v) w, over a yP)
    // For the line of slope lambda through (x0, y0): s0 = lambda x0 - y0, s1 = -lambda.
    struct NLine {
        F2 s0, s1;
    };

    // What a pair's G1 point brings to its lines: 1/yP and xP/yP; for affine_loop's scaled twist
    // also 1/xP (scaled: asked for, and xP and yP both nonzero). yP = 0 does not occur on these
    // curves (their groups have odd order, so no point of order two); such a point is still
    // evaluated, without the division (plain).
    struct PFactors {
        Fp yinv, xy, xinv, x, y;
        bool plain, scaled;
    };

    // The factors of m points, the first nx of them with 1/xP too, all from one inversion
    // (Montgomery's trick over yP, or over xP yP where 1/xP is wanted: 1/yP = xP/(xP yP) and
    // 1/xP = yP/(xP yP)).
    static void factors(const G1A* const* ps, std::size_t m, std::size_t nx, PFactors* out) {
        std::vector<Fp> pre(m), den(m);
        Fp acc = Fp::one();
        for (std::size_t i = 0; i < m; i++) {
            PFactors& o = out[i];
            o.x = ps[i]->x;
            o.y = ps[i]->y;
            o.plain = o.y.is_zero();
            o.scaled = i < nx && !o.plain && !o.x.is_zero();
            pre[i] = acc;
            if (o.plain) continue;
            den[i] = o.scaled ? o.x * o.y : o.y;
            acc = acc * den[i];
        }
        Fp inv = acc.inv_vartime();
        for (std::size_t i = m; i-- > 0;) {
            PFactors& o = out[i];
            if (o.plain) continue;
            const Fp e = inv * pre[i];  // 1/den[i]
            inv = inv * den[i];
            if (o.scaled) {
                o.yinv = e * o.x;
                o.xinv = e * o.y;
            } else {
                o.yinv = e;
            }
            o.xy = o.x * o.yinv;
        }
    }

    // f times the line (s0, s1) at P
    static void ell_n(F12& f, const F2& s0, const F2& s1, const PFactors& pp) {
        if (pp.plain) [[unlikely]] {  // the line times yP, whatever yP is
            const F2 yp{pp.y, Fp::zero()};
            if constexpr (T::M_TWIST) f = f.mul_014(s0, s1.mul_base(pp.x), yp);
            else f = f.mul_034(yp, s1.mul_base(pp.x), s0);
            return;
        }
        if constexpr (T::M_TWIST) f = f.mul_01_v(s0.mul_base(pp.yinv), s1.mul_base(pp.xy));
        else f = f.mul_1_34(s1.mul_base(pp.xy), s0.mul_base(pp.yinv));
    }

    // The LINES lines of q's loop (q not at infinity), in the schedule's order and normalized:
    // what a pair whose G2 point is fixed (a verification key's) needs, computed once. False when
    // a line cannot be normalized (a coefficient is zero: q is not of order r).
    static bool prepare(const G2A& q, NLine* out) {
        std::vector<Line> raw(LINES);
        Proj r{q.x, q.y, F2::one()};
        int i = 0;
        schedule([] {}, [&](int kind) { raw[i++] = next_line(r, q, kind); });
        auto den = [](const Line& l) -> const F2& { return T::M_TWIST ? l.c : l.a; };
        std::vector<F2> pre(LINES);
        F2 acc = F2::one();
        for (int k = 0; k < LINES; k++) {
            pre[k] = acc;
            acc = acc * den(raw[k]);
        }
        if (acc.is_zero()) return false;
        F2 inv = acc.inv_vartime();
        for (int k = LINES; k-- > 0;) {
            const F2 di = inv * pre[k];
            inv = inv * den(raw[k]);
            out[k] = T::M_TWIST ? NLine{raw[k].a * di, raw[k].b * di} : NLine{raw[k].c * di, raw[k].b * di};
        }
        return true;
    }

    // From this many pairs on, the loop keeps their running points affine (below, projective).
    static constexpr std::size_t AFFINE_MIN = 8;

    // The product of the Miller loops of n pairs (p[i], q[i]) and of nf pairs (pf[k], the G2 point
    // whose prepare()d lines are lines[k]), the pairs with a point at infinity left out (a prepared
    // point at infinity is a null lines[k]). The pairs share one squaring of f a step. From
    // AFFINE_MIN pairs on, their running points are affine and each step's slopes share one
    // inversion (Montgomery's trick), so that a pair's step costs about three quarters of its
    // projective one: a batch verification's many pairs.
    //
    // With ends non-null, ends[i] is the point pair i's loop ended on (homogeneous projective: for
    // BLS12-381 [|x|]q[i], for BN254 [6u + 2]q[i] + psi(q[i]) - psi^2(q[i]), by the group law until
    // a step meets an exceptional case, after which Z stays 0), from which subgroup.hpp's
    // in_g2_from_loop_end tells whether q[i] is in G2; all zero for a pair left out of the loop.
    static F12 miller_loop(const G1A* p, const G2A* q, std::size_t n, const G1A* pf = nullptr, const NLine* const* lines = nullptr,
                           std::size_t nf = 0, Proj* ends = nullptr) {
        std::vector<std::size_t> live, fixed;
        for (std::size_t i = 0; i < n; i++) {
            if (!p[i].is_inf() && !q[i].is_inf()) live.push_back(i);
        }
        for (std::size_t k = 0; k < nf; k++) {
            if (!pf[k].is_inf() && lines[k] != nullptr) fixed.push_back(k);
        }
        if (ends != nullptr) {
            for (std::size_t i = 0; i < n; i++) ends[i] = {F2::zero(), F2::zero(), F2::zero()};
        }
        if (live.empty() && fixed.empty()) return F12::one();
        const std::size_t m = live.size();
        const bool affine = m >= AFFINE_MIN;
        // the G1 points whose lines are normalized: the live pairs' when affine (pp[k] for the
        // k-th), then the fixed pairs' (pp[fo + j] for the j-th)
        std::vector<const G1A*> ps;
        if (affine) {
            for (std::size_t i : live) ps.push_back(&p[i]);
        }
        const std::size_t fo = ps.size();
        for (std::size_t k : fixed) ps.push_back(&pf[k]);
        std::vector<PFactors> pp(ps.size());
        factors(ps.data(), ps.size(), fo, pp.data());  // 1/xP too for the affine loop's pairs
        F12 f = F12::one();
        std::vector<Proj> r;
        const int lanes = affine ? lanes_loop(f, q, live, pp.data(), lines, fixed, r) : 0;
        bool done = lanes > 0;
        if (!done && affine && lanes == 0) {
            f = F12::one();
            r.clear();
            done = affine_loop(f, q, live, pp.data(), lines, fixed, r);
        }
        if (!done) {
            f = F12::one();
            r.clear();
            for (std::size_t i : live) r.push_back({q[i].x, q[i].y, F2::one()});
            int li = 0;
            schedule([&] { f = f.sqr(); },
                     [&](int kind) {
                         for (std::size_t k = 0; k < m; k++) ell(f, next_line(r[k], q[live[k]], kind), p[live[k]]);
                         for (std::size_t j = 0; j < fixed.size(); j++) ell_n(f, lines[fixed[j]][li].s0, lines[fixed[j]][li].s1, pp[fo + j]);
                         li++;
                     });
        }
        if (ends != nullptr) {
            for (std::size_t k = 0; k < m; k++) ends[live[k]] = r[k];
        }
        if constexpr (T::M_TWIST) f = f.conj();
        return f;
    }

    // affine_loop eight pairs at a time in AVX-512 IFMA lanes (pairing/lanes_loop.hpp), where this
    // build of the arithmetic has them (the x86-ifma path): 1 when it ran them; 0 when this build
    // has no lanes or a pair is not scaled (affine_loop runs them); -1, f spoiled, when a slope's
    // denominator is zero (affine_loop would meet it too: the projective loop runs them).
    static int lanes_loop(F12& f, const G2A* q, const std::vector<std::size_t>& live, const PFactors* pp, const NLine* const* lines,
                          const std::vector<std::size_t>& fixed, std::vector<Proj>& ends) {
#if defined(CUZK_BATCH_IFMA) && !defined(__CUDA_ARCH__)
        using Lanes = LanesLoop<T>;
        switch (Lanes::run(f, q, live, pp, lines, fixed, ends)) {
            case Lanes::DONE: return 1;
            case Lanes::NOT_SCALED: return 0;
            default: return -1;
        }
#else
        return 0;
#endif
    }

    // miller_loop's loop with affine running points (before the conjugation), the points the
    // pairs end on in ends; false, f spoiled, when a slope's denominator is zero (a pair whose G2
    // point is not of order r: the projective loop then runs instead).
    //
    // Two savings over the projective loop's arithmetic, besides the shared inversion:
    // - The step's denominators d are inverted through their norms d0^2 + d1^2 (u^2 = -1 in both
    //   curves' Fp2), which share one inversion in Fp: three products of Fp instead of three of Fp2
    //   for each pair, then 1/d = conj(d) / norm.
    // - Each pair runs on a copy of the twist scaled by t = xP/yP, its own G1 point's ratio: the
    //   isomorphism (x, y) -> (t^2 x, t^3 y) onto y^2 = x^3 + t^6 b' (whose doubling and addition
    //   formulas, b' unused, are the same) multiplies slopes by t and the line's constant
    //   lambda x0 - y0 by t^3, so the normalized line's coefficients -lambda xP/yP and
    //   (lambda x0 - y0)/yP become -lambda' and (lambda' x0' - y0') k with k = yP^2 / xP^3:
    //   one product of Fp2 by Fp a line instead of two. A point with xP = 0 (none is in G1:
    //   it would have order 3) or yP = 0 keeps t = 1 and the two products.
    static bool affine_loop(F12& f, const G2A* q, const std::vector<std::size_t>& live, const PFactors* pp, const NLine* const* lines,
                            const std::vector<std::size_t>& fixed, std::vector<Proj>& ends) {
        const std::size_t m = live.size();
        std::vector<F2> rx(m), ry(m), d(m);
        std::vector<Fp> norm(m), pre(m);
        std::vector<G2A> qs(m), added(m);  // each pair's G2 point on its scaled twist; the point it adds in this step
        // the scales: t = xP/yP (1 where not scaled) and k = yP^2/xP^3, from factors()'s 1/xP and 1/yP
        std::vector<Fp> t(m, Fp::one()), k(m);
        for (std::size_t i = 0; i < m; i++) {
            if (!pp[i].scaled) continue;
            const Fp s = pp[i].y * pp[i].xinv;  // 1/t = yP/xP
            t[i] = pp[i].xy;
            k[i] = pp[i].yinv * (s.sqr() * s);
        }
        for (std::size_t i = 0; i < m; i++) {
            const G2A& qi = q[live[i]];
            const Fp t2 = t[i].sqr();
            qs[i] = pp[i].scaled ? G2A{qi.x.mul_base(t2), qi.y.mul_base(t2 * t[i])} : qi;
            rx[i] = qs[i].x;
            ry[i] = qs[i].y;
        }
        bool ok = true;
        int li = 0;
        schedule([&] { f = f.sqr(); },
                 [&](int kind) {
                     if (!ok) return;
                     if (kind != 0) {
                         for (std::size_t i = 0; i < m; i++) {
                             const G2A& qi = qs[i];  // the Frobenius commutes with the scaling (t is in Fp)
                             added[i] = kind == 1 ? qi : kind == -1 ? qi.neg() : kind == 2 ? frobenius_twist(qi)
                                                                             : frobenius_twist(frobenius_twist(qi)).neg();
                         }
                     }
                     Fp nacc = Fp::one();
                     for (std::size_t i = 0; i < m; i++) {
                         d[i] = kind == 0 ? ry[i].dbl() : added[i].x - rx[i];
                         norm[i] = d[i].c0.sqr() + d[i].c1.sqr();
                         pre[i] = nacc;
                         nacc = nacc * norm[i];
                     }
                     if (nacc.is_zero()) {  // a norm is zero only for d = 0
                         ok = false;
                         return;
                     }
                     Fp ninv = nacc.inv_vartime();
                     for (std::size_t i = m; i-- > 0;) {
                         const Fp ni = ninv * pre[i];
                         ninv = ninv * norm[i];
                         const F2 dinv{d[i].c0 * ni, -(d[i].c1 * ni)};
                         F2 lambda, x3;
                         if (kind == 0) {
                             const F2 xx = rx[i].sqr();
                             lambda = (xx.dbl() + xx) * dinv;
                             x3 = lambda.sqr() - rx[i].dbl();
                         } else {
                             lambda = (added[i].y - ry[i]) * dinv;
                             x3 = lambda.sqr() - rx[i] - added[i].x;
                         }
                         const F2 s0 = lambda * rx[i] - ry[i];
                         ry[i] = lambda * (rx[i] - x3) - ry[i];
                         rx[i] = x3;
                         if (pp[i].scaled) [[likely]] {
                             if constexpr (T::M_TWIST) f = f.mul_01_v(s0.mul_base(k[i]), -lambda);
                             else f = f.mul_1_34(-lambda, s0.mul_base(k[i]));
                         } else {
                             ell_n(f, s0, -lambda, pp[i]);
                         }
                     }
                     for (std::size_t j = 0; j < fixed.size(); j++) ell_n(f, lines[fixed[j]][li].s0, lines[fixed[j]][li].s1, pp[m + j]);
                     li++;
                 });
        if (ok) {
            // (rx, ry) on the scaled twist is (t^2 x, t^3 y): homogeneously (rx t : ry : t^3)
            for (std::size_t i = 0; i < m; i++) {
                const Fp t3 = t[i].sqr() * t[i];
                ends.push_back({rx[i].mul_base(t[i]), ry[i], F2{t3, Fp::zero()}});
            }
        }
        return ok;
    }

    // f to a fixed multiple of (p^12 - 1)/r: see the top of this file.
    static F12 final_exponentiation(const F12& f) {
        // easy part: f^((p^6 - 1)(p^2 + 1)); the result is in the cyclotomic subgroup
        F12 t = f.conj() * f.inv();
        t = t.frobenius(2) * t;
        if constexpr (T::M_TWIST) {
            // 3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3, x = -X_ABS
            auto pow_x = [](const F12& a) { return a.cyclotomic_pow(T::X_ABS).conj(); };
            F12 t0 = pow_x(t) * t.conj();    // t^(x - 1)
            t0 = pow_x(t0) * t0.conj();      // t^((x - 1)^2)
            F12 t1 = pow_x(t0) * t0.frobenius(1);  // ^(x + p)
            F12 t2 = pow_x(pow_x(t1)) * t1.frobenius(2) * t1.conj();  // ^(x^2 + p^2 - 1)
            return t2 * t.cyclotomic_sqr() * t;
        } else {
            // Fuentes-Castaneda, Knapp and Rodriguez-Henriquez's chain: the pairing to the power
            // 2u(6u^2 + 3u + 1), a fixed power coprime to r, which is the value snarkjs (its
            // vk_alphabeta_12) and @noble/curves compute
            constexpr uint64_t u = 4965661367192848881ull;
            auto pow_minus_u = [](const F12& a) { return a.template cyclotomic_pow_w4<u>().conj(); };
            F12 y1 = pow_minus_u(t).cyclotomic_sqr();  // t^(-2u)
            F12 y2 = y1.cyclotomic_sqr() * y1;         // t^(-6u)
            F12 y4 = pow_minus_u(y2);                  // t^(6u^2)
            F12 y6 = pow_minus_u(y4.cyclotomic_sqr()); // t^(-12u^3)
            F12 y8 = y6.conj() * y4 * y2.conj();       // t^(12u^3 + 6u^2 + 6u)
            F12 y9 = y8 * y1;                          // t^(12u^3 + 6u^2 + 4u)
            return (t.conj() * y9).frobenius(3) * y8.frobenius(2) * y9.frobenius(1) * (y8 * y4 * t);
        }
    }

    static F12 pairing(const G1A* p, const G2A* q, std::size_t n) { return final_exponentiation(miller_loop(p, q, n)); }
};

CUZK_NS_END

#if defined(CUZK_BATCH_IFMA) && !defined(__CUDA_ARCH__)
#include "pairing/lanes_loop.hpp"
#endif
