// The x86-ifma path's MSM buckets: the batched affine additions eight at a time in the lanes of
// arith/lanes_ifma.hpp (only compiled into that path; see there).
#pragma once
#if defined(CUZK_BATCH_IFMA) && !defined(__CUDA_ARCH__)
#include <memory>
#include <type_traits>
#include <vector>

#include "arith/lanes_ifma.hpp"
#include "cuzk/curve.hpp"
#include "msm/base_array.hpp"
#include "msm/bucket_sum.hpp"
#include "msm/buckets.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/pool.hpp"

CUZK_NS_BEGIN
namespace lanes {

// An affine point in the lanes form (canonical 52-bit limbs of x*R', y*R').
template <class G>
struct LanesPoint {
    static constexpr int W = algebra_of<typename G::F>::type::W;
    uint64_t x[W], y[W];
};

// Converts the bases to the lanes form (one scalar product per coordinate), over threads.
template <class G>
HostArray<LanesPoint<G>> lanes_bases(const BaseArray<G>& bases, uint64_t n, unsigned threads) {
    using L = typename algebra_of<typename G::F>::type;
    HostArray<LanesPoint<G>> out(n, Fill::SCRATCH);  // every element is written below
    L::one_words();  // initialise the constants once, before the threads
    const size_t chunk = 1 << 12;
    parallel_for(threads, (n + chunk - 1) / chunk, [&](size_t c) {
        const uint64_t end = std::min<uint64_t>(n, (c + 1) * chunk);
        for (uint64_t i = c * chunk; i < end; i++) {
            const Affine<G> b = bases[i];
            L::to_lanes_form(b.x, out[i].x);
            L::to_lanes_form(b.y, out[i].y);
        }
    });
    return out;
}

// The arithmetic of the x86-ifma path's batched affine buckets (the policy of BatchedBuckets; see
// buckets.hpp): a batch's additions eight at a time, entry i of a batch in lane i % 8; each lane
// keeps its own running product for Montgomery's trick, and the eight lane products are inverted
// together with one scalar inversion. Additions whose x equals the bucket's (doubling,
// cancellation) do not join a batch but go to the overflow, so the vector code only ever sees the
// generic case. The buckets are kept in the lanes form.
template <class G>
class IfmaBatch {
    using F = typename G::F;
    using A = Affine<G>;
    using L = typename algebra_of<F>::type;
    using LP = LanesPoint<G>;
    using V = typename L::V;
    static constexpr int K = L::W;  // words per coordinate
    // Whether add_batch sums two slots at a time: faster in G1 (BN254 G1 MSMs 5-9 %); in G2
    // each Fp2 product already holds three independent ones, and pairing was 5 % slower.
    static constexpr bool PAIRED = L::W == L::K;
    struct alignas(64) Slot {
        V x1, y1, x2, y2, dx, prefix;
    };

    const LP* lanes_ = nullptr;
    // Each task makes its own, in one buffer from host_alloc's pool, whose pages the tasks of any
    // later MSM (of either group, G2's buckets being the larger) or another kernel then reuse:
    // the buckets, then the batch's slots; both are written before they are read.
    HostArray<uint8_t> storage_;
    LP* bucket_;
    Slot* slots_;

    static size_t bucket_bytes(size_t buckets) { return (buckets * sizeof(LP) + 63) / 64 * 64; }
    static size_t slot_count(size_t capacity) { return (2 * capacity + 15) / 16 * 2; }  // a batch holds at most 2 * capacity additions

    // Slot s's inverse from `inv`, the inverse of the running product up to slot s; moves `inv`
    // down to slot s - 1.
    CUZK_IFMA_INLINE V inverse(size_t s, V& inv) const {
        if (!s) return inv;
        const V r = L::mul(inv, slots_[s - 1].prefix);
        inv = L::mul(inv, slots_[s].dx);
        return r;
    }

    // Slot s's operands: the buckets' points (x1, y1) and the bases (x2, y2, negated where the
    // entry says so); the lanes past the batch's k entries add (1, 0) to (0, 0), a harmless
    // non-zero denominator. G1 gathers them with AVX-512 gathers (one per word), G2 word by word.
    CUZK_IFMA_INLINE void load_slot(const BucketAddition* batch, size_t s, size_t k, Slot& sl) const {
        static const struct Padding {
            LP bucket{}, point{};
            Padding() { std::memcpy(point.x, L::one_words(), sizeof point.x); }
        } pad;
        if constexpr (PAIRED) {
            alignas(64) uint64_t at_b[8], at_p[8];
            unsigned neg = 0;
            for (int lane = 0; lane < 8; lane++) {
                const size_t i = 8 * s + lane;
                const bool real = i < k;
                at_b[lane] = (uint64_t)(uintptr_t)(real ? &bucket_[batch[i].bucket] : &pad.bucket);
                at_p[lane] = (uint64_t)(uintptr_t)(real ? &lanes_[batch[i].index] : &pad.point);
                neg |= real ? batch[i].negate << lane : 0;
            }
            const __m512i vb = _mm512_load_si512(at_b), vp = _mm512_load_si512(at_p);
            L::gather(vb, 0, sl.x1);
            L::gather(vb, K, sl.y1);
            L::gather(vp, 0, sl.x2);
            L::gather(vp, K, sl.y2);
            if (neg) L::neg_where((__mmask8)neg, sl.y2);
        } else {
            for (int lane = 0; lane < 8; lane++) {
                const size_t i = 8 * s + lane;
                const LP& b = i < k ? bucket_[batch[i].bucket] : pad.bucket;
                const LP& p = i < k ? lanes_[batch[i].index] : pad.point;
                lane_put<K>(sl.x1, lane, b.x);
                lane_put<K>(sl.y1, lane, b.y);
                lane_put<K>(sl.x2, lane, p.x);
                if (i < k && batch[i].negate) {
                    uint64_t ny[K];
                    L::neg(p.y, ny);
                    lane_put<K>(sl.y2, lane, ny);
                } else {
                    lane_put<K>(sl.y2, lane, p.y);
                }
            }
        }
    }

    // The inverses of the eight lane values of acc, with one inversion (Montgomery's trick again).
    CUZK_IFMA static V invert_lanes(const V& acc) {
        F prod[8], pre[8];
        for (int lane = 0; lane < 8; lane++) {
            uint64_t w[K];
            lane_get<K>(acc, lane, w);
            prod[lane] = L::from_lanes_form(w);
            pre[lane] = lane ? pre[lane - 1] * prod[lane] : prod[lane];
        }
        F t = pre[7].inv_vartime();
        V inv;
        for (int lane = 7; lane >= 0; lane--) {
            F li = lane ? t * pre[lane - 1] : t;
            t = t * prod[lane];
            uint64_t w[K];
            L::to_lanes_form(li, w);
            lane_put<K>(inv, lane, w);
        }
        return inv;
    }

public:
    using Group = G;

    IfmaBatch(const BaseArray<G>&, size_t buckets, size_t capacity, const LP* lanes)
        : lanes_(lanes),
          storage_(bucket_bytes(buckets) + slot_count(capacity) * sizeof(Slot), Fill::SCRATCH),
          bucket_(reinterpret_cast<LP*>(storage_.get())),
          slots_(reinterpret_cast<Slot*>(storage_.get() + bucket_bytes(buckets))) {}
    IfmaBatch(const IfmaBatch&) = delete;
    IfmaBatch& operator=(const IfmaBatch&) = delete;

    void set(uint32_t b, uint64_t index, bool negate) {
        const LP& p = lanes_[index];
        std::memcpy(bucket_[b].x, p.x, sizeof p.x);
        if (negate) L::neg(p.y, bucket_[b].y);
        else std::memcpy(bucket_[b].y, p.y, sizeof p.y);
    }

    // Equal x (a doubling or a cancellation) goes to the overflow. Buckets are canonical, so
    // comparing words tells.
    bool joins(uint32_t b, uint64_t index) const { return !L::equal(bucket_[b].x, lanes_[index].x); }

    CUZK_IFMA void add_batch(const BucketAddition* batch, size_t k, uint8_t* state) {
        // slots of eight additions; an even number where they are summed in pairs (see below)
        const size_t ns = PAIRED ? (k + 15) / 16 * 2 : (k + 7) / 8;
        // Loads each slot's operands and extends the running product.
        V acc;
        for (size_t s = 0; s < ns; s++) {
            Slot& sl = slots_[s];
            load_slot(batch, s, k, sl);
            sl.dx = L::sub_p(sl.x2, sl.x1);
            acc = s ? L::mul(acc, sl.dx) : sl.dx;
            sl.prefix = acc;
        }
        V inv = invert_lanes(acc);
        // From the last slot down: the slot's inverse (one product on the chain, one off it),
        // then its sums.
        auto store = [&](size_t s, const V& x3, const V& y3) {
            const size_t first = 8 * s;
            for (int lane = 0; lane < 8 && first + lane < k; lane++) {
                const BucketAddition& e = batch[first + lane];
                LP& b = bucket_[e.bucket];
                lane_get<K>(x3, lane, b.x);
                lane_get<K>(y3, lane, b.y);
                state[e.bucket] = BUCKET_FULL;
            }
        };
        if constexpr (PAIRED) {
            // Two slots at a time, their steps interleaved: their products are independent, so
            // one slot's multiplications fill the other's latencies.
            for (size_t s = ns; s >= 2; s -= 2) {
                const Slot& u = slots_[s - 1];
                const Slot& v = slots_[s - 2];
                const V iu = inverse(s - 1, inv);
                const V iv = inverse(s - 2, inv);
                const V lu = L::mul(L::sub_p(u.y2, u.y1), iu);
                const V lv = L::mul(L::sub_p(v.y2, v.y1), iv);
                V xu = L::sub_p(L::sub_p(L::mul(lu, lu), u.x1), u.x2);  // below 4p
                V xv = L::sub_p(L::sub_p(L::mul(lv, lv), v.x1), v.x2);
                for (int r = 0; r < 3; r++) {
                    L::reduce_p(xu);
                    L::reduce_p(xv);
                }
                V yu = L::sub_p(L::mul(lu, L::sub_p(u.x1, xu)), u.y1);  // below 3p
                V yv = L::sub_p(L::mul(lv, L::sub_p(v.x1, xv)), v.y1);
                for (int r = 0; r < 2; r++) {
                    L::reduce_p(yu);
                    L::reduce_p(yv);
                }
                store(s - 1, xu, yu);
                store(s - 2, xv, yv);
            }
        } else {
            for (size_t s = ns; s-- > 0;) {
                const Slot& u = slots_[s];
                const V lu = L::mul(L::sub_p(u.y2, u.y1), inverse(s, inv));
                V xu = L::sub_p(L::sub_p(L::mul(lu, lu), u.x1), u.x2);  // below 4p
                for (int r = 0; r < 3; r++) L::reduce_p(xu);
                V yu = L::sub_p(L::mul(lu, L::sub_p(u.x1, xu)), u.y1);  // below 3p
                for (int r = 0; r < 2; r++) L::reduce_p(yu);
                store(s, xu, yu);
            }
        }
    }

    A affine(size_t b) const { return A{L::from_lanes_form(bucket_[b].x), L::from_lanes_form(bucket_[b].y)}; }

    // Bucket b (not empty) in the lanes form.
    const LP& point(size_t b) const { return bucket_[b]; }
};

// The x86-ifma path's buckets: the batched affine buckets over IfmaBatch, and their weighted sum
// in the lanes too.
template <class G>
class IfmaBuckets : public BatchedBuckets<IfmaBatch<G>> {
    using Base = BatchedBuckets<IfmaBatch<G>>;
    using F = typename G::F;
    using A = Affine<G>;
    using P = XYZZ<G>;
    using L = typename algebra_of<F>::type;
    using V = typename L::V;
    static constexpr int K = L::W;  // words per coordinate
    using Base::arith_;
    using Base::overflow_;
    using Base::overflow_at_;
    using Base::overflow_bucket_;
    using Base::overflow_used_;
    using Base::state_;

public:
    // Empty buckets for one task; a batch runs when `capacity` additions wait.
    IfmaBuckets(const BaseArray<G>& bases, const LanesPoint<G>* lanes, size_t buckets, size_t capacity)
        : Base(bases, buckets, capacity, lanes) {}

    // sum over the buckets b of w(b) * bucket b, w(b) = b / spread + 1 (the digit of b, see
    // bucket_sum.hpp's reduce_spread), after finish(). The running sums of the bucket method are
    // sequential, so each lane takes a contiguous eighth of the buckets: from the top of its
    // part, running += bucket b, and at each digit's first bucket acc += running, all in XYZZ
    // coordinates in the lanes; acc then holds sum (w(b) - w(lo) + 1) * bucket b over the part
    // [lo, hi), and the part's share is acc + (w(lo) - 1) * running. Lanes meeting a doubling or
    // an inverse (equal x) take that step in scalar code; the overflow sums are added apart.
    CUZK_IFMA P weighted_sum(size_t spread) const {
        const size_t nb = state_.size();
        P total = P::infinity();
        if (nb < 64 || nb % 8 != 0) {
            P running = P::infinity();
            reduce_spread(nb, spread, running, total, [&](size_t j, P& into) { this->add_to(j, into); });
            return total;
        }
        const size_t part = nb / 8;
        LX run{}, acc{};
        for (LX* v : {&run, &acc}) {
            for (int lane = 0; lane < 8; lane++) put_xyzz(*v, lane, P::infinity());
        }
        __mmask8 run_inf = 0xff, acc_inf = 0xff;
        static const uint64_t zero[K] = {};
        for (size_t st = part; st-- > 0;) {
            V bx, by;
            __mmask8 none = 0;
            for (int lane = 0; lane < 8; lane++) {
                const size_t b = lane * part + st;
                if (state_[b] == BUCKET_EMPTY) {
                    none |= (__mmask8)(1u << lane);
                    lane_put<K>(bx, lane, zero);
                    lane_put<K>(by, lane, zero);
                } else {
                    lane_put<K>(bx, lane, arith_.point(b).x);
                    lane_put<K>(by, lane, arith_.point(b).y);
                }
            }
            add_affine_lanes(run, run_inf, bx, by, none);
            if (st % spread == 0) add_lanes(acc, acc_inf, run, run_inf);
        }
        for (int lane = 0; lane < 8; lane++) {
            if (!(acc_inf >> lane & 1)) total.add(get_xyzz(acc, lane));
            const uint64_t below = (uint64_t)(lane * part / spread);  // w(lo) - 1
            if (below && !(run_inf >> lane & 1)) total.add(times(get_xyzz(run, lane), below));
        }
        // The overflow: each sum times its weight, or by running sums when many buckets have one.
        if (overflow_used_ * 16 <= nb) {
            for (size_t i = 0; i < overflow_used_; i++) total.add(times(overflow_[i], overflow_bucket_[i] / spread + 1));
        } else {
            P running = P::infinity();
            reduce_spread(nb, spread, running, total, [&](size_t j, P& into) {
                if (overflow_at_[j]) into.add(overflow_[overflow_at_[j] - 1]);
            });
        }
        return total;
    }

private:
    struct alignas(64) LX {
        V x, y, zz, zzz;
    };

    static P times(const P& p, uint64_t m) {
        P r = P::infinity();
        for (int bit = 63 - __builtin_clzll(m); bit >= 0; bit--) {
            r = r.dbl();
            if (m >> bit & 1) r.add(p);
        }
        return r;
    }

    static void put_xyzz(LX& v, int lane, const P& p) {
        uint64_t w[K];
        L::to_lanes_form(p.x, w);
        lane_put<K>(v.x, lane, w);
        L::to_lanes_form(p.y, w);
        lane_put<K>(v.y, lane, w);
        L::to_lanes_form(p.zz, w);
        lane_put<K>(v.zz, lane, w);
        L::to_lanes_form(p.zzz, w);
        lane_put<K>(v.zzz, lane, w);
    }
    static P get_xyzz(const LX& v, int lane) {
        uint64_t w[K];
        P p;
        lane_get<K>(v.x, lane, w);
        p.x = L::from_lanes_form(w);
        lane_get<K>(v.y, lane, w);
        p.y = L::from_lanes_form(w);
        lane_get<K>(v.zz, lane, w);
        p.zz = L::from_lanes_form(w);
        lane_get<K>(v.zzz, lane, w);
        p.zzz = L::from_lanes_form(w);
        return p;
    }
    CUZK_IFMA static inline LX blend(__mmask8 m, const LX& a, const LX& b) {
        return {L::blend(m, a.x, b.x), L::blend(m, a.y, b.y), L::blend(m, a.zz, b.zz), L::blend(m, a.zzz, b.zzz)};
    }

    // r += (bx, by) in the lanes outside `none` (madd-2008-s); r_inf marks the lanes where r is
    // infinity. Every coordinate stays below 2p.
    CUZK_IFMA static void add_affine_lanes(LX& r, __mmask8& r_inf, const V& bx, const V& by, __mmask8 none) {
        const V u2 = L::mul(bx, r.zz);
        const V s2 = L::mul(by, r.zzz);
        const V pv = L::sub_r(u2, r.x);
        const V rv = L::sub_r(s2, r.y);
        const __mmask8 both = (__mmask8)(~r_inf & ~none);
        const __mmask8 odd = both & L::zero_mask(pv);  // equal x: doubling or inverse
        const V pp = L::mul(pv, pv);
        const V ppp = L::mul(pv, pp);
        const V q = L::mul(r.x, pp);
        LX sum;
        sum.x = L::sub_r(L::sub_r(L::mul(rv, rv), ppp), L::add_r(q, q));
        sum.y = L::sub_r(L::mul(rv, L::sub_r(q, sum.x)), L::mul(r.y, ppp));
        sum.zz = L::mul(r.zz, pp);
        sum.zzz = L::mul(r.zzz, ppp);
        const V one = ones();
        const LX fresh{bx, by, one, one};
        LX out = blend((__mmask8)(both & ~odd), r, sum);
        out = blend((__mmask8)(r_inf & ~none), out, fresh);
        r = out;
        r_inf &= none;
        for (int lane = 0; lane < 8; lane++) {
            if (!(odd >> lane & 1)) continue;
            P p = get_xyzz(r, lane);
            uint64_t w[K];
            A a;
            lane_get<K>(bx, lane, w);
            a.x = L::from_lanes_form(w);
            lane_get<K>(by, lane, w);
            a.y = L::from_lanes_form(w);
            p.add_affine(a);
            put_xyzz(r, lane, p);
            if (p.is_inf()) r_inf |= (__mmask8)(1u << lane);
        }
    }

    // r += q (add-2008-s) in every lane; the masks mark infinity.
    CUZK_IFMA static void add_lanes(LX& r, __mmask8& r_inf, const LX& q, __mmask8 q_inf) {
        const V u1 = L::mul(r.x, q.zz);
        const V u2 = L::mul(q.x, r.zz);
        const V s1 = L::mul(r.y, q.zzz);
        const V s2 = L::mul(q.y, r.zzz);
        const V pv = L::sub_r(u2, u1);
        const V rv = L::sub_r(s2, s1);
        const __mmask8 both = (__mmask8)(~r_inf & ~q_inf);
        const __mmask8 odd = both & L::zero_mask(pv);
        const V pp = L::mul(pv, pv);
        const V ppp = L::mul(pv, pp);
        const V qq = L::mul(u1, pp);
        LX sum;
        sum.x = L::sub_r(L::sub_r(L::mul(rv, rv), ppp), L::add_r(qq, qq));
        sum.y = L::sub_r(L::mul(rv, L::sub_r(qq, sum.x)), L::mul(s1, ppp));
        sum.zz = L::mul(L::mul(r.zz, q.zz), pp);
        sum.zzz = L::mul(L::mul(r.zzz, q.zzz), ppp);
        LX out = blend((__mmask8)(both & ~odd), r, sum);
        out = blend((__mmask8)(r_inf & ~q_inf), out, q);
        r = out;
        r_inf &= q_inf;
        for (int lane = 0; lane < 8; lane++) {
            if (!(odd >> lane & 1)) continue;
            P p = get_xyzz(r, lane);
            p.add(get_xyzz(q, lane));
            put_xyzz(r, lane, p);
            if (p.is_inf()) r_inf |= (__mmask8)(1u << lane);
        }
    }

    CUZK_IFMA static V ones() {
        V v;
        for (int lane = 0; lane < 8; lane++) lane_put<K>(v, lane, L::one_words());
        return v;
    }
};

}  // namespace lanes
CUZK_NS_END
#endif
