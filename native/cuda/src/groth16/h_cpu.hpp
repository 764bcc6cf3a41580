// Groth16's H on the CPU (cuzk_groth16_h): the portable and x86-adx code, and the x86-ifma path's
// fallback outside the domains its lanes take (see h_ifma.hpp).
#pragma once
#include "groth16/h_gpu.hpp"
#include "ntt/ntt_cpu.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/pool.hpp"

CUZK_NS_BEGIN

// Groth16's step from a polynomial's values on the domain (natural order) to its values on the
// coset shift*H (natural order): the inverse transform by decimation in frequency leaves the
// coefficients in bit-reversed order, each is scaled there by n^-1 shift^k (powers, n of them,
// computed once by the caller for every vector), and the forward transform by decimation in time
// takes them back to natural order: no permutation pass at all, where the two natural-order
// transforms make three.
template <class Fr>
void ntt_values_to_coset(Fr* a, int log_n, const Fr* scale_powers, unsigned threads) {
    threads = resolve_threads(threads);
    const size_t n = (size_t)1 << log_n;
    if (n == 1) {
        a[0] = a[0] * scale_powers[0];
        return;
    }
    auto dom = ntt_domain<Fr>(log_n, threads);
    const Fr* tw = dom->twiddle.data();
    intt_dif_to_reversed(a, log_n, tw, threads);
    const size_t chunk = 1 << 12;
    parallel_for(threads, (n + chunk - 1) / chunk, [&](size_t c) {
        const size_t end = std::min(n, (c + 1) * chunk);
        for (size_t i = c * chunk; i < end; i++) a[i] = a[i] * scale_powers[bit_reverse(i, log_n)];
    });
    ntt_dit_from_reversed(a, log_n, tw, threads);
}

// Groth16's H from a, b, c (evaluations on the domain of size 2^log_n, Montgomery form): each is
// taken to the coset by the 2^(log_n+1)-th root of unity, then a = a * b - c (b and c are
// overwritten). See cuzk_groth16_h.
template <class Fr>
void groth16_h_cpu(Fr* a, Fr* b, Fr* c, int log_n, unsigned threads, bool canonical = false) {
    threads = resolve_threads(threads);
    const Fr shift = root_of_unity<Fr>(log_n + 1);
    const uint64_t n = 1ull << log_n;
    // n^-1 shift^k for every coefficient k, shared by a, b and c.
    HostArray<Fr> powers(n, Fill::SCRATCH);
    fill_powers(powers.get(), n, Fr::from_u64(n).inv(), shift, threads);
    for (Fr* x : {a, b, c}) ntt_values_to_coset(x, log_n, powers.get(), threads);
    const size_t chunk = 1 << 14;
    parallel_for(threads, (n + chunk - 1) / chunk, [&](size_t k) {
        const uint64_t end = std::min<uint64_t>(n, (k + 1) * chunk);
        for (uint64_t i = k * chunk; i < end; i++) gpu::groth16_h_body(a, b, c, i);
        if (canonical) {
            for (uint64_t i = k * chunk; i < end; i++) a[i] = a[i].from_mont();
        }
    });
}

// What groth16_h_cpu keeps per domain size: the twiddles of its transforms.
template <class Fr>
void groth16_h_cpu_prepare(int log_n, unsigned threads) {
    if (log_n > 0) ntt_domain<Fr>(log_n, resolve_threads(threads));
}

CUZK_NS_END
