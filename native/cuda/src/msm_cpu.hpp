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
#include "errors.hpp"
#include "pool.hpp"

namespace cuzk {

// Bits [start, start + len) of a 4-word little-endian scalar; bits below 0 or above 255 are 0.
inline uint32_t scalar_bits(const uint64_t* s, int start, int len) {
    uint64_t v = 0;
    int shift_in = 0;
    if (start < 0) {
        shift_in = -start;
        len -= shift_in;
        start = 0;
    }
    if (len <= 0 || start >= 256) return 0;
    int word = start >> 6, bit = start & 63;
    v = s[word] >> bit;
    if (bit + len > 64 && word + 1 < 4) v |= s[word + 1] << (64 - bit);
    v &= (len >= 64) ? ~0ull : ((1ull << len) - 1);
    return (uint32_t)(v << shift_in);
}

inline int booth_digit(const uint64_t* s, int window, int c) {
    uint32_t v = scalar_bits(s, window * c - 1, c + 1);
    return (int)((v + 1) >> 1) - (int)((v >> c) << c);
}

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

    std::vector<P> partial((size_t)windows * splits, P::infinity());
    parallel_for(threads, (size_t)windows * splits, [&](size_t task) {
        const int w = (int)(task / splits);
        const size_t s = task % splits;
        const size_t begin = s * per_split;
        const size_t end = std::min<size_t>(n, begin + per_split);
        std::vector<P> bucket(buckets, P::infinity());
        for (size_t i = begin; i < end; i++) {
            int d = booth_digit(k + 4 * i, w, c);
            if (d == 0) continue;
            const Affine<G>& b = bases[i];
            if (b.is_inf()) continue;
            if (d > 0) bucket[d - 1].add_affine(b);
            else bucket[-d - 1].sub_affine(b);
        }
        // sum_{j} (j + 1) * bucket[j] by running sums from the top.
        P running = P::infinity(), acc = P::infinity();
        for (size_t j = buckets; j-- > 0;) {
            running.add(bucket[j]);
            acc.add(running);
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

}  // namespace cuzk
