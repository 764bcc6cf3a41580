// Multi-scalar multiplication on the CPU: the bucket method over signed (Booth-recoded) windows.
//
// A scalar k < 2^bits is cut into W = ceil((bits + 1) / c) digits d_w in [-2^(c-1), 2^(c-1)],
// d_w = ((v + 1) >> 1) - ((v >> c) << c) where v holds bits [wc - 1, wc + c) of k (bit -1 = 0),
// so k = sum d_w 2^(wc) and each window needs only 2^(c-1) buckets: a negative digit adds the
// negated point. Every digit is computed from the scalar alone, with no carry between windows,
// so windows (and slices of the points) are independent tasks spread over threads.
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "cuzk/curve.hpp"
#include "cuzk/gpu/msm.hpp"
#include "errors.hpp"
#include "ifma.hpp"
#include "pool.hpp"

CUZK_NS_BEGIN

using gpu::booth_digit;

// Window width for n points of a `bits`-bit scalar field: minimises windows x (n bucket
// additions + the 2 * 2^(c-1) additions of the running-sum reduction, weighted as full adds).
inline int msm_window_bits(uint64_t n, int bits) {
    int best_c = 2;
    double best = 1e300;
    for (int c = 2; c <= 20; c++) {
        double w = std::ceil((bits + 1) / (double)c);
        double cost = w * ((double)n + 1.4 * std::ldexp(1.0, c));
        if (cost < best) {
            best = cost;
            best_c = c;
        }
    }
    return best_c;
}

// Buckets held in affine form, filled by additions that are gathered into batches so that one
// field inversion (Montgomery's trick) serves the whole batch: an addition then costs about 6
// multiplications instead of the 10 of a mixed XYZZ addition. A batch holds at most one addition
// per bucket: an addition into a bucket already waiting is put off to the next batch, and if its
// bucket is taken there too, it goes to the bucket's XYZZ overflow sum. So skewed digit
// distributions (the top window, repeated scalars) cost no more than the plain XYZZ method.
template <class G>
class BatchAffineBuckets {
    using F = typename G::F;
    using A = Affine<G>;
    using P = XYZZ<G>;
    enum : uint8_t { EMPTY = 0, FULL = 1, PENDING = 2 };
    enum : uint8_t { ADD = 0, DOUBLE = 1, CANCEL = 2 };
    struct Entry {
        uint32_t bucket;
        uint32_t negate;
        const A* point;
    };

    std::vector<A> bucket_;
    std::vector<uint8_t> state_;
    std::vector<P> overflow_;
    std::vector<Entry> batch_, deferred_, retry_;
    std::vector<F> denom_, prefix_;
    std::vector<uint8_t> kind_;
    size_t capacity_;

    void compute_batch() {
        const size_t k = batch_.size();
        F acc = F::one();
        for (size_t i = 0; i < k; i++) {
            const Entry& e = batch_[i];
            const A& b = bucket_[e.bucket];
            const A& p = *e.point;
            F dx = p.x - b.x;
            if (!dx.is_zero()) {
                kind_[i] = ADD;
                denom_[i] = dx;
            } else {
                F py = e.negate ? -p.y : p.y;
                if (py == b.y && !py.is_zero()) {
                    kind_[i] = DOUBLE;
                    denom_[i] = py.dbl();
                } else {
                    kind_[i] = CANCEL;  // p = -b: the bucket empties
                    denom_[i] = F::one();
                }
            }
            acc = acc * denom_[i];
            prefix_[i] = acc;
        }
        F inv = acc.inv();
        for (size_t i = k; i-- > 0;) {
            const Entry& e = batch_[i];
            A& b = bucket_[e.bucket];
            F inv_i = i ? inv * prefix_[i - 1] : inv;
            inv = inv * denom_[i];
            if (kind_[i] == CANCEL) {
                state_[e.bucket] = EMPTY;
                continue;
            }
            const A& p = *e.point;
            F lambda;
            if (kind_[i] == ADD) {
                F py = e.negate ? -p.y : p.y;
                lambda = (py - b.y) * inv_i;
            } else {
                F xx = b.x.sqr();
                lambda = (xx.dbl() + xx) * inv_i;
            }
            F x3 = lambda.sqr() - b.x - p.x;
            b.y = lambda * (b.x - x3) - b.y;
            b.x = x3;
            state_[e.bucket] = FULL;
        }
        batch_.clear();
    }

public:
    BatchAffineBuckets(size_t buckets, size_t capacity)
        : bucket_(buckets), state_(buckets, EMPTY), overflow_(buckets, P::infinity()), denom_(2 * capacity),
          prefix_(2 * capacity), kind_(2 * capacity), capacity_(capacity) {
        batch_.reserve(2 * capacity);
        deferred_.reserve(capacity);
        retry_.reserve(capacity);
    }

private:
    // Queues the addition; a busy bucket puts it off once (deferrable) or sends it to the overflow.
    void push(uint32_t b, const A* p, bool negate, bool deferrable) {
        uint8_t& st = state_[b];
        if (st == EMPTY) {
            bucket_[b] = negate ? p->neg() : *p;
            st = FULL;
        } else if (st == FULL) {
            st = PENDING;
            batch_.push_back({b, negate, p});
        } else if (deferrable && deferred_.size() < capacity_) {
            deferred_.push_back({b, negate, p});
        } else if (negate) {
            overflow_[b].sub_affine(*p);
        } else {
            overflow_[b].add_affine(*p);
        }
    }

    void run_batch() {
        compute_batch();
        std::swap(deferred_, retry_);
        for (const Entry& e : retry_) push(e.bucket, e.point, e.negate != 0, false);
        retry_.clear();
    }

public:
    // bucket[b] += (negate ? -p : p); p must not be infinity.
    void add(uint32_t b, const A* p, bool negate) {
        push(b, p, negate, true);
        if (batch_.size() >= capacity_) run_batch();
    }

    // Completes the pending additions; then bucket b holds affine(b) + overflow(b).
    void finish() {
        while (!batch_.empty() || !deferred_.empty()) run_batch();
    }

    // running += bucket b
    void add_to(size_t b, P& running) const {
        if (state_[b] != EMPTY) running.add_affine(bucket_[b]);
        running.add(overflow_[b]);
    }
};

// Below this many points per task the affine batches do not pay for their inversions.
constexpr size_t MSM_BATCH_AFFINE_MIN = 512;
#if defined(CUZK_BATCH_IFMA)
// Most points the x86-ifma path converts (above it, its copy of the bases would cost too much
// memory), and its largest batch.
constexpr uint64_t MSM_IFMA_MAX_POINTS = (uint64_t)1 << 23;
#ifndef MSM_IFMA_BATCH
#define MSM_IFMA_BATCH 1024
#endif
#endif

template <class G>
void msm_cpu(const Affine<G>* bases, const uint64_t* scalars, uint64_t n, bool montgomery,
             unsigned window_bits, unsigned threads, Affine<G>* out) {
    using Fr = typename G::Fr;
    using P = XYZZ<G>;
    threads = resolve_threads(threads);
    if (n == 0) {
        *out = Affine<G>::infinity();
        return;
    }
    const int bits = Fr::Params::BITS;

    // Scalars: canonical and below r. Montgomery inputs leave Montgomery form; canonical inputs
    // at or above r (any 256-bit value is accepted) are reduced. Copy only when needed.
    const uint64_t* k = scalars;
    std::unique_ptr<uint64_t[]> reduced;
    {
        std::atomic<bool> need_copy{montgomery};
        const size_t chunk = 1 << 14;
        const size_t chunks = (n + chunk - 1) / chunk;
        if (!montgomery) {
            parallel_for(threads, chunks, [&](size_t c) {
                size_t end = std::min<size_t>(n, (c + 1) * chunk);
                for (size_t i = c * chunk; i < end; i++) {
                    if (!Fr::is_canonical(scalars + 4 * i)) {
                        need_copy.store(true, std::memory_order_relaxed);
                        return;
                    }
                }
            });
        }
        if (need_copy.load()) {
            reduced.reset(new uint64_t[4 * n]);
            uint64_t* dst = reduced.get();
            parallel_for(threads, chunks, [&](size_t c) {
                size_t end = std::min<size_t>(n, (c + 1) * chunk);
                for (size_t i = c * chunk; i < end; i++) {
                    Fr v;
                    std::memcpy(v.l, scalars + 4 * i, 32);
                    if (montgomery) {
                        v = v.from_mont();
                    } else {
                        const Limbs<4> r = Fr::Params::modulus();
                        while (!Fr::is_canonical(v.l)) {
                            uint64_t borrow = 0;
                            for (int j = 0; j < 4; j++) borrow = sub_borrow(v.l[j], r.v[j], borrow, v.l[j]);
                        }
                    }
                    std::memcpy(dst + 4 * i, v.l, 32);
                }
            });
            k = dst;
        }
    }

    const int c = window_bits ? (int)window_bits : msm_window_bits(n, bits);
    const int windows = (bits + 1 + c - 1) / c;
    const size_t buckets = (size_t)1 << (c - 1);
    // Split the points too when windows alone cannot keep every thread busy.
    size_t splits = 1;
    if ((size_t)threads * 2 > (size_t)windows) splits = ((size_t)threads * 2 + windows - 1) / windows;
    if (splits > n) splits = n;
    const size_t per_split = (n + splits - 1) / splits;

#if defined(CUZK_BATCH_IFMA)
    // The x86-ifma path does the batched additions eight at a time; it needs the bases in its
    // own form, a copy of 2 x 8 x K bytes per point (K 52-bit limbs per Fp element: 128 bytes for
    // a BLS12-381 G1 point, 256 in G2) made once per call; capped, so that very large calls use
    // the scalar batches instead of more than doubling their memory.
    constexpr bool has_lanes = lanes::algebra_of<typename G::F>::exists;
    std::unique_ptr<std::conditional_t<has_lanes, lanes::LanesPoint<G>, char>[]> lanes;
    if constexpr (has_lanes) {
        if (per_split >= MSM_BATCH_AFFINE_MIN && n <= MSM_IFMA_MAX_POINTS) lanes = lanes::lanes_bases(bases, n, threads);
    }
#endif

    std::vector<P> partial((size_t)windows * splits, P::infinity());
    parallel_for(threads, (size_t)windows * splits, [&](size_t task) {
        const int w = (int)(task / splits);
        const size_t s = task % splits;
        const size_t begin = s * per_split;
        const size_t end = std::min<size_t>(n, begin + per_split);
        // sum_{j} (j + 1) * bucket[j] by running sums from the top.
        P running = P::infinity(), acc = P::infinity();
#if defined(CUZK_BATCH_IFMA)
        if constexpr (has_lanes) {
            if (lanes && end - begin >= MSM_BATCH_AFFINE_MIN) {
                lanes::IfmaBuckets<G> bucket(bases, lanes.get(), buckets,
                                            std::min<size_t>(MSM_IFMA_BATCH, std::max<size_t>(64, buckets / 2)));
                for (size_t i = begin; i < end; i++) {
                    int d = booth_digit(k + 4 * i, w, c);
                    if (d == 0 || bases[i].is_inf()) continue;
                    if (d > 0) bucket.add((uint32_t)(d - 1), i, false);
                    else bucket.add((uint32_t)(-d - 1), i, true);
                }
                bucket.finish();
                for (size_t j = buckets; j-- > 0;) {
                    bucket.add_to(j, running);
                    acc.add(running);
                }
                partial[task] = acc;
                return;
            }
        }
#endif
        if (end - begin >= MSM_BATCH_AFFINE_MIN) {
            BatchAffineBuckets<G> bucket(buckets, std::min<size_t>(1024, std::max<size_t>(64, buckets / 4)));
            for (size_t i = begin; i < end; i++) {
                int d = booth_digit(k + 4 * i, w, c);
                if (d == 0 || bases[i].is_inf()) continue;
                if (d > 0) bucket.add((uint32_t)(d - 1), &bases[i], false);
                else bucket.add((uint32_t)(-d - 1), &bases[i], true);
            }
            bucket.finish();
            for (size_t j = buckets; j-- > 0;) {
                bucket.add_to(j, running);
                acc.add(running);
            }
        } else {
            std::vector<P> bucket(buckets, P::infinity());
            for (size_t i = begin; i < end; i++) {
                int d = booth_digit(k + 4 * i, w, c);
                if (d == 0) continue;
                const Affine<G>& b = bases[i];
                if (b.is_inf()) continue;
                if (d > 0) bucket[d - 1].add_affine(b);
                else bucket[-d - 1].sub_affine(b);
            }
            for (size_t j = buckets; j-- > 0;) {
                running.add(bucket[j]);
                acc.add(running);
            }
        }
        partial[task] = acc;
    });

    P result = P::infinity();
    for (int w = windows - 1; w >= 0; w--) {
        for (int i = 0; i < c; i++) result = result.dbl();
        for (size_t s = 0; s < splits; s++) result.add(partial[(size_t)w * splits + s]);
    }
    *out = result.to_affine();
}

CUZK_NS_END
