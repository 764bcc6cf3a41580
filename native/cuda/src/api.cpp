// The C ABI over the CPU backend: argument checks, dispatch to the templates, status codes.
#include <cstring>
#include <string>
#include <vector>

#include "cuzk/cuzk.h"
#include "api_common.hpp"
#include "cuzk/ops.hpp"

#ifndef CUZK_VERSION_STRING
#define CUZK_VERSION_STRING "0.0.0-dev"
#endif
#ifndef CUZK_CUDA_COMPILED
#define CUZK_CUDA_COMPILED 0
#endif

namespace cuzk {

namespace {
thread_local std::string last_error;
}

void set_last_error(const std::string& message) { last_error = message; }

}  // namespace cuzk

namespace {

const char* build_string() {
    static const std::string s = std::string("gcc ") + __VERSION__ +
#if defined(__OPTIMIZE__)
                                 " -O" +
#endif
                                 (CUZK_CUDA_COMPILED ? ", CUDA kernels (sm_90 + PTX)" : ", CPU only (built without nvcc)");
    return s.c_str();
}

}  // namespace

extern "C" {

CUZK_API uint32_t cuzk_abi_version(void) { return CUZK_ABI_VERSION; }

CUZK_API const char* cuzk_version(void) { return CUZK_VERSION_STRING; }

CUZK_API const char* cuzk_last_error(void) { return cuzk::last_error.c_str(); }

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
        out->version = CUZK_VERSION_STRING;
        out->build = build_string();
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

CUZK_API cuzk_status_t cuzk_field_op(uint32_t curve, uint32_t field, uint32_t op, const void* a,
                                     const void* b, void* out, uint64_t n) {
    return guarded("cuzk_field_op", [&] {
        require(field_op_known(op), "unknown field operation " + std::to_string(op));
        if (n == 0) return;
        require_aligned(a, "a");
        require_aligned(out, "out");
        bool binary = op == CUZK_OP_ADD || op == CUZK_OP_SUB || op == CUZK_OP_MUL;
        if (binary) require_aligned(b, "b");
        with_field(curve, field, [&](auto tag) {
            using F = typename decltype(tag)::type;
            const F* x = static_cast<const F*>(a);
            const F* y = binary ? static_cast<const F*>(b) : x;
            F* z = static_cast<F*>(out);
            parallel_for(0, (n + 4095) / 4096, [&](size_t c) {
                size_t end = std::min<uint64_t>(n, (c + 1) * 4096);
                for (size_t i = c * 4096; i < end; i++) {
                    if constexpr (is_ext_field<F>::value) z[i] = ext_field_apply(op, x[i], y[i]);
                    else z[i] = prime_field_apply(op, x[i], y[i]);
                }
            });
        });
    });
}

CUZK_API cuzk_status_t cuzk_point_op(uint32_t curve, uint32_t group, uint32_t op, const void* a,
                                     const void* b, void* out, uint64_t n) {
    return guarded("cuzk_point_op", [&] {
        require(point_op_known(op), "unknown point operation " + std::to_string(op));
        if (n == 0) return;
        require_aligned(out, "out");
        if (op != CUZK_POINT_GENERATOR) require_aligned(a, "a");
        if (op == CUZK_POINT_ADD || op == CUZK_POINT_MUL) require_aligned(b, "b");
        with_group(curve, group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            using A = Affine<G>;
            const A* x = static_cast<const A*>(a);
            A* z = static_cast<A*>(out);
            parallel_for(0, (n + 63) / 64, [&](size_t c) {
                size_t end = std::min<uint64_t>(n, (c + 1) * 64);
                for (size_t i = c * 64; i < end; i++) {
                    const void* bi = nullptr;
                    if (op == CUZK_POINT_ADD) bi = static_cast<const A*>(b) + i;
                    if (op == CUZK_POINT_MUL) bi = static_cast<const uint64_t*>(b) + 4 * i;
                    z[i] = point_apply<G>(op, x ? x[i] : A::infinity(), bi);
                }
            });
        });
    });
}

}  // extern "C"
