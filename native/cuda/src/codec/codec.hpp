// Point and scalar codecs: the native layout (snarkjs's little-endian Montgomery), EIP-2537
// (BLS12-381, 64-byte big-endian coordinates) and EIP-196/197 (BN254, 32-byte big-endian,
// G2 coordinates imaginary part first), with the canonical, on-curve and subgroup checks.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "codec/subgroup.hpp"
#include "cuzk/curve.hpp"
#include "runtime/errors.hpp"
#include "runtime/pool.hpp"

CUZK_NS_BEGIN

template <class F>
struct base_field {
    using type = F;
};
template <class F>
struct base_field<Field2<F>> {
    using type = F;
};

template <class G>
struct PointCodec {
    using Fp = typename base_field<typename G::F>::type;
    static constexpr int COORDS = G::GROUP == 1 ? 2 : 4;  // Fp values per point
    static constexpr size_t NATIVE_BYTES = sizeof(Affine<G>);

    uint32_t encoding;
    size_t fp_bytes;  // bytes of one encoded Fp

    explicit PointCodec(uint32_t curve, uint32_t enc) : encoding(enc) {
        switch (enc) {
            case CUZK_ENCODING_NATIVE: fp_bytes = Fp::BYTES; break;
            case CUZK_ENCODING_EIP2537:
                if (curve != CUZK_CURVE_BLS12_381) fail(CUZK_ERR_UNSUPPORTED, "EIP-2537 encoding is defined for bls12-381 only");
                fp_bytes = 64;
                break;
            case CUZK_ENCODING_EIP196:
                if (curve != CUZK_CURVE_BN254) fail(CUZK_ERR_UNSUPPORTED, "EIP-196/197 encoding is defined for bn254 only");
                fp_bytes = 32;
                break;
            default: fail(CUZK_ERR_INVALID_ARGUMENT, "unknown encoding " + std::to_string(enc));
        }
    }
    size_t encoded_bytes() const { return fp_bytes * COORDS; }

    // Position of the native coordinate i (x.c0, x.c1, y.c0, y.c1) in the encoding: EIP-197
    // writes each Fp2 element as (c1, c0).
    int slot(int i) const { return (encoding == CUZK_ENCODING_EIP196 && COORDS == 4) ? (i ^ 1) : i; }

    static Fp* coords(Affine<G>& p) { return reinterpret_cast<Fp*>(&p); }
    static const Fp* coords(const Affine<G>& p) { return reinterpret_cast<const Fp*>(&p); }

    // Decodes one point; returns CUZK_OK or the failing check's status.
    cuzk_status_t decode(const uint8_t* src, Affine<G>& out, uint32_t checks) const {
        if (encoding == CUZK_ENCODING_NATIVE) {
            std::memcpy(&out, src, NATIVE_BYTES);
            if (out.is_inf()) return CUZK_OK;
            if (checks & CUZK_CHECK_CANONICAL)
                for (int i = 0; i < COORDS; i++)
                    if (!Fp::is_canonical(coords(out)[i].l)) return CUZK_ERR_NOT_CANONICAL;
        } else {
            bool all_zero = true;
            for (size_t i = 0; i < encoded_bytes(); i++)
                if (src[i]) {
                    all_zero = false;
                    break;
                }
            if (all_zero) {
                out = Affine<G>::infinity();
                return CUZK_OK;
            }
            const size_t pad = fp_bytes - Fp::BYTES;
            for (int i = 0; i < COORDS; i++) {
                const uint8_t* e = src + fp_bytes * slot(i);
                for (size_t b = 0; b < pad; b++)
                    if (e[b]) return CUZK_ERR_NOT_CANONICAL;
                Fp v;
                for (int w = 0; w < Fp::N; w++) {
                    uint64_t word = 0;
                    const uint8_t* q = e + pad + (Fp::N - 1 - w) * 8;
                    for (int k = 0; k < 8; k++) word = (word << 8) | q[k];
                    v.l[w] = word;
                }
                if (!Fp::is_canonical(v.l)) return CUZK_ERR_NOT_CANONICAL;
                coords(out)[i] = Fp::to_mont(v);
            }
        }
        if ((checks & CUZK_CHECK_ON_CURVE) && !out.is_on_curve()) return CUZK_ERR_NOT_ON_CURVE;
        if ((checks & CUZK_CHECK_SUBGROUP) && G::HAS_COFACTOR) {
            if (!(checks & CUZK_CHECK_ON_CURVE) && !out.is_on_curve()) return CUZK_ERR_NOT_ON_CURVE;
            if (!in_subgroup(out)) return CUZK_ERR_NOT_IN_SUBGROUP;
        }
        return CUZK_OK;
    }

    void encode(const Affine<G>& p, uint8_t* dst) const {
        if (encoding == CUZK_ENCODING_NATIVE) {
            std::memcpy(dst, &p, NATIVE_BYTES);
            return;
        }
        std::memset(dst, 0, encoded_bytes());
        if (p.is_inf()) return;
        const size_t pad = fp_bytes - Fp::BYTES;
        for (int i = 0; i < COORDS; i++) {
            Fp v = coords(p)[i].from_mont();
            uint8_t* e = dst + fp_bytes * slot(i) + pad;
            for (int w = 0; w < Fp::N; w++) {
                uint64_t word = v.l[w];
                uint8_t* q = e + (Fp::N - 1 - w) * 8;
                for (int k = 7; k >= 0; k--) {
                    q[k] = (uint8_t)word;
                    word >>= 8;
                }
            }
        }
    }
};

inline const char* check_reason(cuzk_status_t s) {
    switch (s) {
        case CUZK_ERR_NOT_CANONICAL: return "a coordinate is not below the field modulus (or its padding bytes are not zero)";
        case CUZK_ERR_NOT_ON_CURVE: return "the point is not on the curve";
        case CUZK_ERR_NOT_IN_SUBGROUP: return "the point is not in the prime-order subgroup";
        default: return "invalid";
    }
}

// Runs check(i) -> status over [0, n) in parallel and reports the lowest failing index; reason
// words a failing status for the message (the points' reasons unless the caller checks other items).
// passes(begin, end) may vouch for a whole chunk of items at once (a faster check of the same
// rules); a chunk it does not vouch for is checked item by item.
template <class Passes, class Check, class Reason = const char* (*)(cuzk_status_t)>
void check_all_chunked(uint64_t n, unsigned threads, cuzk_check_result* result, const char* what, Passes&& passes,
                       Check&& check, Reason reason = &check_reason) {
    std::atomic<uint64_t> first_bad{UINT64_MAX};
    const size_t chunk = 256;
    size_t chunks = (n + chunk - 1) / chunk;
    std::vector<cuzk_status_t> chunk_status(chunks, CUZK_OK);
    std::vector<uint64_t> chunk_index(chunks, UINT64_MAX);
    parallel_for(threads, chunks, [&](size_t c) {
        size_t end = std::min<size_t>(n, (c + 1) * chunk);
        if (passes(c * chunk, end)) return;
        for (size_t i = c * chunk; i < end; i++) {
            if (i > first_bad.load(std::memory_order_relaxed)) return;  // a lower failure is known
            cuzk_status_t s = check(i);
            if (s != CUZK_OK) {
                chunk_status[c] = s;
                chunk_index[c] = i;
                uint64_t cur = first_bad.load();
                while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
                }
                return;
            }
        }
    });
    if (result) {
        result->index = UINT64_MAX;
        result->status = CUZK_OK;
        result->reserved = 0;
    }
    uint64_t bad = first_bad.load();
    if (bad == UINT64_MAX) return;
    cuzk_status_t s = chunk_status[bad / chunk];
    if (result) {
        result->index = bad;
        result->status = s;
    }
    fail(s, std::string(what) + " " + std::to_string(bad) + ": " + reason(s));
}

template <class Check, class Reason = const char* (*)(cuzk_status_t)>
void check_all(uint64_t n, unsigned threads, cuzk_check_result* result, const char* what, Check&& check,
               Reason reason = &check_reason) {
    check_all_chunked(n, threads, result, what, [](size_t, size_t) { return false; }, check, reason);
}

CUZK_NS_END
