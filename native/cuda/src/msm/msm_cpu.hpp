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
#include "msm/base_array.hpp"
#include "msm/bucket_sum.hpp"
#include "msm/buckets_cpu.hpp"
#include "msm/buckets_ifma.hpp"
#include "msm/msm_gpu.hpp"
#include "runtime/errors.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/pool.hpp"

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

// The top window of a scalar below 2^bits holds fewer bits than the others: its digits reach only
// D = 2^(bits - w c) in magnitude, so all its points would pile into D buckets, and a batched bucket
// takes one addition per batch: the rest would go to the slow XYZZ overflow (a tenth of all
// additions for a BN254 MSM at c = 11). Such a window spreads each digit over 2^(c-1) / D buckets
// instead; this returns that factor (1 for a full window).
inline size_t msm_bucket_spread(int bits, int w, int c) {
    const int top_bits = bits - w * c;  // the digits of this window are at most 2^top_bits
    return top_bits < c - 1 ? (size_t)1 << (c - 1 - std::max(top_bits, 0)) : 1;
}

// Feeds the digits digit(i) of points [begin, end) to add(bucket, index, negate); with spread s,
// digit d goes to one of the buckets (|d| - 1) s .. (|d| - 1) s + s - 1, in turn.
template <class G, class Digit, class Add>
inline void accumulate_spread(const BaseArray<G>& bases, size_t begin, size_t end, size_t spread, Digit&& digit, Add&& add) {
    size_t turn = 0;
    for (size_t i = begin; i < end; i++) {
        int d = digit(i);
        if (d == 0 || bases.is_inf(i)) continue;
        const uint32_t m = (uint32_t)(d > 0 ? d : -d) - 1;
        uint32_t b = m;
        if (spread > 1) {
            b = (uint32_t)(m * spread + turn);
            turn = turn + 1 == spread ? 0 : turn + 1;
        }
        add(b, i, d < 0);
    }
}

// Scalars equal to one are counted apart when they are at least this many and a sixteenth of
// all: a circuit's witness is often mostly booleans, and in window 0 they would all fall into
// bucket 0, which takes one batched addition per batch (the rest costs an XYZZ addition each).
constexpr uint64_t MSM_ONES_MIN = 512;
// Buckets of a task summing such bases (one digit spread over all of them).
constexpr size_t MSM_ONES_BUCKETS = 1024;

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

// A few points (a verifier's L = IC[0] + sum s_i IC[i + 1], a proof's small sums): Straus's
// interleaving, one chain of doublings shared by the points, each scalar in width-4 signed digits
// (odd multiples P, 3P, 5P, 7P; at most one digit in four nonzero): bits doublings and about
// n * bits / 5 additions, where the bucket method spends several times that at this size.
constexpr uint64_t MSM_STRAUS_MAX = 8;

template <class G>
Affine<G> msm_straus(const BaseArray<G>& bases, const uint64_t* k, uint64_t n) {
    using P = XYZZ<G>;
    constexpr int MAX_DIGITS = 258;  // a 256-bit scalar's width-4 form has at most 257 digits
    int8_t digits[MSM_STRAUS_MAX][MAX_DIGITS];
    P odd[MSM_STRAUS_MAX][4];
    int top = -1;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v[4] = {k[4 * i], k[4 * i + 1], k[4 * i + 2], k[4 * i + 3]};
        const int len = signed_digits_w4(v, digits[i]);  // k < r < 2^255: the top bit is clear
        for (int j = len; j < MAX_DIGITS; j++) digits[i][j] = 0;
        if (len - 1 > top) top = len - 1;
        odd[i][0] = P::from_affine(bases[i]);
        const P twice = odd[i][0].dbl();
        for (int j = 1; j < 4; j++) {
            odd[i][j] = odd[i][j - 1];
            odd[i][j].add(twice);
        }
    }
    P acc = P::infinity();
    for (int b = top; b >= 0; b--) {
        acc = acc.dbl();
        for (uint64_t i = 0; i < n; i++) {
            const int d = digits[i][b];
            if (d > 0) acc.add(odd[i][d >> 1]);
            else if (d < 0) acc.add(odd[i][(-d) >> 1].neg());
        }
    }
    return acc.to_affine();
}

// The bases may sit at any address (see BaseArray); the scalars and out are 8-byte aligned.
template <class G>
void msm_cpu(const void* base_memory, const uint64_t* scalars, uint64_t n, bool montgomery,
             unsigned window_bits, unsigned threads, Affine<G>* out) {
    using Fr = typename G::Fr;
    using P = XYZZ<G>;
    threads = resolve_threads(threads);
    if (n == 0) {
        *out = Affine<G>::infinity();
        return;
    }
    const BaseArray<G> bases(base_memory);
    const int bits = Fr::Params::BITS;

    // Scalars: canonical and below r. Montgomery inputs leave Montgomery form; canonical inputs
    // at or above r (any 256-bit value is accepted) are reduced. Copy only when needed.
    const uint64_t* k = scalars;
    HostArray<uint64_t> reduced;
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
            reduced = HostArray<uint64_t>(4 * n, Fill::SCRATCH);
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

    if (n <= MSM_STRAUS_MAX && window_bits == 0) {
        *out = msm_straus<G>(bases, k, n);
        return;
    }

    // Scalars equal to one: their bases are summed apart, spread over all buckets of `ones_tasks`
    // extra tasks (one slice of the points each), and skipped in window 0 (their only non-zero
    // digit). `ones` marks them; it stays empty when they are too few to matter. The window width
    // follows the scalars the windows will see: neither zeros nor the ones taken apart.
    std::vector<uint8_t> ones;
    uint64_t general = n;
    {
        const size_t chunk = 1 << 14;
        const size_t chunks = (n + chunk - 1) / chunk;
        std::atomic<uint64_t> count{0}, zeros{0};
        parallel_for(threads, chunks, [&](size_t ch) {
            const size_t end = std::min<size_t>(n, (ch + 1) * chunk);
            uint64_t local = 0, local_zeros = 0;
            for (size_t i = ch * chunk; i < end; i++) {
                const uint64_t* v = k + 4 * i;
                const uint64_t high = v[1] | v[2] | v[3];
                local += (v[0] == 1) & (high == 0);
                local_zeros += (v[0] == 0) & (high == 0);
            }
            count.fetch_add(local, std::memory_order_relaxed);
            zeros.fetch_add(local_zeros, std::memory_order_relaxed);
        });
        general = n - zeros.load();
        if (count.load() >= MSM_ONES_MIN && count.load() * 16 >= n) {
            general -= count.load();
            ones.resize(n);
            parallel_for(threads, chunks, [&](size_t ch) {
                const size_t end = std::min<size_t>(n, (ch + 1) * chunk);
                for (size_t i = ch * chunk; i < end; i++) {
                    const uint64_t* v = k + 4 * i;
                    ones[i] = (v[0] == 1) & ((v[1] | v[2] | v[3]) == 0);
                }
            });
        }
    }
    const int c = window_bits ? (int)window_bits : msm_window_bits(std::max<uint64_t>(general, 1), bits);
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
    HostArray<std::conditional_t<has_lanes, lanes::LanesPoint<G>, char>> lanes;
    if constexpr (has_lanes) {
        if (per_split >= MSM_BATCH_AFFINE_MIN && n <= MSM_IFMA_MAX_POINTS) lanes = lanes::lanes_bases(bases, n, threads);
    }
#endif

    const size_t ones_tasks = ones.empty() ? 0 : std::min<size_t>(threads, (n + MSM_BATCH_AFFINE_MIN - 1) / MSM_BATCH_AFFINE_MIN);
    const size_t per_ones_task = ones_tasks ? (n + ones_tasks - 1) / ones_tasks : 0;

    std::vector<P> partial((size_t)windows * splits + ones_tasks, P::infinity());
    parallel_for(threads, (size_t)windows * splits + ones_tasks, [&](size_t task) {
        const bool ones_task = task >= (size_t)windows * splits;
        const int w = ones_task ? 0 : (int)(task / splits);
        const size_t s = task % splits;
        const size_t begin = ones_task ? (task - (size_t)windows * splits) * per_ones_task : s * per_split;
        const size_t end = std::min<size_t>(n, begin + (ones_task ? per_ones_task : per_split));
        // sum_{j} (j + 1) * bucket[j] by running sums from the top; a ones task has one digit,
        // spread over every bucket.
        P running = P::infinity(), acc = P::infinity();
        const size_t nb = ones_task ? MSM_ONES_BUCKETS : buckets;
        const size_t spread = ones_task ? nb : msm_bucket_spread(bits, w, c);
        const bool skip_ones = !ones.empty() && w == 0;
        auto digit = [&](size_t i) -> int {
            if (ones_task) return ones[i];
            if (skip_ones && ones[i]) return 0;
            return booth_digit(k + 4 * i, w, c);
        };
#if defined(CUZK_BATCH_IFMA)
        if constexpr (has_lanes) {
            if (lanes && end - begin >= MSM_BATCH_AFFINE_MIN) {
                lanes::IfmaBuckets<G> bucket(bases, lanes.get(), nb, std::min<size_t>(MSM_IFMA_BATCH, std::max<size_t>(64, nb / 2)));
                accumulate_spread(bases, begin, end, spread, digit, [&](uint32_t b, size_t i, bool neg) { bucket.add(b, i, neg); });
                bucket.finish();
                partial[task] = bucket.weighted_sum(spread);
                return;
            }
        }
#endif
        if (end - begin >= MSM_BATCH_AFFINE_MIN) {
            BatchAffineBuckets<G> bucket(bases, nb, std::min<size_t>(1024, std::max<size_t>(64, nb / 4)));
            accumulate_spread(bases, begin, end, spread, digit, [&](uint32_t b, size_t i, bool neg) { bucket.add(b, i, neg); });
            bucket.finish();
            reduce_spread(nb, spread, running, acc, [&](size_t j, P& into) { bucket.add_to(j, into); });
        } else {
            std::vector<P> bucket(nb, P::infinity());
            for (size_t i = begin; i < end; i++) {
                int d = digit(i);
                if (d == 0) continue;
                const Affine<G> b = bases[i];
                if (b.is_inf()) continue;
                if (d > 0) bucket[d - 1].add_affine(b);
                else bucket[-d - 1].sub_affine(b);
            }
            for (size_t j = nb; j-- > 0;) {
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
    for (size_t t = 0; t < ones_tasks; t++) result.add(partial[(size_t)windows * splits + t]);
    *out = result.to_affine();
}

// msm_cpu's instances, one translation unit per group (impl_msm_<curve>_<group>.cpp): together
// they are the largest object of every code path, and apart a parallel build compiles them at once.
#define CUZK_MSM_CPU_INSTANCE(G) \
    void msm_cpu<G>(const void*, const uint64_t*, uint64_t, bool, unsigned, unsigned, Affine<G>*)
extern template CUZK_MSM_CPU_INSTANCE(bn254_g1);
extern template CUZK_MSM_CPU_INSTANCE(bn254_g2);
extern template CUZK_MSM_CPU_INSTANCE(bls12_381_g1);
extern template CUZK_MSM_CPU_INSTANCE(bls12_381_g2);

CUZK_NS_END
