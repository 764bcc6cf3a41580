// The canonical and on-curve checks of native-layout points, eight at a time with AVX-512 IFMA
// (a key's point sections are checked when it is read). A group of eight that passes is done; the
// caller checks any other group one point at a time, for the exact first failure and its reason.
#pragma once
#if defined(CUZK_BATCH_IFMA) && !defined(__CUDA_ARCH__)
#include <cstring>

#include "arith/lanes_ifma.hpp"
#include "codec/codec.hpp"

CUZK_NS_BEGIN
namespace lanes {

// The constants of G's curve equation in the lanes: R'^2 / R (a product by it takes stored words
// x R to the lanes form x R') and b.
template <class G>
struct CurveLanesConstants {
    using F = typename G::F;
    using LA = typename algebra_of<F>::type;
    using Fp = typename base_field<F>::type;
    using LB = Lanes<Fp>;
    static constexpr int W = LA::W;

    uint64_t to_lanes[W];  // the base field's R'^2 / R, as an element of F (imaginary part 0)
    uint64_t b[W];

    static const CurveLanesConstants& get() {
        static const CurveLanesConstants c = [] {
            CurveLanesConstants k{};
            const Fp factor = LB::pow2(2 * 52 * LB::K - 128 * Fp::N);  // its stored words are R'^2 / R
            to52<Fp::N, LB::K>(factor.l, k.to_lanes);
            LA::to_lanes_form(G::b(), k.b);
            return k;
        }();
        return c;
    }
};

// Whether every point in [begin, end) of the native-layout points at src (stride bytes apart, at
// any address) has canonical coordinates and, with on_curve, lies on the curve (infinity passes).
template <class G>
CUZK_IFMA bool points_pass(const uint8_t* src, size_t stride, size_t begin, size_t end, bool on_curve) {
    using F = typename G::F;
    using LA = typename algebra_of<F>::type;
    using Fp = typename base_field<F>::type;
    using V = typename LA::V;
    constexpr int K = Lanes<Fp>::K, W = LA::W, PARTS = W / K;  // PARTS: Fp values per coordinate
    const CurveLanesConstants<G>& k = CurveLanesConstants<G>::get();
    V to_lanes, b;
    for (int lane = 0; lane < 8; lane++) {
        lane_put<W>(to_lanes, lane, k.to_lanes);
        lane_put<W>(b, lane, k.b);
    }
    for (size_t g = begin; g < end; g += 8) {
        V x, y;
        unsigned skip = 0;  // lanes past the end and points at infinity
        for (int lane = 0; lane < 8; lane++) {
            uint64_t wx[W] = {}, wy[W] = {};
            const size_t i = g + lane;
            Affine<G> p;
            if (i < end) std::memcpy(static_cast<void*>(&p), src + i * stride, sizeof p);
            if (i >= end || p.is_inf()) {
                skip |= 1u << lane;
            } else {
                const Fp* c = reinterpret_cast<const Fp*>(&p);  // x's parts, then y's
                for (int j = 0; j < 2 * PARTS; j++) {
                    if (!Fp::is_canonical(c[j].l)) return false;
                }
                for (int j = 0; j < PARTS; j++) {
                    to52<Fp::N, K>(c[j].l, wx + j * K);
                    to52<Fp::N, K>(c[PARTS + j].l, wy + j * K);
                }
            }
            lane_put<W>(x, lane, wx);
            lane_put<W>(y, lane, wy);
        }
        if (!on_curve) continue;
        // stored words x R as 52-bit limbs, times R'^2 / R: the lanes form x R'; all below 2p
        x = LA::mul(x, to_lanes);
        y = LA::mul(y, to_lanes);
        const V lhs = LA::mul(y, y);
        const V rhs = LA::add_r(LA::mul(LA::mul(x, x), x), b);
        const unsigned zero = LA::zero_mask(LA::sub_r(lhs, rhs));
        if ((zero | skip) != 0xffu) return false;
    }
    return true;
}

// BLS12-381's G1 membership (subgroup.hpp's in_subgroup: sigma(P) = [-x^2]P, as [|x|] twice)
// eight points at a time, after points_pass's canonical and on-curve checks. Jacobian
// coordinates: doubling by dbl-2009-l, adding an affine point by madd-2007-bl, the two formulas of
// subgroup_detail::Jac without its special cases. A lane that meets one fails its group, which the
// caller then checks one point at a time: an addition of points with equal x is flagged where it
// happens (the only way to a sum at infinity here: no point of the curve has order 2), and a
// Z = 0, which both formulas keep, fails the inversion between the two multiplications and the
// final comparison. So a group passes only when every lane computed [-x^2]P by the group law and
// it equals sigma(P). Points at infinity pass (the generator stands in for them, and for the lanes
// past the end).
struct G1SubgroupLanes {
    using G = bls12_381_g1;
    using Fp = bls12_381_fp;
    using L = Lanes<Fp>;
    using V = L::V;
    static constexpr int K = L::K;

    CUZK_IFMA_INLINE static inline V mul(const V& a, const V& b) { return L::mul(a, b); }
    CUZK_IFMA_INLINE static inline V add(const V& a, const V& b) { return L::add_r(a, b); }
    CUZK_IFMA_INLINE static inline V sub(const V& a, const V& b) { return L::sub_r(a, b); }

    CUZK_IFMA_INLINE static inline void dbl(V& x, V& y, V& z) {
        const V a = mul(x, x), b = mul(y, y), c = mul(b, b);
        const V xb = add(x, b);
        const V d1 = sub(sub(mul(xb, xb), a), c);
        const V d = add(d1, d1);
        const V e = add(add(a, a), a);
        const V x3 = sub(mul(e, e), add(d, d));
        const V c2 = add(c, c), c4 = add(c2, c2);
        const V y3 = sub(mul(e, sub(d, x3)), add(c4, c4));
        const V yz = mul(y, z);
        z = add(yz, yz);
        x = x3;
        y = y3;
    }
    // (x, y, z) += (qx, qy); the lanes where the x coordinates are equal set in special
    CUZK_IFMA_INLINE static inline void add_affine(V& x, V& y, V& z, const V& qx, const V& qy, __mmask8& special) {
        const V z1z1 = mul(z, z);
        const V h = sub(mul(qx, z1z1), x);
        const V s = sub(mul(qy, mul(z, z1z1)), y);
        special |= L::zero_mask(h);
        const V r = add(s, s);
        const V hh = mul(h, h);
        const V i2 = add(hh, hh);
        const V i = add(i2, i2);
        const V j = mul(h, i), v = mul(x, i);
        const V x3 = sub(sub(mul(r, r), j), add(v, v));
        const V yj = mul(y, j);
        const V y3 = sub(mul(r, sub(v, x3)), add(yj, yj));
        const V zh = add(z, h);
        z = sub(sub(mul(zh, zh), z1z1), hh);
        x = x3;
        y = y3;
    }
    // [|x|](px, py), px and py affine: |x|'s top bit is bit 63, so the sum starts at the point
    CUZK_IFMA_INLINE static inline void mul_x(V& x, V& y, V& z, const V& px, const V& py, const V& one, __mmask8& special) {
        constexpr uint64_t e = bls12_381_tower::X_ABS;
        static_assert(e >> 63 == 1, "|x| has its top bit set");
        x = px;
        y = py;
        z = one;
        for (int bit = 62; bit >= 0; bit--) {
            dbl(x, y, z);
            if ((e >> bit) & 1) add_affine(x, y, z, px, py, special);
        }
    }

    static bool pass(const uint8_t* src, size_t stride, size_t begin, size_t end);
};

CUZK_IFMA inline bool G1SubgroupLanes::pass(const uint8_t* src, size_t stride, size_t begin, size_t end) {
    if (!points_pass<G>(src, stride, begin, end, true)) return false;
    const CurveLanesConstants<G>& k = CurveLanesConstants<G>::get();
    V to_lanes, beta, one;
    uint64_t bw[K];
    L::to_lanes_form(subgroup_detail::g1_beta(), bw);
    for (int lane = 0; lane < 8; lane++) {
        lane_put<K>(to_lanes, lane, k.to_lanes);
        lane_put<K>(beta, lane, bw);
        lane_put<K>(one, lane, L::one_words());
    }
    const Affine<G> gen = G::generator();
    for (size_t g = begin; g < end; g += 8) {
        V px, py;
        unsigned skip = 0;  // lanes past the end and points at infinity
        for (int lane = 0; lane < 8; lane++) {
            const size_t i = g + lane;
            Affine<G> p;
            if (i < end) std::memcpy(static_cast<void*>(&p), src + i * stride, sizeof p);
            if (i >= end || p.is_inf()) {
                skip |= 1u << lane;
                p = gen;
            }
            uint64_t wx[K], wy[K];
            to52<Fp::N, K>(p.x.l, wx);
            to52<Fp::N, K>(p.y.l, wy);
            lane_put<K>(px, lane, wx);
            lane_put<K>(py, lane, wy);
        }
        // stored words x R as 52-bit limbs, times R'^2 / R: the lanes form x R'
        px = mul(px, to_lanes);
        py = mul(py, to_lanes);
        __mmask8 special = 0;
        V x, y, z;
        mul_x(x, y, z, px, py, one, special);  // [|x|]P
        V zi;
        if (special || !L::invert(z, zi)) return false;
        const V zi2 = mul(zi, zi);
        const V qx = mul(x, zi2), qy = mul(y, mul(zi2, zi));
        mul_x(x, y, z, qx, qy, one, special);  // [x^2]P
        if (special) return false;
        // sigma(P) = (beta px, py) = -(x : y : z): x = beta px z^2 and y = -py z^3, z nonzero
        const V z2 = mul(z, z), z3 = mul(z2, z);
        const unsigned ok = L::zero_mask(sub(x, mul(mul(beta, px), z2))) & L::zero_mask(add(y, mul(py, z3))) & ~L::zero_mask(z);
        if (((ok | skip) & 0xffu) != 0xffu) return false;
    }
    return true;
}

}  // namespace lanes
CUZK_NS_END
#endif
