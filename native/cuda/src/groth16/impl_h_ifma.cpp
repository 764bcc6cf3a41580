// cuzk_groth16_h on the x86-ifma path (see h_ifma.hpp); compiled only into that path.
#include "groth16/h_ifma.hpp"
#include "runtime/api_common.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

cuzk_status_t impl_groth16_h(const cuzk_h_config* config, void* a, void* b, void* c) {
    return guarded("cuzk_groth16_h", [&] {
        with_h_vectors(
            config, a, b, c,
            [&](auto tag) { lanes::groth16_h_ifma_prepare<typename decltype(tag)::type>((int)config->log_n, config->threads); },
            [&](auto* fa, auto* fb, auto* fc, bool canonical) {
                lanes::groth16_h_ifma(fa, fb, fc, (int)config->log_n, config->threads, canonical);
            });
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
