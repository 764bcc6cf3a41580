// The kernel entry points of one CPU code path. The impl_*.cpp files are compiled once per path,
// each into its own namespace (cuzk::portable, cuzk::adx); abi.cpp includes this header once per
// path, with CUZK_IMPL_NS naming it, and sends each ABI call to the path chosen at run time.
// No include guard: it is meant to be included several times.
#include "cuzk/cuzk.h"

namespace cuzk {
namespace CUZK_IMPL_NS {

cuzk_status_t impl_field_op(uint32_t curve, uint32_t field, uint32_t op, const void* a, const void* b, void* out,
                            uint64_t n);
cuzk_status_t impl_point_op(uint32_t curve, uint32_t group, uint32_t op, const void* a, const void* b, void* out,
                            uint64_t n);
cuzk_status_t impl_msm(const cuzk_msm_config* config, const void* bases, const void* scalars, void* result);
cuzk_status_t impl_ntt(const cuzk_ntt_config* config, void* data);
cuzk_status_t impl_scalars_decode(const cuzk_codec_config* config, const void* src, void* dst, cuzk_check_result* result);
cuzk_status_t impl_scalars_encode(const cuzk_codec_config* config, const void* src, void* dst);
cuzk_status_t impl_points_decode(const cuzk_codec_config* config, const void* src, void* dst,
                                 cuzk_check_result* result);
cuzk_status_t impl_points_encode(const cuzk_codec_config* config, const void* src, void* dst);
cuzk_status_t impl_emulate_msm(const cuzk_msm_config* config, const void* bases, const void* scalars, void* result);
cuzk_status_t impl_emulate_msm_precompute(const cuzk_msm_config* config, void* table);
cuzk_status_t impl_msm_plan(cuzk_msm_config* config, uint64_t max_bytes);
cuzk_status_t impl_emulate_ntt(const cuzk_ntt_config* config, void* data);
cuzk_status_t impl_emulate_groth16_h(const cuzk_h_config* config, void* a, void* b, void* c);
cuzk_status_t impl_groth16_abc(const cuzk_abc_config* config, void* a, void* b, void* c);
cuzk_status_t impl_groth16_h(const cuzk_h_config* config, void* a, void* b, void* c);
cuzk_status_t impl_pairing(uint32_t curve, const void* g1, const void* g2, uint64_t n, void* out, uint32_t* is_one);
cuzk_status_t impl_miller_loop(uint32_t curve, const void* g1, const void* g2, uint64_t n, void* out);
cuzk_status_t impl_fixed_prepare(uint32_t curve, uint32_t group, const void* points, uint64_t n, void* out, uint64_t* bytes);
cuzk_status_t impl_fixed_sum(uint32_t curve, uint32_t group, const void* table, uint64_t n, const void* scalars, void* result);
cuzk_status_t impl_g2_prepare(uint32_t curve, const void* g2, uint64_t n, void* out, uint64_t* bytes);
cuzk_status_t impl_pairing_check(uint32_t curve, const void* g1, const void* g2, uint64_t n, const void* g1_fixed, const void* prepared,
                                 uint64_t n_fixed, const void* factor, uint32_t* is_one);
cuzk_status_t impl_pairing_check_g2(uint32_t curve, const void* g1, const void* g2, uint64_t n, const void* g1_fixed, const void* prepared,
                                    uint64_t n_fixed, const void* factor, uint32_t* is_one, uint64_t* outside);

}  // namespace CUZK_IMPL_NS
}  // namespace cuzk
