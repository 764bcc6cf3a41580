// The C ABI: library facts, errors, the choice of CPU code path, and one entry per kernel that
// forwards to the chosen path's implementation (impl.hpp).
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuzk/cuzk.h"
#include "runtime/api_common.hpp"
#include "runtime/host_memory.hpp"

#define CUZK_IMPL_NS portable
#include "runtime/impl.hpp"
#undef CUZK_IMPL_NS
#define CUZK_IMPL_NS devmodel  // the GPU emulation only (see CMakeLists.txt)
#include "runtime/impl.hpp"
#undef CUZK_IMPL_NS
#if CUZK_HAVE_ADX_PATH
#define CUZK_IMPL_NS adx
#include "runtime/impl.hpp"
#undef CUZK_IMPL_NS
namespace cuzk {
namespace ifma {
cuzk_status_t impl_msm(const cuzk_msm_config* config, const void* bases, const void* scalars, void* result);
cuzk_status_t impl_groth16_h(const cuzk_h_config* config, void* a, void* b, void* c);
cuzk_status_t impl_points_decode(const cuzk_codec_config* config, const void* src, void* dst, cuzk_check_result* result);
cuzk_status_t impl_pairing(uint32_t curve, const void* g1, const void* g2, uint64_t n, void* out, uint32_t* is_one);
cuzk_status_t impl_miller_loop(uint32_t curve, const void* g1, const void* g2, uint64_t n, void* out);
cuzk_status_t impl_g2_prepare(uint32_t curve, const void* g2, uint64_t n, void* out, uint64_t* bytes);
cuzk_status_t impl_pairing_check(uint32_t curve, const void* g1, const void* g2, uint64_t n, const void* g1_fixed, const void* prepared,
                                 uint64_t n_fixed, const void* factor, uint32_t* is_one);
cuzk_status_t impl_pairing_check_g2(uint32_t curve, const void* g1, const void* g2, uint64_t n, const void* g1_fixed, const void* prepared,
                                    uint64_t n_fixed, const void* factor, uint32_t* is_one, uint64_t* outside);
}
}  // namespace cuzk
#endif

#ifndef CUZK_VERSION_STRING
#define CUZK_VERSION_STRING "0.0.0-dev"
#endif
#ifndef CUZK_CUDA_COMPILED
#define CUZK_CUDA_COMPILED 0
#endif

namespace cuzk {

namespace {
thread_local char last_error[2048];
}

void set_last_error(const char* function, const char* kind, const char* message) noexcept {
    join_message(last_error, sizeof last_error, function, kind, message);
}

}  // namespace cuzk

namespace {

uint32_t available_isas() {
    uint32_t mask = 1u << CUZK_CPU_ISA_PORTABLE;
#if CUZK_HAVE_ADX_PATH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx")) {
        mask |= 1u << CUZK_CPU_ISA_X86_ADX;
        // libgcc reports AVX-512 only when the OS saves its registers (XCR0).
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma")) mask |= 1u << CUZK_CPU_ISA_X86_IFMA;
    }
#endif
    return mask;
}

uint32_t best_isa(uint32_t mask) {
    if (mask & (1u << CUZK_CPU_ISA_X86_IFMA)) return CUZK_CPU_ISA_X86_IFMA;
    return (mask & (1u << CUZK_CPU_ISA_X86_ADX)) ? CUZK_CPU_ISA_X86_ADX : CUZK_CPU_ISA_PORTABLE;
}

// The path in use: the best available unless CUZK_CPU_ISA (portable, x86-adx, x86-ifma) or
// cuzk_set_cpu_isa says otherwise.
std::atomic<uint32_t>& current_isa() {
    static std::atomic<uint32_t> isa{[] {
        uint32_t mask = available_isas();
        const char* env = std::getenv("CUZK_CPU_ISA");
        if (env && std::strcmp(env, "portable") == 0) return (uint32_t)CUZK_CPU_ISA_PORTABLE;
        if (env && std::strcmp(env, "x86-adx") == 0 && (mask & (1u << CUZK_CPU_ISA_X86_ADX))) return (uint32_t)CUZK_CPU_ISA_X86_ADX;
        if (env && std::strcmp(env, "x86-ifma") == 0 && (mask & (1u << CUZK_CPU_ISA_X86_IFMA))) return (uint32_t)CUZK_CPU_ISA_X86_IFMA;
        return best_isa(mask);
    }()};
    return isa;
}

// Calls fn's portable or x86-adx implementation, whichever is in use (x86-ifma differs from
// x86-adx only in the MSM, Groth16's H, the points' checks and the pairings: CUZK_DISPATCH_IFMA).
#if CUZK_HAVE_ADX_PATH
#define CUZK_DISPATCH(fn, ...) \
    (current_isa().load(std::memory_order_relaxed) != CUZK_CPU_ISA_PORTABLE ? cuzk::adx::fn(__VA_ARGS__) : cuzk::portable::fn(__VA_ARGS__))
#define CUZK_DISPATCH_IFMA(fn, ...) \
    (current_isa().load(std::memory_order_relaxed) == CUZK_CPU_ISA_X86_IFMA ? cuzk::ifma::fn(__VA_ARGS__) : CUZK_DISPATCH(fn, __VA_ARGS__))
#else
#define CUZK_DISPATCH(fn, ...) cuzk::portable::fn(__VA_ARGS__)
#define CUZK_DISPATCH_IFMA(fn, ...) cuzk::portable::fn(__VA_ARGS__)
#endif

const char* isa_name(uint32_t isa) {
    if (isa == CUZK_CPU_ISA_X86_IFMA) return "x86-64 BMI2/ADX + AVX-512 IFMA";
    return isa == CUZK_CPU_ISA_X86_ADX ? "x86-64 BMI2/ADX" : "portable";
}

const char* build_string() {
    static const std::string s = std::string("gcc ") + __VERSION__ +
#if defined(__OPTIMIZE__)
                                 " -O" +
#endif
                                 (CUZK_CUDA_COMPILED ? ", with libcuzk_cuda (sm_90 + PTX)" : ", CPU only (built without nvcc)");
    return s.c_str();
}

}  // namespace

extern "C" {

const uint32_t cuzk_abi_version_value = CUZK_ABI_VERSION;
CUZK_API uint32_t cuzk_abi_version(void) { return CUZK_ABI_VERSION; }

CUZK_API const char* cuzk_version(void) { return CUZK_VERSION_STRING; }

CUZK_API const char* cuzk_last_error(void) { return cuzk::last_error; }

CUZK_API const char* cuzk_status_name(cuzk_status_t status) {
    switch (status) {
        case CUZK_OK: return "CUZK_OK";
        case CUZK_ERR_INVALID_ARGUMENT: return "CUZK_ERR_INVALID_ARGUMENT";
        case CUZK_ERR_UNSUPPORTED: return "CUZK_ERR_UNSUPPORTED";
        case CUZK_ERR_OUT_OF_MEMORY: return "CUZK_ERR_OUT_OF_MEMORY";
        case CUZK_ERR_NOT_CANONICAL: return "CUZK_ERR_NOT_CANONICAL";
        case CUZK_ERR_NOT_ON_CURVE: return "CUZK_ERR_NOT_ON_CURVE";
        case CUZK_ERR_NOT_IN_SUBGROUP: return "CUZK_ERR_NOT_IN_SUBGROUP";
        case CUZK_ERR_CUDA: return "CUZK_ERR_CUDA";
        case CUZK_ERR_NO_DEVICE: return "CUZK_ERR_NO_DEVICE";
        case CUZK_ERR_INTERNAL: return "CUZK_ERR_INTERNAL";
        default: return "CUZK_ERR_UNKNOWN";
    }
}

CUZK_API cuzk_status_t cuzk_get_library_info(cuzk_library_info* out) {
    return guarded("cuzk_get_library_info", [&] {
        require_ptr(out, "out");
        out->abi_version = CUZK_ABI_VERSION;
        out->cuda_compiled = CUZK_CUDA_COMPILED;
        out->hardware_threads = hardware_threads();
        out->max_ntt_log_size = MAX_NTT_LOG;
        out->cpu_isa = current_isa().load();
        out->cpu_isa_available = available_isas();
        out->version = CUZK_VERSION_STRING;
        out->build = build_string();
    });
}

CUZK_API cuzk_status_t cuzk_set_cpu_isa(uint32_t isa) {
    return guarded("cuzk_set_cpu_isa", [&] {
        require(isa <= CUZK_CPU_ISA_X86_IFMA, "unknown CPU code path " + std::to_string(isa));
        uint32_t mask = available_isas();
        if (isa == CUZK_CPU_ISA_AUTO) isa = best_isa(mask);
        if (!(mask & (1u << isa)))
            fail(CUZK_ERR_UNSUPPORTED, std::string("the ") + isa_name(isa) + " code path is not available on this CPU or build");
        current_isa().store(isa);
    });
}

CUZK_API cuzk_status_t cuzk_get_curve_info(uint32_t curve, cuzk_curve_info* out) {
    return guarded("cuzk_get_curve_info", [&] {
        require_ptr(out, "out");
        require_curve(curve);
        std::memset(out, 0, sizeof(*out));
        out->curve = curve;
        with_curve(curve, [&](auto tag) {
            using G = typename decltype(tag)::type;
            using Fr = typename G::Fr;
            out->fp_bytes = G::F::BYTES;
            out->fr_bytes = Fr::BYTES;
            out->g1_affine_bytes = sizeof(Affine<G>);
            out->g2_affine_bytes = 2 * sizeof(Affine<G>);
            out->fr_two_adicity = Fr::Params::TWO_ADICITY;
            out->fr_bits = Fr::Params::BITS;
            out->fp_bits = G::F::Params::BITS;
        });
    });
}


CUZK_API cuzk_status_t cuzk_field_op(uint32_t curve, uint32_t field, uint32_t op, const void* a, const void* b,
                                     void* out, uint64_t n) {
    return CUZK_DISPATCH(impl_field_op, curve, field, op, a, b, out, n);
}

CUZK_API cuzk_status_t cuzk_point_op(uint32_t curve, uint32_t group, uint32_t op, const void* a, const void* b,
                                     void* out, uint64_t n) {
    return CUZK_DISPATCH(impl_point_op, curve, group, op, a, b, out, n);
}

CUZK_API cuzk_status_t cuzk_pairing(uint32_t curve, const void* g1, const void* g2, uint64_t n, void* out, uint32_t* is_one) {
    return CUZK_DISPATCH_IFMA(impl_pairing, curve, g1, g2, n, out, is_one);
}

CUZK_API cuzk_status_t cuzk_miller_loop(uint32_t curve, const void* g1, const void* g2, uint64_t n, void* out) {
    return CUZK_DISPATCH_IFMA(impl_miller_loop, curve, g1, g2, n, out);
}

CUZK_API cuzk_status_t cuzk_g2_prepare(uint32_t curve, const void* g2, uint64_t n, void* out, uint64_t* bytes) {
    return CUZK_DISPATCH_IFMA(impl_g2_prepare, curve, g2, n, out, bytes);
}

CUZK_API cuzk_status_t cuzk_pairing_check(uint32_t curve, const void* g1, const void* g2, uint64_t n, const void* g1_fixed,
                                          const void* prepared, uint64_t n_fixed, const void* factor, uint32_t* is_one) {
    return CUZK_DISPATCH_IFMA(impl_pairing_check, curve, g1, g2, n, g1_fixed, prepared, n_fixed, factor, is_one);
}

CUZK_API cuzk_status_t cuzk_pairing_check_g2(uint32_t curve, const void* g1, const void* g2, uint64_t n, const void* g1_fixed,
                                             const void* prepared, uint64_t n_fixed, const void* factor, uint32_t* is_one,
                                             uint64_t* outside) {
    return CUZK_DISPATCH_IFMA(impl_pairing_check_g2, curve, g1, g2, n, g1_fixed, prepared, n_fixed, factor, is_one, outside);
}

CUZK_API cuzk_status_t cuzk_fixed_prepare(uint32_t curve, uint32_t group, const void* points, uint64_t n, void* out, uint64_t* bytes) {
    return CUZK_DISPATCH(impl_fixed_prepare, curve, group, points, n, out, bytes);
}

CUZK_API cuzk_status_t cuzk_fixed_sum(uint32_t curve, uint32_t group, const void* table, uint64_t n, const void* scalars, void* result) {
    return CUZK_DISPATCH(impl_fixed_sum, curve, group, table, n, scalars, result);
}

CUZK_API cuzk_status_t cuzk_msm(const cuzk_msm_config* config, const void* bases, const void* scalars, void* result) {
    return CUZK_DISPATCH_IFMA(impl_msm, config, bases, scalars, result);
}

CUZK_API cuzk_status_t cuzk_ntt(const cuzk_ntt_config* config, void* data) {
    return CUZK_DISPATCH(impl_ntt, config, data);
}

CUZK_API cuzk_status_t cuzk_emulate_msm(const cuzk_msm_config* config, const void* bases, const void* scalars, void* result) {
    return cuzk::devmodel::impl_emulate_msm(config, bases, scalars, result);
}

CUZK_API cuzk_status_t cuzk_emulate_msm_precompute(const cuzk_msm_config* config, void* table) {
    return cuzk::devmodel::impl_emulate_msm_precompute(config, table);
}

CUZK_API cuzk_status_t cuzk_msm_plan(cuzk_msm_config* config, uint64_t max_bytes) {
    return cuzk::devmodel::impl_msm_plan(config, max_bytes);
}

CUZK_API cuzk_status_t cuzk_emulate_ntt(const cuzk_ntt_config* config, void* data) {
    return cuzk::devmodel::impl_emulate_ntt(config, data);
}

CUZK_API cuzk_status_t cuzk_emulate_groth16_h(const cuzk_h_config* config, void* a, void* b, void* c) {
    return cuzk::devmodel::impl_emulate_groth16_h(config, a, b, c);
}

CUZK_API cuzk_status_t cuzk_groth16_abc(const cuzk_abc_config* config, void* a, void* b, void* c) {
    return CUZK_DISPATCH(impl_groth16_abc, config, a, b, c);
}

CUZK_API cuzk_status_t cuzk_groth16_h(const cuzk_h_config* config, void* a, void* b, void* c) {
    return CUZK_DISPATCH_IFMA(impl_groth16_h, config, a, b, c);
}

CUZK_API cuzk_status_t cuzk_points_decode(const cuzk_codec_config* config, const void* src, void* dst,
                                          cuzk_check_result* result) {
    return CUZK_DISPATCH_IFMA(impl_points_decode, config, src, dst, result);
}

CUZK_API cuzk_status_t cuzk_points_encode(const cuzk_codec_config* config, const void* src, void* dst) {
    return CUZK_DISPATCH(impl_points_encode, config, src, dst);
}

CUZK_API cuzk_status_t cuzk_scalars_decode(const cuzk_codec_config* config, const void* src, void* dst,
                                           cuzk_check_result* result) {
    return CUZK_DISPATCH(impl_scalars_decode, config, src, dst, result);
}

CUZK_API cuzk_status_t cuzk_scalars_encode(const cuzk_codec_config* config, const void* src, void* dst) {
    return CUZK_DISPATCH(impl_scalars_encode, config, src, dst);
}

CUZK_API cuzk_status_t cuzk_host_alloc(const cuzk_host_config* config, void** out, const void* copy_from,
                                       void* reserved) {
    return guarded("cuzk_host_alloc", [&] {
        require(out != nullptr, "out is null");
        *out = nullptr;
        require(config != nullptr, "config is null");
        require(config->flags == 0 && config->reserved == 0 && reserved == nullptr, "the reserved fields and arguments must be 0");
        const uint64_t bytes = config->bytes;
        require(bytes > 0 && bytes <= (uint64_t(1) << 48), "cannot allocate " + std::to_string(bytes) + " bytes");
        void* p = cuzk::host_alloc((size_t)bytes, copy_from == nullptr);
        if (!p) cuzk::fail(CUZK_ERR_OUT_OF_MEMORY, "no " + std::to_string(bytes) + " bytes of host memory to be had");
        if (copy_from) std::memcpy(p, copy_from, (size_t)bytes);
        *out = p;
    });
}

CUZK_API cuzk_status_t cuzk_host_free(const cuzk_host_config* config, void* p, void* reserved0, void* reserved1) {
    return guarded("cuzk_host_free", [&] {
        require(config != nullptr, "config is null");
        require(reserved0 == nullptr && reserved1 == nullptr, "the reserved arguments must be NULL");
        require(p == nullptr || config->bytes > 0, "a buffer of 0 bytes was never allocated");
        cuzk::host_free(p, (size_t)config->bytes);
    });
}

}  // extern "C"
