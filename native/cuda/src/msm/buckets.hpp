// The rules of the batched affine buckets, written once for every CPU code path.
//
// Buckets held in affine form, filled by additions that are gathered into batches so that one
// field inversion (Montgomery's trick) serves the whole batch: an addition then costs about 6
// multiplications instead of the 10 of a mixed XYZZ addition. A batch holds at most one addition
// per bucket: an addition into a bucket already waiting is put off to a later batch (again and
// again, while the waiting list has room), and only when the list is full does it go to the
// bucket's XYZZ overflow sum, which costs about five batched additions. So skewed digit
// distributions (the top window, repeated scalars) cost no more than the plain XYZZ method.
//
// The arithmetic is a policy, Arith, that holds the buckets' points in its own form and supplies:
//   using Group;                       the group G of the points
//   Arith(bases, buckets, capacity, inputs...)
//                                      storage for the buckets and for batches of up to 2 x capacity
//                                      additions; `inputs` are the policy's own (the bases in its form)
//   void set(b, index, negate)         bucket b, empty, becomes base `index` (negated if so)
//   bool joins(b, index)               whether base `index` may be added to bucket b in a batch; an
//                                      addition that may not goes to the overflow
//   void add_batch(batch, k, state)    the k additions of batch (one per bucket); leaves each of their
//                                      buckets' state BUCKET_FULL, or BUCKET_EMPTY where the sum is
//                                      infinity
//   Affine<Group> affine(b)            bucket b (not empty) as an affine point
// The portable and x86-adx paths batch in scalar field code (buckets_cpu.hpp), the x86-ifma path
// eight additions at a time (buckets_ifma.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "cuzk/curve.hpp"
#include "msm/base_array.hpp"
#include "runtime/host_memory.hpp"

CUZK_NS_BEGIN

// A bucket's state: empty, holding a point, or holding a point with an addition in the batch.
enum BucketState : uint8_t { BUCKET_EMPTY = 0, BUCKET_FULL = 1, BUCKET_PENDING = 2 };

// bucket += (negate ? -base : base)
struct BucketAddition {
    uint32_t bucket;
    uint32_t negate;
    uint64_t index;  // of the base
};

template <class Arith>
class BatchedBuckets {
public:
    using G = typename Arith::Group;
    using P = XYZZ<G>;

    // Empty buckets for one task; a batch runs when `capacity` additions wait. Each task makes its
    // own: the large arrays come from host_alloc's pool of kept mappings, whose pages any later
    // task, MSM or kernel reuses.
    template <class... Inputs>
    BatchedBuckets(const BaseArray<G>& bases, size_t buckets, size_t capacity, Inputs&&... inputs)
        : arith_(bases, buckets, capacity, std::forward<Inputs>(inputs)...),
          bases_(bases),
          state_(buckets, BUCKET_EMPTY),
          overflow_at_(buckets, 0),
          capacity_(capacity) {
        batch_.reserve(2 * capacity);
        deferred_.reserve(capacity);
        retry_.reserve(capacity);
    }
    BatchedBuckets(const BatchedBuckets&) = delete;
    BatchedBuckets& operator=(const BatchedBuckets&) = delete;

    // bucket[b] += (negate ? -base : base); the base must not be infinity.
    void add(uint32_t b, uint64_t index, bool negate) {
        push(b, index, negate);
        if (batch_.size() >= capacity_) run_batch();
    }

    // Completes the pending additions; then bucket b holds affine(b) + overflow(b).
    void finish() {
        while (!batch_.empty() || !deferred_.empty()) run_batch();
    }

    // running += bucket b
    void add_to(size_t b, P& running) const {
        if (state_[b] != BUCKET_EMPTY) running.add_affine(arith_.affine(b));
        if (overflow_at_[b]) running.add(overflow_[overflow_at_[b] - 1]);
    }

protected:
    Arith arith_;
    BaseArray<G> bases_;
    std::vector<uint8_t> state_;
    // The XYZZ sums of the additions that could not wait in a batch (no room to wait, or an
    // addition the arithmetic does not batch) are few, so they are kept densely, in order of first
    // use, and made on first use: overflow_at_[b] is 1 + the index of bucket b's sum (0: none),
    // overflow_bucket_ the bucket of each sum.
    std::vector<uint32_t> overflow_at_;
    HostArray<P> overflow_;
    HostArray<uint32_t> overflow_bucket_;
    size_t overflow_used_ = 0;
    std::vector<BucketAddition> batch_, deferred_, retry_;
    size_t capacity_ = 0;

private:
    P& overflow(uint32_t b) {
        uint32_t& at = overflow_at_[b];
        if (!at) {
            if (!overflow_) {
                overflow_ = HostArray<P>(overflow_at_.size(), Fill::SCRATCH);
                overflow_bucket_ = HostArray<uint32_t>(overflow_at_.size(), Fill::SCRATCH);
            }
            overflow_[overflow_used_] = P::infinity();
            overflow_bucket_[overflow_used_] = b;
            at = (uint32_t)++overflow_used_;
        }
        return overflow_[at - 1];
    }

    // Queues the addition; a busy bucket puts it off to the next batch, or, when too many wait
    // already, sends it to the overflow.
    void push(uint32_t b, uint64_t index, bool negate) {
        uint8_t& st = state_[b];
        if (st == BUCKET_EMPTY) {
            arith_.set(b, index, negate);
            st = BUCKET_FULL;
        } else if (st == BUCKET_FULL && arith_.joins(b, index)) {
            st = BUCKET_PENDING;
            batch_.push_back({b, negate, index});
        } else if (st == BUCKET_PENDING && deferred_.size() < capacity_) {
            deferred_.push_back({b, negate, index});
        } else if (negate) {
            overflow(b).sub_affine(bases_[index]);
        } else {
            overflow(b).add_affine(bases_[index]);
        }
    }

    void run_batch() {
        arith_.add_batch(batch_.data(), batch_.size(), state_.data());
        batch_.clear();
        std::swap(deferred_, retry_);
        for (const BucketAddition& e : retry_) push(e.bucket, e.index, e.negate != 0);
        retry_.clear();
    }
};

CUZK_NS_END
