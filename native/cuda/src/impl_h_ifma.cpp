// cuzk_groth16_h on the x86-ifma path (see ntt_ifma.hpp); compiled only into that path.
#include "api_common.hpp"
#include "ntt_ifma.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

cuzk_status_t impl_groth16_h(uint32_t curve, uint32_t log_n, uint32_t threads, uint32_t flags, void* a, void* b, void* c) {
    return guarded("cuzk_groth16_h", [&] {
        with_h_vectors(
            curve, log_n, flags, a, b, c,
            [&](auto tag) { lanes::groth16_h_ifma_prepare<typename decltype(tag)::type>((int)log_n, threads); },
            [&](auto* fa, auto* fb, auto* fc) { lanes::groth16_h_ifma(fa, fb, fc, (int)log_n, threads); });
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
