// Multi-scalar multiplication on the CPU (one build per arithmetic path; see runtime/impl.hpp).
#include "msm/msm_cpu.hpp"
#include "runtime/api_common.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

cuzk_status_t impl_msm(const cuzk_msm_config* config, const void* bases, const void* scalars,
                                void* result) {
    return guarded("cuzk_msm", [&] {
        require_ptr(config, "config");
        require_aligned(result, "result");
        require(config->scalar_form <= CUZK_SCALAR_MONTGOMERY, "unknown scalar form " + std::to_string(config->scalar_form));
        require(config->window_bits == 0 || (config->window_bits >= 2 && config->window_bits <= 20),
                "window_bits must be 0 (automatic) or 2..20, not " + std::to_string(config->window_bits));
        // a table of shifted copies (config->copies > 1) starts with the plain bases: only they are read here
        if (config->count > 0) {
            require_ptr(bases, "bases");  // at any address (see base_array.hpp)
            require_aligned(scalars, "scalars");
        }
        with_group(config->curve, config->group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            msm_cpu<G>(bases, static_cast<const uint64_t*>(scalars), config->count,
                       config->scalar_form == CUZK_SCALAR_MONTGOMERY, config->window_bits, config->threads,
                       static_cast<Affine<G>*>(result));
        });
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
