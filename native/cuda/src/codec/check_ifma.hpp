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

}  // namespace lanes
CUZK_NS_END
#endif
