// Point codecs and checks (one build per arithmetic path; see runtime/impl.hpp).
#include <cstring>

#include "codec/check_ifma.hpp"
#include "codec/codec.hpp"
#include "runtime/api_common.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

cuzk_status_t impl_points_decode(const cuzk_codec_config* config, const void* src, void* dst,
                                          cuzk_check_result* result) {
    return guarded("cuzk_points_decode", [&] {
        require_ptr(config, "config");
        require(config->checks <= CUZK_CHECK_ALL, "unknown check bits");
        if (result) *result = cuzk_check_result{UINT64_MAX, CUZK_OK, 0};
        if (config->count == 0) return;
        require_ptr(src, "src");
        if (dst) require_aligned(dst, "dst");
        with_group(config->curve, config->group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            PointCodec<G> codec(config->curve, config->encoding);
            const size_t ss = config->src_stride ? config->src_stride : codec.encoded_bytes();
            const size_t ds = config->dst_stride ? config->dst_stride : PointCodec<G>::NATIVE_BYTES;
            require(ss >= codec.encoded_bytes(), "src_stride is smaller than one encoded point");
            require(ds >= PointCodec<G>::NATIVE_BYTES && ds % 8 == 0, "dst_stride must hold a point and be a multiple of 8");
            const uint8_t* s = static_cast<const uint8_t*>(src);
            uint8_t* d = static_cast<uint8_t*>(dst);
            auto one = [&](size_t i) {
                if (!d) {  // checked only
                    Affine<G> tmp;
                    return codec.decode(s + i * ss, tmp, config->checks);
                }
                return codec.decode(s + i * ss, *reinterpret_cast<Affine<G>*>(d + i * ds), config->checks);
            };
#if defined(CUZK_BATCH_IFMA)
            // Checking only (as a key's sections are), in the native layout: eight points at a time.
            if constexpr (std::is_same_v<G, bls12_381_g1>) {
                // every check, BLS12-381's G1 membership included (a batch verification's A and C)
                constexpr uint32_t all = CUZK_CHECK_CANONICAL | CUZK_CHECK_ON_CURVE | CUZK_CHECK_SUBGROUP;
                if (!d && config->encoding == CUZK_ENCODING_NATIVE && (config->checks & all) == all) {
                    check_all_chunked(
                        config->count, config->threads, result, "point",
                        [&](size_t begin, size_t end) { return lanes::G1SubgroupLanes::pass(s, ss, begin, end); }, one);
                    return;
                }
            }
            if constexpr (lanes::algebra_of<typename G::F>::exists) {
                const uint32_t checks = config->checks;
                if (!d && config->encoding == CUZK_ENCODING_NATIVE && (checks & CUZK_CHECK_CANONICAL) && !(checks & CUZK_CHECK_SUBGROUP)) {
                    const bool on_curve = (checks & CUZK_CHECK_ON_CURVE) != 0;
                    check_all_chunked(
                        config->count, config->threads, result, "point",
                        [&](size_t begin, size_t end) { return lanes::points_pass<G>(s, ss, begin, end, on_curve); }, one);
                    return;
                }
            }
#endif
            check_all(config->count, config->threads, result, "point", one);
        });
    });
}

namespace {

// Scalars are 32 bytes in every encoding; the big-endian ones reverse the byte order. Decoding may
// check each value below r (after reordering) and may skip writing (dst null).
void convert_scalars(const cuzk_codec_config* config, const void* src, void* dst, cuzk_check_result* result, bool decode) {
    require_ptr(config, "config");
    require(config->encoding <= CUZK_ENCODING_EIP196, "unknown encoding " + std::to_string(config->encoding));
    require(config->checks <= CUZK_CHECK_ALL, "unknown check bits");
    with_scalar_field(config->curve, [&](auto tag) {
        using Fr = typename decltype(tag)::type;
        if (result) *result = cuzk_check_result{UINT64_MAX, CUZK_OK, 0};
        if (config->count == 0) return;
        require_ptr(src, "src");
        if (!decode) require_ptr(dst, "dst");
        const size_t ss = config->src_stride ? config->src_stride : 32;
        const size_t ds = config->dst_stride ? config->dst_stride : 32;
        require(ss >= 32 && ds >= 32, "strides must be at least 32 bytes");
        const bool reverse = config->encoding != CUZK_ENCODING_NATIVE;
        const bool check = decode && (config->checks & CUZK_CHECK_CANONICAL);
        const uint8_t* s = static_cast<const uint8_t*>(src);
        uint8_t* d = static_cast<uint8_t*>(dst);
        check_all(config->count, config->threads, result, "scalar", [&](size_t i) {
            uint64_t w[4];
            const uint8_t* a = s + i * ss;
            if (reverse) {
                uint8_t* b = reinterpret_cast<uint8_t*>(w);
                for (int k = 0; k < 32; k++) b[k] = a[31 - k];
            } else {
                std::memcpy(w, a, 32);
            }
            if (check && !Fr::is_canonical(w)) return CUZK_ERR_NOT_CANONICAL;
            if (d) std::memcpy(d + i * ds, w, 32);
            return CUZK_OK;
        }, [](cuzk_status_t) { return "the value is not below the scalar field's modulus r"; });
    });
}

}  // namespace

cuzk_status_t impl_scalars_decode(const cuzk_codec_config* config, const void* src, void* dst, cuzk_check_result* result) {
    return guarded("cuzk_scalars_decode", [&] { convert_scalars(config, src, dst, result, true); });
}

cuzk_status_t impl_scalars_encode(const cuzk_codec_config* config, const void* src, void* dst) {
    return guarded("cuzk_scalars_encode", [&] { convert_scalars(config, src, dst, nullptr, false); });
}

cuzk_status_t impl_points_encode(const cuzk_codec_config* config, const void* src, void* dst) {
    return guarded("cuzk_points_encode", [&] {
        require_ptr(config, "config");
        if (config->count == 0) return;
        require_ptr(src, "src");  // points at any address, as in cuzk_msm
        require_ptr(dst, "dst");
        with_group(config->curve, config->group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            PointCodec<G> codec(config->curve, config->encoding);
            const size_t ss = config->src_stride ? config->src_stride : PointCodec<G>::NATIVE_BYTES;
            const size_t ds = config->dst_stride ? config->dst_stride : codec.encoded_bytes();
            require(ss >= PointCodec<G>::NATIVE_BYTES, "src_stride is smaller than one point");  // read at any address
            require(ds >= codec.encoded_bytes(), "dst_stride is smaller than one encoded point");
            const uint8_t* s = static_cast<const uint8_t*>(src);
            uint8_t* d = static_cast<uint8_t*>(dst);
            parallel_for(config->threads, (config->count + 255) / 256, [&](size_t c) {
                size_t end = std::min<uint64_t>(config->count, (c + 1) * 256);
                for (size_t i = c * 256; i < end; i++) {
                    Affine<G> p;
                    std::memcpy(static_cast<void*>(&p), s + i * ss, sizeof p);
                    codec.encode(p, d + i * ds);
                }
            });
        });
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
