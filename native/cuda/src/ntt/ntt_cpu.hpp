// Number-theoretic transforms over Fr on the CPU: iterative radix-2, decimation in time after a
// bit-reversal permutation, natural order in and out. Twiddles w^i (i < n/2) are computed once per
// domain size and cached for the life of the process; the inverse transform reuses them
// (INTT(a) = n^-1 * reverse(NTT(a)), where reverse maps index i to n - i).
#pragma once
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "cuzk/field.hpp"
#include "runtime/errors.hpp"
#include "runtime/pool.hpp"

CUZK_NS_BEGIN

template <class Fr>
struct NttDomain {
    int log_n;
    Fr omega;                // primitive 2^log_n-th root of unity
    std::vector<Fr> twiddle; // omega^i for i < n/2
};

template <class Fr>
Fr root_of_unity(int log_n) {
    Fr w = Fr::from_limbs(Fr::Params::root_of_unity());
    for (int i = Fr::Params::TWO_ADICITY; i > log_n; i--) w = w.sqr();
    return w;
}

// Powers start * step^i for i in [0, count), filled in parallel blocks.
template <class Fr>
void fill_powers(Fr* out, size_t count, const Fr& start, const Fr& step, unsigned threads) {
    const size_t block = 1 << 12;
    size_t blocks = (count + block - 1) / block;
    parallel_for(threads, blocks, [&](size_t b) {
        size_t begin = b * block, end = std::min(count, begin + block);
        uint64_t e = begin;
        Fr v = start * step.pow(&e, 1);
        for (size_t i = begin; i < end; i++) {
            out[i] = v;
            v = v * step;
        }
    });
}

// What build() makes for a domain size, made once per process and kept (one cache per type T).
// It is built outside the lock; if two threads race, both build and the first to publish wins.
template <class T>
struct PerDomainSize {
    template <class Build>
    static std::shared_ptr<const T> get(int log_n, Build&& build) {
        {
            std::lock_guard<std::mutex> g(mutex_);
            auto it = cache_.find(log_n);
            if (it != cache_.end()) return it->second;
        }
        std::shared_ptr<const T> made = build();
        std::lock_guard<std::mutex> g(mutex_);
        return cache_.emplace(log_n, std::move(made)).first->second;
    }

private:
    static inline std::mutex mutex_;
    static inline std::map<int, std::shared_ptr<const T>> cache_;
};

template <class Fr>
std::shared_ptr<const NttDomain<Fr>> ntt_domain(int log_n, unsigned threads) {
    return PerDomainSize<NttDomain<Fr>>::get(log_n, [&] {
        auto d = std::make_shared<NttDomain<Fr>>();
        d->log_n = log_n;
        d->omega = root_of_unity<Fr>(log_n);
        size_t half = log_n == 0 ? 0 : (size_t)1 << (log_n - 1);
        d->twiddle.resize(half);
        if (half) fill_powers(d->twiddle.data(), half, Fr::one(), d->omega, threads);
        return std::shared_ptr<const NttDomain<Fr>>(std::move(d));
    });
}

// x's low `bits` bits in reverse order, in constant time (swaps of bits, pairs and nibbles, then
// of bytes): it runs once per element in the permutation and scaling passes.
inline size_t bit_reverse(size_t x, int bits) {
    uint64_t v = x;
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
    v = __builtin_bswap64(v);
    return bits == 0 ? 0 : (size_t)(v >> (64 - bits));
}

// Decimation in time from bit-reversed input to natural output (no permutation of its own).
template <class Fr>
void ntt_dit_from_reversed(Fr* a, int log_n, const Fr* tw, unsigned threads) {
    const size_t n = (size_t)1 << log_n;
    const size_t chunk = 1 << 12;

    // Stages whose butterflies stay inside a block of `block` elements run block by block,
    // so each block is loaded into cache once for all of them.
    const int block_log = log_n < 12 ? log_n : 12;
    const size_t block = (size_t)1 << block_log;
    parallel_for(threads, n / block, [&](size_t b) {
        Fr* x = a + b * block;
        for (int s = 1; s <= block_log; s++) {
            size_t h = (size_t)1 << (s - 1), m = h << 1, stride = n >> s;
            for (size_t k = 0; k < block; k += m) {
                for (size_t j = 0; j < h; j++) {
                    Fr t = x[k + j + h] * tw[j * stride];
                    Fr u = x[k + j];
                    x[k + j] = u + t;
                    x[k + j + h] = u - t;
                }
            }
        }
    });
    // The remaining stages, each split over its n/2 butterflies.
    for (int s = block_log + 1; s <= log_n; s++) {
        const size_t h = (size_t)1 << (s - 1), stride = n >> s;
        const size_t butterflies = n / 2;
        parallel_for(threads, (butterflies + chunk - 1) / chunk, [&](size_t c) {
            size_t end = std::min(butterflies, (c + 1) * chunk);
            for (size_t q = c * chunk; q < end; q++) {
                size_t j = q & (h - 1);
                size_t i = ((q >> (s - 1)) << s) + j;
                Fr t = a[i + h] * tw[j * stride];
                Fr u = a[i];
                a[i] = u + t;
                a[i + h] = u - t;
            }
        });
    }
}

template <class Fr>
void ntt_forward_natural(Fr* a, int log_n, unsigned threads) {
    const size_t n = (size_t)1 << log_n;
    if (n == 1) return;
    auto dom = ntt_domain<Fr>(log_n, threads);
    const size_t chunk = 1 << 12;
    // Bit reversal: swap each pair once, from its lower index.
    parallel_for(threads, (n + chunk - 1) / chunk, [&](size_t c) {
        size_t end = std::min(n, (c + 1) * chunk);
        for (size_t i = c * chunk; i < end; i++) {
            size_t j = bit_reverse(i, log_n);
            if (i < j) std::swap(a[i], a[j]);
        }
    });
    ntt_dit_from_reversed(a, log_n, dom->twiddle.data(), threads);
}

// The inverse transform without its n^-1, by decimation in frequency: natural input, output in
// bit-reversed order. Its twiddles w^-e come from the forward ones: w^-e = -w^(n/2 - e) for e > 0.
template <class Fr>
void intt_dif_to_reversed(Fr* a, int log_n, const Fr* tw, unsigned threads) {
    const size_t n = (size_t)1 << log_n, half = n / 2;
    const size_t chunk = 1 << 12;
    auto butterfly = [&](Fr* x, size_t i, size_t h, size_t e) {
        const Fr u = x[i], v = x[i + h];
        x[i] = u + v;
        x[i + h] = e == 0 ? u - v : (v - u) * tw[half - e];
    };
    // The stages whose butterflies span more than a block, each split over its n/2 butterflies.
    const int block_log = log_n < 12 ? log_n : 12;
    for (int s = log_n; s > block_log; s--) {
        const size_t h = (size_t)1 << (s - 1), stride = n >> s;
        parallel_for(threads, (half + chunk - 1) / chunk, [&](size_t c) {
            const size_t end = std::min(half, (c + 1) * chunk);
            for (size_t q = c * chunk; q < end; q++) {
                const size_t j = q & (h - 1);
                butterfly(a, ((q >> (s - 1)) << s) + j, h, j * stride);
            }
        });
    }
    // The rest block by block, each block loaded into cache once for all of them.
    const size_t block = (size_t)1 << block_log;
    parallel_for(threads, n / block, [&](size_t b) {
        Fr* x = a + b * block;
        for (int s = block_log; s >= 1; s--) {
            const size_t h = (size_t)1 << (s - 1), m = h << 1, stride = n >> s;
            for (size_t k = 0; k < block; k += m) {
                for (size_t j = 0; j < h; j++) butterfly(x, k + j, h, j * stride);
            }
        }
    });
}

// a[i] *= start * step^i for all i.
template <class Fr>
void scale_by_powers(Fr* a, size_t n, const Fr& start, const Fr& step, unsigned threads) {
    const size_t block = 1 << 12;
    parallel_for(threads, (n + block - 1) / block, [&](size_t b) {
        size_t begin = b * block, end = std::min(n, begin + block);
        uint64_t e = begin;
        Fr v = start * step.pow(&e, 1);
        for (size_t i = begin; i < end; i++) {
            a[i] = a[i] * v;
            v = v * step;
        }
    });
}

template <class Fr>
void ntt_cpu(Fr* a, int log_n, bool inverse, const Fr* coset_shift, unsigned threads) {
    threads = resolve_threads(threads);
    const size_t n = (size_t)1 << log_n;
    if (!inverse) {
        if (coset_shift) scale_by_powers(a, n, Fr::one(), *coset_shift, threads);
        ntt_forward_natural(a, log_n, threads);
        return;
    }
    ntt_forward_natural(a, log_n, threads);
    for (size_t i = 1, j = n - 1; i < j; i++, j--) std::swap(a[i], a[j]);
    // n^-1, and for a coset also g^-i, in one pass
    const Fr n_inv = Fr::from_u64(n).inv();
    const Fr step = coset_shift ? coset_shift->inv() : Fr::one();
    scale_by_powers(a, n, n_inv, step, threads);
}

CUZK_NS_END
