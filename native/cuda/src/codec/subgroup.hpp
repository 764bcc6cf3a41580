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
}  // namespace subgroup_detail

template <class G>
bool in_subgroup(const Affine<G>& p) {
    if (p.is_inf()) return true;
    if constexpr (std::is_same_v<G, bn254_g2>) {
        const auto& g = bn254_tower::gammas();
        const auto& cx = g.g[0][2];  // xi^((p-1)/3): the D-type twist
        const auto& cy = g.g[0][3];  // xi^((p-1)/2)
        const uint64_t x = 4965661367192848881ull;
        XYZZ<G> q = scalar_mul(p, &x, 1);  // [x]P
        XYZZ<G> lhs = q;
        lhs.add_affine(p);  // [x+1]P
        XYZZ<G> q1 = subgroup_detail::psi(q, cx, cy), q2 = subgroup_detail::psi(q1, cx, cy);
        lhs.add(q1);
        lhs.add(q2);
        XYZZ<G> rhs = subgroup_detail::psi(q2, cx, cy).dbl();  // psi^3([x]P) doubled
        return lhs == rhs;
    } else if constexpr (std::is_same_v<G, bls12_381_g2>) {
        static const auto c = [] {  // 1/xi^((p-1)/3), 1/xi^((p-1)/2): the M-type twist
            const auto& g = bls12_381_tower::gammas();
            return std::make_pair(g.g[0][2].inv(), g.g[0][3].inv());
        }();
        const uint64_t x_abs = bls12_381_tower::X_ABS;
        XYZZ<G> xp = scalar_mul(p, &x_abs, 1).neg();  // [x]P, x < 0
        return subgroup_detail::psi(XYZZ<G>::from_affine(p), c.first, c.second) == xp;
    } else if constexpr (std::is_same_v<G, bls12_381_g1>) {
        using Fp = bls12_381_fp;
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
        const uint64_t x_abs = bls12_381_tower::X_ABS;
        const XYZZ<G> xp = scalar_mul(p, &x_abs, 1);  // [|x|]P, then [|x|] of it without going affine
        XYZZ<G> xx = XYZZ<G>::infinity();
        for (int bit = 63; bit >= 0; bit--) {
            xx = xx.dbl();
            if ((x_abs >> bit) & 1) xx.add(xp);
        }
        return XYZZ<G>::from_affine(Affine<G>{p.x * beta, p.y}) == xx.neg();  // sigma(P) = [-x^2]P
    } else {
        return is_in_subgroup(p);
    }
}

CUZK_NS_END
