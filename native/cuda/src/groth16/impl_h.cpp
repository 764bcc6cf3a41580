// cuzk_groth16_h (one build per arithmetic path; see runtime/impl.hpp): eight elements at a time in
// the x86-ifma path (see h_ifma.hpp), the scalar code (h_cpu.hpp) in the others.
#include "groth16/h_cpu.hpp"
#include "groth16/h_ifma.hpp"
#include "runtime/api_common.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

namespace {

template <class Fr>
void h_prepare(int log_n, unsigned threads) {
#if defined(CUZK_BATCH_IFMA)
    lanes::groth16_h_ifma_prepare<Fr>(log_n, threads);
#else
    groth16_h_cpu_prepare<Fr>(log_n, threads);
#endif
}

template <class Fr>
void h_run(Fr* a, Fr* b, Fr* c, int log_n, unsigned threads, bool canonical) {
#if defined(CUZK_BATCH_IFMA)
    lanes::groth16_h_ifma(a, b, c, log_n, threads, canonical);
#else
    groth16_h_cpu(a, b, c, log_n, threads, canonical);
#endif
}

}  // namespace

cuzk_status_t impl_groth16_h(const cuzk_h_config* config, void* a, void* b, void* c) {
    return guarded("cuzk_groth16_h", [&] {
        with_h_vectors(
            config, a, b, c, [&](auto tag) { h_prepare<typename decltype(tag)::type>((int)config->log_n, config->threads); },
            [&](auto* fa, auto* fb, auto* fc, bool canonical) { h_run(fa, fb, fc, (int)config->log_n, config->threads, canonical); });
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
