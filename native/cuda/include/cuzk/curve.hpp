// Short Weierstrass curves y^2 = x^3 + b (a = 0) over Fp (G1) and Fp2 (G2).
// Affine points use the snarkjs layout (x then y, Montgomery limbs; infinity is all zeros);
// arithmetic runs in XYZZ coordinates (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2), whose mixed
// addition costs 8M + 2S and suits bucket accumulation.
#pragma once
#include "cuzk/field.hpp"

CUZK_NS_BEGIN

template <class G>
struct Affine {
    using F = typename G::F;
    F x, y;
    CUZK_HD static Affine infinity() { return {F::zero(), F::zero()}; }
    // (0, 0) is on neither curve (b != 0), so it can stand for infinity.
    CUZK_HD bool is_inf() const { return x.is_zero() && y.is_zero(); }
    CUZK_HD Affine neg() const { return is_inf() ? *this : Affine{x, -y}; }
    CUZK_HD bool operator==(const Affine& o) const { return x == o.x && y == o.y; }
    CUZK_HDI bool is_on_curve() const {
        if (is_inf()) return true;
        return y.sqr() == x.sqr() * x + G::b();
    }
};

template <class G>
struct XYZZ {
    using F = typename G::F;
    F x, y, zz, zzz;

    CUZK_HD static XYZZ infinity() { return {F::one(), F::one(), F::zero(), F::zero()}; }
    CUZK_HD bool is_inf() const { return zz.is_zero(); }
    CUZK_HD static XYZZ from_affine(const Affine<G>& a) {
        if (a.is_inf()) return infinity();
        return {a.x, a.y, F::one(), F::one()};
    }
    CUZK_HD XYZZ neg() const { return {x, -y, zz, zzz}; }

    // dbl-2008-s-1 (a = 0).
    CUZK_HDI XYZZ dbl() const {
        if (is_inf()) return *this;
        F u = y.dbl();
        F v = u.sqr();
        F w = u * v;
        F s = x * v;
        F xx = x.sqr();
        F m = xx.dbl() + xx;
        XYZZ r;
        r.x = m.sqr() - s.dbl();
        r.y = m * (s - r.x) - w * y;
        r.zz = v * zz;
        r.zzz = w * zzz;
        return r;
    }

    // Doubling of an affine point (mdbl-2008-s-1).
    CUZK_HDI static XYZZ dbl_affine(const Affine<G>& a) {
        F u = a.y.dbl();
        F v = u.sqr();
        F w = u * v;
        F s = a.x * v;
        F xx = a.x.sqr();
        F m = xx.dbl() + xx;
        XYZZ r;
        r.x = m.sqr() - s.dbl();
        r.y = m * (s - r.x) - w * a.y;
        r.zz = v;
        r.zzz = w;
        return r;
    }

    // this += q for affine q (madd-2008-s), with the doubling and inverse cases handled.
    CUZK_HDI void add_affine(const Affine<G>& q) {
        if (q.is_inf()) return;
        if (is_inf()) {
            *this = from_affine(q);
            return;
        }
        F u2 = q.x * zz;
        F s2 = q.y * zzz;
        F p = u2 - x;
        F r = s2 - y;
        if (p.is_zero()) {
            if (r.is_zero()) *this = dbl_affine(q);
            else *this = infinity();
            return;
        }
        F pp = p.sqr();
        F ppp = p * pp;
        F qq = x * pp;
        F x3 = r.sqr() - ppp - qq.dbl();
        y = r * (qq - x3) - y * ppp;
        x = x3;
        zz = zz * pp;
        zzz = zzz * ppp;
    }

    // this -= q for affine q.
    CUZK_HD void sub_affine(const Affine<G>& q) { add_affine(q.neg()); }

    // this += q (add-2008-s), with the doubling and inverse cases handled.
    CUZK_HDI void add(const XYZZ& q) {
        if (q.is_inf()) return;
        if (is_inf()) {
            *this = q;
            return;
        }
        F u1 = x * q.zz;
        F u2 = q.x * zz;
        F s1 = y * q.zzz;
        F s2 = q.y * zzz;
        F p = u2 - u1;
        F r = s2 - s1;
        if (p.is_zero()) {
            if (r.is_zero()) *this = dbl();
            else *this = infinity();
            return;
        }
        F pp = p.sqr();
        F ppp = p * pp;
        F qq = u1 * pp;
        F x3 = r.sqr() - ppp - qq.dbl();
        y = r * (qq - x3) - s1 * ppp;
        x = x3;
        zz = zz * q.zz * pp;
        zzz = zzz * q.zzz * ppp;
    }

    // Affine form given 1/zzz (one inversion shared by batch conversions).
    CUZK_HDI Affine<G> to_affine_with(const F& zzz_inv) const {
        if (is_inf()) return Affine<G>::infinity();
        F z_inv = zz * zzz_inv;  // ZZ/ZZZ = 1/Z
        return {x * z_inv.sqr(), y * zzz_inv};
    }
    CUZK_COLD Affine<G> to_affine() const {
        if (is_inf()) return Affine<G>::infinity();
        return to_affine_with(zzz.inv());
    }
    CUZK_HDI bool operator==(const XYZZ& q) const {
        if (is_inf() || q.is_inf()) return is_inf() && q.is_inf();
        return x * q.zz == q.x * zz && y * q.zzz == q.y * zzz;
    }
};

// [k]P for a little-endian multi-word k (all bits used), double and add from the top.
template <class G>
CUZK_COLD XYZZ<G> scalar_mul(const Affine<G>& p, const uint64_t* k, int words) {
    XYZZ<G> acc = XYZZ<G>::infinity();
    for (int w = words - 1; w >= 0; w--) {
        for (int bit = 63; bit >= 0; bit--) {
            acc = acc.dbl();
            if ((k[w] >> bit) & 1) acc.add_affine(p);
        }
    }
    return acc;
}

// Membership of the prime-order subgroup: [r]P = O. Both G1 and G2 of BLS12-381 and G2 of
// BN254 have cofactors, so an on-curve point may still lie outside it.
template <class G>
CUZK_COLD bool is_in_subgroup(const Affine<G>& p) {
    if (p.is_inf()) return true;
    const Limbs<4> r = G::order();
    return scalar_mul(p, r.v, 4).is_inf();
}

// The groups. F is the coordinate field; Scalar is Fr.
template <class FpT, class FrT, class C>
struct G1Of {
    using F = FpT;
    using Fr = FrT;
    static constexpr int GROUP = 1;
    static constexpr bool HAS_COFACTOR = C::G1_COFACTOR;
    CUZK_HD static F b() { return F::from_limbs(C::b1()); }
    CUZK_HD static Limbs<4> order() { return C::order(); }
    CUZK_HD static Affine<G1Of> generator() { return {F::from_limbs(C::g1_x()), F::from_limbs(C::g1_y())}; }
};

template <class FpT, class FrT, class C>
struct G2Of {
    using F = Field2<FpT>;
    using Fr = FrT;
    static constexpr int GROUP = 2;
    static constexpr bool HAS_COFACTOR = true;
    CUZK_HD static F b() { return {FpT::from_limbs(C::b2_c0()), FpT::from_limbs(C::b2_c1())}; }
    CUZK_HD static Limbs<4> order() { return C::order(); }
    CUZK_HD static Affine<G2Of> generator() {
        return {{FpT::from_limbs(C::g2_x_c0()), FpT::from_limbs(C::g2_x_c1())},
                {FpT::from_limbs(C::g2_y_c0()), FpT::from_limbs(C::g2_y_c1())}};
    }
};

struct bn254_curve : bn254_curve_params {
    static constexpr bool G1_COFACTOR = false;  // #E(Fp) = r
};
struct bls12_381_curve : bls12_381_curve_params {
    static constexpr bool G1_COFACTOR = true;
};

using bn254_g1 = G1Of<bn254_fp, bn254_fr, bn254_curve>;
using bn254_g2 = G2Of<bn254_fp, bn254_fr, bn254_curve>;
using bls12_381_g1 = G1Of<bls12_381_fp, bls12_381_fr, bls12_381_curve>;
using bls12_381_g2 = G2Of<bls12_381_fp, bls12_381_fr, bls12_381_curve>;

CUZK_NS_END
