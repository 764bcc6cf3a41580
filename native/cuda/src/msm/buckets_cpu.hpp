// The batched affine buckets' arithmetic in scalar field code: the portable and x86-adx paths
// (one source, built once per path with its own Montgomery product).
#pragma once
#include <cstdint>
#include <vector>

#include "cuzk/curve.hpp"
#include "msm/base_array.hpp"
#include "msm/buckets.hpp"
#include "runtime/host_memory.hpp"

CUZK_NS_BEGIN

// The policy of BatchedBuckets (see buckets.hpp): the buckets as Affine points, one batch's
// additions at a time with one inversion. Every addition joins a batch: the batch tells the
// generic case, doublings and cancellations apart itself.
template <class G>
class ScalarBatch {
    using F = typename G::F;
    using A = Affine<G>;
    enum : uint8_t { ADD = 0, DOUBLE = 1, CANCEL = 2 };

    BaseArray<G> bases_;
    HostVector<A> bucket_;
    HostVector<F> denom_, prefix_;
    std::vector<uint8_t> kind_;

public:
    using Group = G;

    ScalarBatch(const BaseArray<G>& bases, size_t buckets, size_t capacity)
        : bases_(bases), bucket_(buckets), denom_(2 * capacity), prefix_(2 * capacity), kind_(2 * capacity) {}

    void set(uint32_t b, uint64_t index, bool negate) {
        const A p = bases_[index];
        bucket_[b] = negate ? p.neg() : p;
    }

    static constexpr bool joins(uint32_t, uint64_t) { return true; }

    void add_batch(const BucketAddition* batch, size_t k, uint8_t* state) {
        F acc = F::one();
        for (size_t i = 0; i < k; i++) {
            const BucketAddition& e = batch[i];
            const A& b = bucket_[e.bucket];
            const A p = bases_[e.index];
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
        F inv = acc.inv_vartime();
        for (size_t i = k; i-- > 0;) {
            const BucketAddition& e = batch[i];
            A& b = bucket_[e.bucket];
            F inv_i = i ? inv * prefix_[i - 1] : inv;
            inv = inv * denom_[i];
            if (kind_[i] == CANCEL) {
                state[e.bucket] = BUCKET_EMPTY;
                continue;
            }
            const A p = bases_[e.index];
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
            state[e.bucket] = BUCKET_FULL;
        }
    }

    const A& affine(size_t b) const { return bucket_[b]; }
};

// The buckets of the portable and x86-adx paths.
template <class G>
using BatchAffineBuckets = BatchedBuckets<ScalarBatch<G>>;

CUZK_NS_END
