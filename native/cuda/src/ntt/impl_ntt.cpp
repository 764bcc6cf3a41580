// NTTs over Fr on the CPU (one build per arithmetic path; see runtime/impl.hpp).
#include <cstring>

#include "ntt/ntt_cpu.hpp"
#include "runtime/api_common.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

cuzk_status_t impl_ntt(const cuzk_ntt_config* config, void* data) {
    return guarded("cuzk_ntt", [&] {
        require_ptr(config, "config");
        require_aligned(data, "data");
        require(config->direction <= CUZK_NTT_INVERSE, "unknown direction " + std::to_string(config->direction));
        require(config->coset <= 1, "coset must be 0 or 1");
        require(config->flags == 0, "flags must be 0");
        with_scalar_field(config->curve, [&](auto tag) {
            using Fr = typename decltype(tag)::type;
            int max_log = std::min(MAX_NTT_LOG, Fr::Params::TWO_ADICITY);
            require(config->log_n <= (uint32_t)max_log,
                    "log_n " + std::to_string(config->log_n) + " is above the largest supported size 2^" + std::to_string(max_log));
            Fr shift;
            const Fr* shift_ptr = nullptr;
            if (config->coset) {
                if (config->coset_shift) {
                    std::memcpy(shift.l, config->coset_shift, sizeof(shift.l));
                    require(Fr::is_canonical(shift.l), "coset_shift is not a reduced field element");
                    require(!shift.is_zero(), "coset_shift is zero");
                } else {
                    shift = Fr::from_limbs(Fr::Params::generator());
                }
                shift_ptr = &shift;
            }
            ntt_cpu<Fr>(static_cast<Fr*>(data), (int)config->log_n, config->direction == CUZK_NTT_INVERSE, shift_ptr,
                        config->threads);
        });
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
