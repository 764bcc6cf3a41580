// Element-wise field and point operations on the CPU (one build per arithmetic path; see runtime/impl.hpp).
#include "cuzk/ops.hpp"
#include "ops/glv.hpp"
#include "msm/base_array.hpp"
#include "runtime/api_common.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

cuzk_status_t impl_field_op(uint32_t curve, uint32_t field, uint32_t op, const void* a,
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

cuzk_status_t impl_point_op(uint32_t curve, uint32_t group, uint32_t op, const void* a,
                                     const void* b, void* out, uint64_t n) {
    return guarded("cuzk_point_op", [&] {
        require(point_op_known(op), "unknown point operation " + std::to_string(op));
        if (n == 0) return;
        require_aligned(out, "out");
        // input points at any address, as in cuzk_msm; scalars 8-byte aligned
        if (op != CUZK_POINT_GENERATOR) require_ptr(a, "a");
        if (op == CUZK_POINT_ADD) require_ptr(b, "b");
        const bool mul = op == CUZK_POINT_MUL || op == CUZK_POINT_MUL_SUBGROUP;
        if (mul) require_aligned(b, "b");
        with_group(curve, group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            using A = Affine<G>;
            HostArray<A> a_copy, b_copy;
            const A* x = op != CUZK_POINT_GENERATOR ? aligned_points<G>(a, n, a_copy) : nullptr;  // GENERATOR reads no input
            if (op == CUZK_POINT_ADD) b = aligned_points<G>(b, n, b_copy);
            A* z = static_cast<A*>(out);
            // a multiplication costs far more than its share of a chunk's conversion to affine (one
            // inversion), so smaller chunks spread a verifier's few dozen across the threads
            constexpr size_t most = 64;
            const size_t chunk = mul ? 16 : most;
            parallel_for(0, (n + chunk - 1) / chunk, [&](size_t c) {
                size_t begin = c * chunk, end = std::min<uint64_t>(n, begin + chunk);
                XYZZ<G> tmp[most];
                typename G::F scratch[most];
                for (size_t i = begin; i < end; i++) {
                    const void* bi = nullptr;
                    if (op == CUZK_POINT_ADD) bi = static_cast<const A*>(b) + i;
                    if (mul) bi = static_cast<const uint64_t*>(b) + 4 * i;
                    // G1 by the endomorphism (GLV) where its eigenvalue holds: for MUL_SUBGROUP's
                    // points, and for MUL's in BN254, whose G1 is all of its curve (see glv.hpp)
                    if constexpr (glv_detail::has_glv<G>) {
                        if (op == CUZK_POINT_MUL_SUBGROUP || (op == CUZK_POINT_MUL && std::is_same_v<G, bn254_g1>)) {
                            tmp[i - begin] = glv_mul<G>(x[i], static_cast<const uint64_t*>(bi));
                            continue;
                        }
                    }
                    tmp[i - begin] = point_apply_xyzz<G>(op, x ? x[i] : A::infinity(), bi);
                }
                batch_to_affine<G>(tmp, z + begin, scratch, end - begin);
            });
        });
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
