// The CUDA NTT's algorithm run on the host, phase by phase over the whole grid, with the very
// per-thread bodies the kernels run (ntt_gpu.hpp): a check of the GPU algorithm where no GPU is
// present (one build per arithmetic path; see runtime/impl.hpp).
#include <cstring>
#include <vector>

#include "ntt/ntt_cpu.hpp"
#include "ntt/ntt_gpu.hpp"
#include "runtime/api_common.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

namespace {

template <class Fr>
void emulate_ntt(const cuzk_ntt_config& cfg, Fr* a) {
    const int log_n = (int)cfg.log_n;
    const uint64_t n = 1ull << log_n;
    Fr shift = Fr::from_limbs(Fr::Params::generator());
    if (cfg.coset && cfg.coset_shift) std::memcpy(shift.l, cfg.coset_shift, sizeof(shift.l));
    const bool inverse = cfg.direction == CUZK_NTT_INVERSE;
    // the coset tables of the GPU path: g^i = high[i >> 10] * low[i & 1023]
    auto coset = [&](const Fr& g, const Fr& scale) {
        std::vector<Fr> low(1024), high((n >> 10) + 1);
        Fr v = Fr::one();
        for (int j = 0; j < 1024; j++, v = v * g) low[j] = v;
        Fr step = v;  // g^1024
        v = Fr::one();
        for (size_t m = 0; m < high.size(); m++, v = v * step) high[m] = v;
        for (uint64_t i = 0; i < n; i++) gpu::ntt_coset_body(a, low.data(), high.data(), scale, i);
    };
    if (!inverse && cfg.coset) coset(shift, Fr::one());
    if (n > 1) {
        auto dom = ntt_domain<Fr>(log_n, cfg.threads);
        const Fr* tw = dom->twiddle.data();
        for (uint64_t i = 0; i < n; i++) gpu::ntt_bitrev_body(a, log_n, i);
        std::vector<Fr> shared((size_t)1 << gpu::NTT_MAX_GROUP_LOG);
        int ks[8];
        const int passes = gpu::ntt_stage_groups(log_n, ks);
        for (int i = 0, s0 = 0; i < passes; s0 += ks[i], i++) {
            const int k = ks[i];
            const uint64_t groups = n >> k;
            const uint32_t half = 1u << (k - 1);
            for (uint64_t g = 0; g < groups; g++) {  // one "block" per group, its threads phase by phase
                for (uint32_t q = 0; q < half; q++) gpu::ntt_group_load(a, shared.data(), s0, k, g, q);
                for (int j = 0; j < k; j++)
                    for (uint32_t q = 0; q < half; q++) gpu::ntt_group_stage(shared.data(), tw, log_n, s0, j, g, q);
                for (uint32_t q = 0; q < half; q++) gpu::ntt_group_store(a, shared.data(), s0, k, g, q);
            }
        }
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

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
