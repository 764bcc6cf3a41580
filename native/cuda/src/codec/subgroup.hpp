// Membership of the prime-order subgroups, for the codec's subgroup check. G2 of both curves by
// their endomorphism psi (untwist-Frobenius-twist), which acts on G2 as multiplication by p mod r,
// a test about four times cheaper than multiplying by r:
//   BLS12-381: P in G2 iff psi(P) = [x]P, x = -0xd201000000010000 (Scott, "A note on group
//     membership tests for G1, G2 and GT on BLS pairing-friendly curves", 2021);
//   BN254: P in G2 iff [x+1]P + psi([x]P) + psi^2([x]P) = psi^3([2x]P), x = 4965661367192848881
//     (El Housni, Guillevic and Piellard, "Co-factor clearing and subgroup membership testing on
//     pairing-friendly curves", 2022, sections 3 and 5.1).
// G1 of BLS12-381 by the endomorphism sigma(x, y) = (beta x, y), beta a cube root of one in Fp:
//     P in G1 iff sigma(P) = [-x^2]P (Scott, same note), for the beta whose sigma acts on G1 as
//     -x^2 (found at first use from the generator: the other acts as x^2 - 1).
// BN254's G1 is the whole curve (no check needed); every other group keeps [r]P = O.
#pragma once
#include <type_traits>
#include <utility>

#include "cuzk/pairing.hpp"

CUZK_NS_BEGIN

namespace subgroup_detail {
// psi on XYZZ coordinates: the Frobenius (conjugation) of every coordinate, then the twist's
// constants on x and y; conjugation is a field automorphism, so the ratios x/zz and y/zzz follow.
template <class G>
XYZZ<G> psi(const XYZZ<G>& p, const typename G::F& cx, const typename G::F& cy) {
    using F2 = typename G::F;
    auto conj = [](const F2& a) { return F2{a.c0, -a.c1}; };
    return {conj(p.x) * cx, conj(p.y) * cy, conj(p.zz), conj(p.zzz)};
}
// Jacobian coordinates (x = X/Z^2, y = Y/Z^3) for the checks' multiplications by the curve's
// parameter, which are nearly all doublings (63 of them against 5 additions for BLS12-381's x): a
// Jacobian doubling costs 2 products and 5 squarings, an XYZZ one 6 and 3.
template <class G>
struct Jac {
    using F = typename G::F;
    F x, y, z;

    static Jac infinity() { return {F::one(), F::one(), F::zero()}; }
    static Jac from_affine(const Affine<G>& a) { return a.is_inf() ? infinity() : Jac{a.x, a.y, F::one()}; }
    bool is_inf() const { return z.is_zero(); }
    Jac neg() const { return {x, -y, z}; }
    XYZZ<G> to_xyzz() const {
        if (is_inf()) return XYZZ<G>::infinity();
        const F zz = z.sqr();
        return {x, y, zz, zz * z};
    }
    // dbl-2009-l (a = 0)
    Jac dbl() const {
        if (is_inf()) return *this;
        const F a = x.sqr(), b = y.sqr(), c = b.sqr();
        const F d = ((x + b).sqr() - a - c).dbl();
        const F e = a.dbl() + a;
        Jac r;
        r.x = e.sqr() - d.dbl();
        r.y = e * (d - r.x) - c.dbl().dbl().dbl();
        r.z = (y * z).dbl();
        return r;
    }
    // this += q (add-2007-bl), with the doubling and inverse cases handled
    void add(const Jac& q) {
        if (q.is_inf()) return;
        if (is_inf()) {
            *this = q;
            return;
        }
        const F z1z1 = z.sqr(), z2z2 = q.z.sqr();
        const F u1 = x * z2z2, u2 = q.x * z1z1;
        const F s1 = y * q.z * z2z2, s2 = q.y * z * z1z1;
        const F h = u2 - u1, r = (s2 - s1).dbl();
        if (h.is_zero()) {
            *this = r.is_zero() ? dbl() : infinity();
            return;
        }
        const F i = h.dbl().sqr();
        const F j = h * i;
        const F v = u1 * i;
        const F x3 = r.sqr() - j - v.dbl();
        y = r * (v - x3) - (s1 * j).dbl();
        z = ((z + q.z).sqr() - z1z1 - z2z2) * h;
        x = x3;
    }
    // this += q for affine q (madd-2007-bl: 7 products and 4 squarings), the same cases handled
    void add_affine(const Affine<G>& q) {
        if (q.is_inf()) return;
        if (is_inf()) {
            *this = from_affine(q);
            return;
        }
        const F z1z1 = z.sqr();
        const F h = q.x * z1z1 - x, r = (q.y * z * z1z1 - y).dbl();
        if (h.is_zero()) {
            *this = r.is_zero() ? dbl() : infinity();
            return;
        }
        const F hh = h.sqr();
        const F i = hh.dbl().dbl();
        const F j = h * i;
        const F v = x * i;
        const F x3 = r.sqr() - j - v.dbl();
        y = r * (v - x3) - (y * j).dbl();
        z = (z + h).sqr() - z1z1 - hh;
        x = x3;
    }
    // [k]P for a 64-bit k, from the top bit down
    template <class Q>
    static Jac mul(const Q& p, uint64_t k) {
        Jac acc = infinity();
        for (int bit = 63; bit >= 0; bit--) {
            acc = acc.dbl();
            if ((k >> bit) & 1) {
                if constexpr (std::is_same_v<Q, Jac>) acc.add(p);
                else acc.add_affine(p);
            }
        }
        return acc;
    }
};

// psi's constants on the twist of G: xi^((p-1)/3) and xi^((p-1)/2) for BN254's D-type twist (the
// Miller loop's Frobenius lines use the same), their inverses for BLS12-381's M-type twist.
template <class G>
const std::pair<typename G::F, typename G::F>& psi_constants() {
    if constexpr (std::is_same_v<G, bn254_g2>) {
        static const auto c = [] {
            const auto& g = bn254_tower::gammas();
            return std::make_pair(g.g[0][2], g.g[0][3]);
        }();
        return c;
    } else {
        static const auto c = [] {
            const auto& g = bls12_381_tower::gammas();
            return std::make_pair(g.g[0][2].inv(), g.g[0][3].inv());
        }();
        return c;
    }
}

// BLS12-381's beta: the cube root of one in Fp whose sigma(x, y) = (beta x, y) acts on G1 as
// [-x^2] (found at first use from the generator: the other root acts as x^2 - 1).
inline const bls12_381_fp& g1_beta() {
    using Fp = bls12_381_fp;
    using G = bls12_381_g1;
    static const Fp beta = [] {
        // the cube roots of one: t^((p-1)/3) for t = 2, 3, ... until one is not 1; then the
        // one of it and its square whose sigma maps the generator to [-x^2] of it
        const auto m = Fp::Params::modulus();
        uint64_t e[Fp::N];
        unsigned __int128 rem = 0;
        for (int i = Fp::N - 1; i >= 0; i--) {
            unsigned __int128 cur = (rem << 64) | (i == 0 ? m.v[0] - 1 : m.v[i]);
            e[i] = (uint64_t)(cur / 3);
            rem = cur % 3;
        }
        Fp w = Fp::one();
        for (uint64_t t = 2; w == Fp::one(); t++) w = Fp::from_u64(t).pow(e, Fp::N);
        const Affine<G> g = G::generator();
        const uint64_t x_abs = bls12_381_tower::X_ABS;
        const XYZZ<G> target = scalar_mul(scalar_mul(g, &x_abs, 1).to_affine(), &x_abs, 1).neg();
        return XYZZ<G>::from_affine(Affine<G>{g.x * w, g.y}) == target ? w : w.sqr();
    }();
    return beta;
}
}  // namespace subgroup_detail

template <class G>
bool in_subgroup(const Affine<G>& p) {
    if (p.is_inf()) return true;
    if constexpr (std::is_same_v<G, bn254_g2>) {
        const auto& [cx, cy] = subgroup_detail::psi_constants<G>();
        const uint64_t x = 4965661367192848881ull;
        using subgroup_detail::Jac;
        XYZZ<G> q = Jac<G>::mul(p, x).to_xyzz();  // [x]P
        XYZZ<G> lhs = q;
        lhs.add_affine(p);  // [x+1]P
        XYZZ<G> q1 = subgroup_detail::psi(q, cx, cy), q2 = subgroup_detail::psi(q1, cx, cy);
        lhs.add(q1);
        lhs.add(q2);
        XYZZ<G> rhs = subgroup_detail::psi(q2, cx, cy).dbl();  // psi^3([x]P) doubled
        return lhs == rhs;
    } else if constexpr (std::is_same_v<G, bls12_381_g2>) {
        const auto& c = subgroup_detail::psi_constants<G>();
        const uint64_t x_abs = bls12_381_tower::X_ABS;
        using subgroup_detail::Jac;
        XYZZ<G> xp = Jac<G>::mul(p, x_abs).to_xyzz().neg();  // [x]P, x < 0
        return subgroup_detail::psi(XYZZ<G>::from_affine(p), c.first, c.second) == xp;
    } else if constexpr (std::is_same_v<G, bls12_381_g1>) {
        const bls12_381_fp& beta = subgroup_detail::g1_beta();
        const uint64_t x_abs = bls12_381_tower::X_ABS;
        using subgroup_detail::Jac;
        // [|x|]P, then [|x|] of it without going affine
        const XYZZ<G> xx = Jac<G>::mul(Jac<G>::mul(p, x_abs), x_abs).to_xyzz();
        return XYZZ<G>::from_affine(Affine<G>{p.x * beta, p.y}) == xx.neg();  // sigma(P) = [-x^2]P
    } else {
        return is_in_subgroup(p);
    }
}

// Whether q (on the twist, not at infinity) is in G2, from the point (X : Y : Z) its Miller loop
// ended on (Pairing<T>::miller_loop's ends), for a few products instead of in_subgroup's scalar
// multiplication. The loop's formulas follow the group law until a step meets an exceptional
// case, and every such step leaves Z = 0, which later steps keep, so with Z != 0 the point is
//   BLS12-381: [|x|]q, and q is in G2 iff psi(q) = [x]q = -(X : Y : Z) (Scott's test, as above);
//   BN254: [6u + 2]q + psi(q) - psi^2(q), and q is in G2 iff that plus psi^3(q) is O. On G2 psi
//     is p, and 6u + 2 + p - p^2 + p^3 = 0 mod r. The rest of the twist's group has order
//     2p - r = 10069 * 5864401 * 1875725156269 * a 54-digit prime, each part cyclic with psi a
//     scalar on it, and that polynomial of psi is zero on no point of any of those orders (checked
//     with a point of each order, and for both of psi's eigenvalues mod the two small primes).
template <class T>
bool in_g2_from_loop_end(const Affine<typename T::G2>& q, const typename Pairing<T>::Proj& end) {
    using G = typename T::G2;
    if (end.z.is_zero()) return false;
    const auto& [cx, cy] = subgroup_detail::psi_constants<G>();
    XYZZ<G> t = subgroup_detail::psi(XYZZ<G>::from_affine(q), cx, cy);  // psi(q), affine (zz = zzz = 1)
    if constexpr (std::is_same_v<G, bn254_g2>) t = subgroup_detail::psi(subgroup_detail::psi(t, cx, cy), cx, cy);  // psi^3(q)
    // (X : Y : Z) = -t: X = t.x Z and Y = -t.y Z
    return end.x == t.x * end.z && end.y == -(t.y * end.z);
}

CUZK_NS_END
