// A batch's Miller loop eight pairs at a time with AVX-512 IFMA (the x86-ifma path only).
//
// Pairing<T>::affine_loop's steps are the same for every pair: an affine doubling or addition of
// the pair's point on its scaled twist, its share of one inversion, and the product of f by its
// normalized line. Here pair 8g + j runs in lane j of group g (arith/lanes_ifma.hpp's 52-bit
// limbs, one element a 64-bit lane), so each field product of a step is made for eight pairs by
// one vector product, about four times cheaper a product than the scalar MULX/ADX one on the
// CPUs that have IFMA. Each lane keeps its own f (eight accumulators, squared together once a
// step), into which the lines of its pairs go; the eight are multiplied together, and into the
// scalar f that takes the prepared (fixed) pairs' lines, at the end. The product of all lines and
// squarings is the same as affine_loop's, so the Miller loop's value, the points the pairs end on
// and everything derived from them are equal, whatever the path.
//
// A last group with fewer than eight pairs repeats its first pair in the other lanes, whose
// lines are left out of f (a blend) and whose end points are not read; the repeated pair's
// denominators, nonzero where the real one's are, keep the inversion defined.
//
// Every lane value is kept below 2p with normalized limbs (each sum and difference is reduced
// once), which is what Lanes::mul takes and gives.
#pragma once
#if defined(CUZK_BATCH_IFMA) && !defined(__CUDA_ARCH__)
#include <cstring>
#include <memory>
#include <vector>

#include "arith/lanes_ifma.hpp"

CUZK_NS_BEGIN

template <class T>
struct LanesLoop {
    using Pair = Pairing<T>;
    using Fp = typename T::Fp;
    using F2 = typename T::F2;
    using F12 = typename Pair::F12;
    using G2A = typename Pair::G2A;
    using Proj = typename Pair::Proj;
    using PFactors = typename Pair::PFactors;
    using NLine = typename Pair::NLine;
    using L = lanes::Lanes<Fp>;
    using L2 = lanes::Lanes2<Fp>;
    using V = typename L::V;
    using V2 = typename L2::V;
    static constexpr int K = L::K;
    static constexpr int8_t SQUARE = 100;  // a step of the schedule that squares f

    struct V6 {
        V2 c0, c1, c2;
    };
    struct V12 {
        V6 c0, c1;
    };

    // ---- Fp and Fp2 in the lanes, every value below 2p ----
    CUZK_IFMA_INLINE static inline V mul(const V& a, const V& b) { return L::mul(a, b); }
    CUZK_IFMA_INLINE static inline V add(const V& a, const V& b) { return L::add_r(a, b); }
    CUZK_IFMA_INLINE static inline V sub(const V& a, const V& b) { return L::sub_r(a, b); }
    CUZK_IFMA_INLINE static inline V2 mul(const V2& a, const V2& b) { return L2::mul(a, b); }
    CUZK_IFMA_INLINE static inline V2 add(const V2& a, const V2& b) { return L2::add_r(a, b); }
    CUZK_IFMA_INLINE static inline V2 sub(const V2& a, const V2& b) { return L2::sub_r(a, b); }
    CUZK_IFMA_INLINE static inline V2 neg(const V2& a) { return L2::sub_r(V2{}, a); }
    CUZK_IFMA_INLINE static inline V2 dbl(const V2& a) { return L2::add_r(a, a); }
    CUZK_IFMA_INLINE static inline V2 sqr(const V2& a) {  // (a0 + a1)(a0 - a1) + 2 a0 a1 u
        V2 r;
        L::mul(L::add_r(lo(a), hi(a)).l, L::sub_r(lo(a), hi(a)).l, r.l);
        const V m = L::mul(lo(a), hi(a));
        const V m2 = L::add_r(m, m);
        std::memcpy(r.l + K, m2.l, sizeof m2.l);
        return r;
    }
    CUZK_IFMA_INLINE static inline V2 mul_base(const V2& a, const V& k) {
        V2 r;
        L::mul(a.l, k.l, r.l);
        L::mul(a.l + K, k.l, r.l + K);
        return r;
    }
    CUZK_IFMA_INLINE static inline V lo(const V2& a) {
        V r;
        std::memcpy(r.l, a.l, sizeof r.l);
        return r;
    }
    CUZK_IFMA_INLINE static inline V hi(const V2& a) {
        V r;
        std::memcpy(r.l, a.l + K, sizeof r.l);
        return r;
    }
    CUZK_IFMA_INLINE static inline V2 join(const V& c0, const V& c1) {
        V2 r;
        std::memcpy(r.l, c0.l, sizeof c0.l);
        std::memcpy(r.l + K, c1.l, sizeof c1.l);
        return r;
    }
    // times xi: 1 + u for BLS12-381 (the M-type twist), 9 + u for BN254, as T::mul_xi
    CUZK_IFMA_INLINE static inline V2 mul_xi(const V2& a) {
        const V a0 = lo(a), a1 = hi(a);
        if constexpr (T::M_TWIST) {
            return join(L::sub_r(a0, a1), L::add_r(a0, a1));
        } else {
            const V2 a8 = dbl(dbl(dbl(a)));
            return join(L::sub_r(L::add_r(lo(a8), a0), a1), L::add_r(L::add_r(hi(a8), a1), a0));
        }
    }

    // ---- Fp6 and Fp12, as Field6 and Field12 in cuzk/pairing.hpp ----
    CUZK_IFMA_INLINE static inline V6 add(const V6& a, const V6& b) { return {add(a.c0, b.c0), add(a.c1, b.c1), add(a.c2, b.c2)}; }
    CUZK_IFMA_INLINE static inline V6 sub(const V6& a, const V6& b) { return {sub(a.c0, b.c0), sub(a.c1, b.c1), sub(a.c2, b.c2)}; }
    CUZK_IFMA_INLINE static inline V6 dbl(const V6& a) { return {dbl(a.c0), dbl(a.c1), dbl(a.c2)}; }
    CUZK_IFMA_INLINE static inline V6 mul_v(const V6& a) { return {mul_xi(a.c2), a.c0, a.c1}; }
    CUZK_IFMA_INLINE static inline V6 mul(const V6& a, const V6& b) {
        const V2 v0 = mul(a.c0, b.c0), v1 = mul(a.c1, b.c1), v2 = mul(a.c2, b.c2);
        const V2 r0 = add(mul_xi(sub(sub(mul(add(a.c1, a.c2), add(b.c1, b.c2)), v1), v2)), v0);
        const V2 r1 = add(sub(sub(mul(add(a.c0, a.c1), add(b.c0, b.c1)), v0), v1), mul_xi(v2));
        const V2 r2 = add(sub(sub(mul(add(a.c0, a.c2), add(b.c0, b.c2)), v0), v2), v1);
        return {r0, r1, r2};
    }
    // times b0 + b1 v, b01 = b0 + b1: five Fp2 products
    CUZK_IFMA_INLINE static inline V6 mul_01(const V6& a, const V2& b0, const V2& b1, const V2& b01) {
        const V2 aa = mul(a.c0, b0), bb = mul(a.c1, b1);
        const V2 t0 = add(mul_xi(sub(mul(add(a.c1, a.c2), b1), bb)), aa);
        const V2 t1 = sub(sub(mul(b01, add(a.c0, a.c1)), aa), bb);
        const V2 t2 = add(sub(mul(add(a.c0, a.c2), b0), aa), bb);
        return {t0, t1, t2};
    }
    CUZK_IFMA static V12 sqr(const V12& a) {
        const V6 ab = mul(a.c0, a.c1);
        const V6 t = sub(sub(mul(add(a.c0, a.c1), add(a.c0, mul_v(a.c1))), ab), mul_v(ab));
        return {t, dbl(ab)};
    }
    // times 1 + (a3 + a4 v) w: the D-type twist's normalized line (Field12::mul_1_34)
    CUZK_IFMA static V12 mul_1_34(const V12& f, const V2& a3, const V2& a4) {
        const V2 a34 = add(a3, a4);
        return {add(mul_v(mul_01(f.c1, a3, a4, a34)), f.c0), add(mul_01(f.c0, a3, a4, a34), f.c1)};
    }
    // times (a0 + a1 v) + v w: the M-type twist's normalized line (Field12::mul_01_v)
    CUZK_IFMA static V12 mul_01_v(const V12& f, const V2& a0, const V2& a1) {
        const V2 a01 = add(a0, a1);
        return {add(mul_01(f.c0, a0, a1, a01), mul_v(mul_v(f.c1))), add(mul_01(f.c1, a0, a1, a01), mul_v(f.c0))};
    }
    CUZK_IFMA_INLINE static inline V6 blend(__mmask8 m, const V6& a, const V6& b) {
        return {L2::blend(m, a.c0, b.c0), L2::blend(m, a.c1, b.c1), L2::blend(m, a.c2, b.c2)};
    }
    CUZK_IFMA_INLINE static inline V12 blend(__mmask8 m, const V12& a, const V12& b) { return {blend(m, a.c0, b.c0), blend(m, a.c1, b.c1)}; }

    // ---- between the lanes and the ordinary form ----
    static void put(V& v, int lane, const Fp& x) {
        uint64_t w[K];
        L::to_lanes_form(x, w);
        lanes::lane_put<K>(v, lane, w);
    }
    static void put(V2& v, int lane, const F2& x) {
        uint64_t w[2 * K];
        L2::to_lanes_form(x, w);
        lanes::lane_put<2 * K>(v, lane, w);
    }
    static Fp get(const V& v, int lane) {
        uint64_t w[K];
        lanes::lane_get<K>(v, lane, w);
        return L::from_lanes_form(w);
    }
    static F2 get(const V2& v, int lane) {
        uint64_t w[2 * K];
        lanes::lane_get<2 * K>(v, lane, w);
        return L2::from_lanes_form(w);
    }
    static F12 get(const V12& f, int lane) {
        return {{get(f.c0.c0, lane), get(f.c0.c1, lane), get(f.c0.c2, lane)}, {get(f.c1.c0, lane), get(f.c1.c1, lane), get(f.c1.c2, lane)}};
    }
    static V one() {
        V v;
        for (int lane = 0; lane < 8; lane++) lanes::lane_put<K>(v, lane, L::one_words());
        return v;
    }

    // A group's pairs: their running points (rx, ry), their G2 points on their scaled twists (qx,
    // qy; -qy), the point a step adds (ax, ay), the line factors k, and a step's denominators with
    // their norms and the running product of the norms before them.
    struct alignas(64) Group {
        V2 rx, ry, qx, qy, nqy, ax, ay, d;
        V k, norm, pre;
    };

    // What run() did.
    enum Outcome {
        DONE,         // f and ends hold the loop's value and end points
        NOT_SCALED,   // a pair's G1 point has xP or yP zero (no point of G1 has): affine_loop runs them
        ZERO_SLOPE,   // a slope's denominator is zero (a G2 point not of order r): the projective loop runs them
    };

    // Pairing<T>::affine_loop's contract: f (one on entry) times the live pairs' loops and the
    // fixed pairs' prepared lines, the pairs' end points in ends; f is spoiled unless DONE.
    CUZK_IFMA static Outcome run(F12& f, const G2A* q, const std::vector<std::size_t>& live, const PFactors* pp,
                                 const NLine* const* lines, const std::vector<std::size_t>& fixed, std::vector<Proj>& ends) {
        const std::size_t m = live.size();
        for (std::size_t i = 0; i < m; i++) {
            if (!pp[i].scaled) return NOT_SCALED;
        }
        const std::size_t ng = (m + 7) / 8;
        const __mmask8 last = (__mmask8)((m % 8) == 0 ? 0xff : (1u << (m % 8)) - 1);  // the last group's real lanes
        std::unique_ptr<Group[]> g(new Group[ng]);
        // the scales t = xP/yP and k = yP^2/xP^3, and each pair's G2 point on its scaled twist, as in affine_loop
        std::vector<Fp> t(m);
        std::vector<G2A> qs(m);
        for (std::size_t i = 0; i < m; i++) {
            const Fp s = pp[i].y * pp[i].xinv;  // 1/t
            t[i] = pp[i].xy;
            const Fp t2 = t[i].sqr();
            const G2A& qi = q[live[i]];
            qs[i] = G2A{qi.x.mul_base(t2), qi.y.mul_base(t2 * t[i])};
            const std::size_t slot = i / 8;
            const int lane = (int)(i % 8);
            put(g[slot].k, lane, pp[i].yinv * (s.sqr() * s));
            put(g[slot].qx, lane, qs[i].x);
            put(g[slot].qy, lane, qs[i].y);
            put(g[slot].nqy, lane, -qs[i].y);
        }
        // the last group's unused lanes repeat its first pair
        for (int lane = (int)(m % 8); lane > 0 && lane < 8; lane++) {
            Group& l = g[ng - 1];
            const std::size_t i = 8 * (ng - 1);
            put(l.k, lane, get(l.k, 0));
            put(l.qx, lane, qs[i].x);
            put(l.qy, lane, qs[i].y);
            put(l.nqy, lane, -qs[i].y);
        }
        for (std::size_t s = 0; s < ng; s++) {
            g[s].rx = g[s].qx;
            g[s].ry = g[s].qy;
        }
        V12 fl;  // the lanes' f: one
        std::memset(&fl, 0, sizeof fl);
        {
            const V o = one();
            std::memcpy(fl.c0.c0.l, o.l, sizeof o.l);
        }
        const V ones = one();
        // the schedule's steps, recorded first: a lambda is not compiled for AVX-512 (no target
        // attribute carries into it), so the steps run in this function's own loop
        std::vector<int8_t> steps;
        Pair::schedule([&] { steps.push_back(SQUARE); }, [&](int kind) { steps.push_back((int8_t)kind); });
        int li = 0;
        for (const int kind : steps) {
            if (kind == SQUARE) {
                f = f.sqr();
                fl = sqr(fl);
                continue;
            }
            if (kind == 2 || kind == 3) {  // BN254's last two: pi(Q) and -pi^2(Q), made in the ordinary form
                for (std::size_t s = 0; s < ng; s++) {
                    for (int lane = 0; lane < 8; lane++) {
                        const std::size_t i = 8 * s + lane < m ? 8 * s + lane : 8 * s;
                        const G2A a = kind == 2 ? Pair::frobenius_twist(qs[i]) : Pair::frobenius_twist(Pair::frobenius_twist(qs[i])).neg();
                        put(g[s].ax, lane, a.x);
                        put(g[s].ay, lane, a.y);
                    }
                }
            }
            V acc = ones;
            for (std::size_t s = 0; s < ng; s++) {
                Group& l = g[s];
                if (kind == 1 || kind == -1) {
                    l.ax = l.qx;
                    l.ay = kind == 1 ? l.qy : l.nqy;
                }
                l.d = kind == 0 ? dbl(l.ry) : sub(l.ax, l.rx);
                l.norm = add(mul(lo(l.d), lo(l.d)), mul(hi(l.d), hi(l.d)));
                l.pre = acc;
                acc = mul(acc, l.norm);
            }
            V inv;
            if (!L::invert(acc, inv)) return ZERO_SLOPE;  // a norm is zero only for d = 0
            for (std::size_t s = ng; s-- > 0;) {
                Group& l = g[s];
                const V ni = mul(inv, l.pre);
                inv = mul(inv, l.norm);
                const V2 dinv = join(mul(lo(l.d), ni), L::sub_r(V{}, mul(hi(l.d), ni)));
                V2 lambda, x3;
                if (kind == 0) {
                    const V2 xx = sqr(l.rx);
                    lambda = mul(add(dbl(xx), xx), dinv);
                    x3 = sub(sqr(lambda), dbl(l.rx));
                } else {
                    lambda = mul(sub(l.ay, l.ry), dinv);
                    x3 = sub(sub(sqr(lambda), l.rx), l.ax);
                }
                const V2 s0k = mul_base(sub(mul(lambda, l.rx), l.ry), l.k);
                l.ry = sub(mul(lambda, sub(l.rx, x3)), l.ry);
                l.rx = x3;
                const V12 nf = T::M_TWIST ? mul_01_v(fl, s0k, neg(lambda)) : mul_1_34(fl, neg(lambda), s0k);
                fl = s + 1 == ng && last != 0xff ? blend(last, fl, nf) : nf;
            }
            for (std::size_t j = 0; j < fixed.size(); j++) Pair::ell_n(f, lines[fixed[j]][li].s0, lines[fixed[j]][li].s1, pp[m + j]);
            li++;
        }
        for (int lane = 0; lane < 8; lane++) f = f * get(fl, lane);
        // (rx, ry) on the scaled twist is (t^2 x, t^3 y): homogeneously (rx t : ry : t^3)
        for (std::size_t i = 0; i < m; i++) {
            const Group& l = g[i / 8];
            const int lane = (int)(i % 8);
            const Fp t3 = t[i].sqr() * t[i];
            ends.push_back({get(l.rx, lane).mul_base(t[i]), get(l.ry, lane), F2{t3, Fp::zero()}});
        }
        return DONE;
    }
};

CUZK_NS_END
#endif
