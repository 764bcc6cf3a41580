// The CUDA NTT's algorithm run on the host, phase by phase over the whole grid, with the very
// per-thread bodies the kernels run (ntt_gpu.hpp): a check of the GPU algorithm where no GPU is
// present (one build per arithmetic path; see runtime/impl.hpp).
#include <cstring>
#include <vector>

#include "ntt/ntt_cpu.hpp"
#include "ntt/ntt_gpu.hpp"
#include "groth16/h_gpu.hpp"
#include "runtime/api_common.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

namespace {

// The partial twiddle tables of a 2^log_n domain (log_n >= 1), made as the device makes them.
template <class Fr>
struct HostTwiddles {
    int log_n;
    std::vector<Fr> lo, hi;

    explicit HostTwiddles(int log_n)
        : log_n(log_n), lo((size_t)1 << gpu::ntt_twiddle_lo_bits(log_n)), hi(gpu::ntt_twiddle_hi_count(log_n)) {
        gpu::ntt_twiddle_tables(root_of_unity<Fr>(log_n), log_n, lo.data(), hi.data());
    }

    gpu::NttTwiddles<Fr> view() const { return {lo.data(), hi.data(), gpu::ntt_twiddle_lo_bits(log_n)}; }
};

// The stage-group launches: one "block" per group, its threads phase by phase. DIT: groups from the
// low bits up, stages j upwards (bit-reversed in, natural out); DIF: from the top bits down, stages
// j downwards (natural in, bit-reversed out), with the inverse's twiddles when inverse.
template <class Fr>
void run_groups(Fr* a, const gpu::NttTwiddles<Fr>& tw, int log_n, bool dif, bool inverse) {
    const uint64_t n = 1ull << log_n;
    std::vector<Fr> shared((size_t)1 << gpu::NTT_MAX_GROUP_LOG);
    int starts[8], ks[8];
    const int passes = gpu::ntt_passes(log_n, dif, starts, ks);
    for (int p = 0; p < passes; p++) {
        const int s0 = starts[p], k = ks[p];
        const uint64_t groups = n >> k;
        const uint32_t half = 1u << (k - 1);
        for (uint64_t g = 0; g < groups; g++) {
            for (uint32_t q = 0; q < half; q++) gpu::ntt_group_load(a, shared.data(), s0, k, g, q);
            for (int jj = 0; jj < k; jj++) {
                const int j = dif ? k - 1 - jj : jj;
                for (uint32_t q = 0; q < half; q++) {
                    if (dif) gpu::ntt_group_stage_dif(shared.data(), tw, log_n, s0, j, inverse, g, q);
                    else gpu::ntt_group_stage(shared.data(), tw, log_n, s0, j, g, q);
                }
            }
            for (uint32_t q = 0; q < half; q++) gpu::ntt_group_store(a, shared.data(), s0, k, g, q);
        }
    }
}

template <class Fr>
void emulate_ntt(const cuzk_ntt_config& cfg, Fr* a) {
    const int log_n = (int)cfg.log_n;
    const uint64_t n = 1ull << log_n;
    Fr shift = Fr::from_limbs(Fr::Params::generator());
    if (cfg.coset && cfg.coset_shift) std::memcpy(shift.l, cfg.coset_shift, sizeof(shift.l));
    const bool inverse = cfg.direction == CUZK_NTT_INVERSE;
    auto coset = [&](const Fr& g, const Fr& scale) {
        std::vector<Fr> low(1024), high((n >> 10) + 1);
        gpu::ntt_coset_powers(g, log_n, low.data(), high.data());
        for (uint64_t i = 0; i < n; i++) gpu::ntt_coset_body(a, low.data(), high.data(), scale, i);
    };
    if (!inverse && cfg.coset) coset(shift, Fr::one());
    if (n > 1) {
        const HostTwiddles<Fr> tw(log_n);
        for (uint64_t i = 0; i < n; i++) gpu::ntt_bitrev_body(a, log_n, i);
        run_groups(a, tw.view(), log_n, false, false);
    }
    if (inverse) {
        const Fr n_inv = Fr::from_u64(n).inv();
        if (cfg.coset) {
            for (uint64_t i = 0; i <= n / 2; i++) gpu::ntt_reverse_scale_body(a, n, Fr::one(), i);
            coset(shift.inv(), n_inv);
        } else {
            for (uint64_t i = 0; i <= n / 2; i++) gpu::ntt_reverse_scale_body(a, n, n_inv, i);
        }
    }
}

// Groth16's H as cuzk_cuda_groth16_h computes it: per polynomial, the inverse transform as DIF
// (coefficients in bit-reversed order), one pass of 1/n and the coset's powers at the reversed
// indices, the forward transform as DIT without its bit reversal; then h = a*b - c.
template <class Fr>
void emulate_h(const cuzk_h_config& cfg, Fr* a, Fr* b, Fr* c) {
    const int log_n = (int)cfg.log_n;
    const uint64_t n = 1ull << log_n;
    const Fr g = root_of_unity<Fr>(log_n + 1);
    const Fr n_inv = Fr::from_u64(n).inv();
    std::vector<Fr> low(1024), high((n >> 10) + 1);
    gpu::ntt_coset_powers(g, log_n, low.data(), high.data());
    const HostTwiddles<Fr> tw(n > 1 ? log_n : 1);  // unused for n = 1
    for (Fr* x : {a, b, c}) {
        if (n > 1) run_groups(x, tw.view(), log_n, true, true);
        for (uint64_t j = 0; j < n; j++) gpu::ntt_bitrev_coset_body(x, low.data(), high.data(), n_inv, log_n, j);
        if (n > 1) run_groups(x, tw.view(), log_n, false, false);
    }
    for (uint64_t i = 0; i < n; i++) gpu::groth16_h_body(a, b, c, i);
    if (cfg.flags & CUZK_H_CANONICAL) {
        for (uint64_t i = 0; i < n; i++) a[i] = a[i].from_mont();
    }
}

}  // namespace

cuzk_status_t impl_emulate_ntt(const cuzk_ntt_config* config, void* data) {
    return guarded("cuzk_emulate_ntt", [&] {
        require_ptr(config, "config");
        require_aligned(data, "data");
        require(config->direction <= CUZK_NTT_INVERSE && config->coset <= 1, "bad direction or coset");
        with_scalar_field(config->curve, [&](auto tag) {
            using Fr = typename decltype(tag)::type;
            require(config->log_n <= (uint32_t)std::min(MAX_NTT_LOG, Fr::Params::TWO_ADICITY), "log_n too large");
            emulate_ntt<Fr>(*config, static_cast<Fr*>(data));
        });
    });
}

cuzk_status_t impl_emulate_groth16_h(const cuzk_h_config* config, void* a, void* b, void* c) {
    return guarded("cuzk_emulate_groth16_h", [&] {
        require_ptr(config, "config");
        require(config->flags <= (CUZK_H_PREPARE | CUZK_H_CANONICAL), "unknown flags");
        with_scalar_field(config->curve, [&](auto tag) {
            using Fr = typename decltype(tag)::type;
            require(config->log_n <= (uint32_t)std::min(MAX_NTT_LOG, Fr::Params::TWO_ADICITY - 1), "log_n too large");
            if (config->flags & CUZK_H_PREPARE) return;
            require_aligned(a, "a");
            require_aligned(b, "b");
            require_aligned(c, "c");
            emulate_h<Fr>(*config, static_cast<Fr*>(a), static_cast<Fr*>(b), static_cast<Fr*>(c));
        });
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
