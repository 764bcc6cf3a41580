// Shared by the ABI translation units: argument checks.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "cuzk/cuzk.h"
#include "runtime/dispatch.hpp"
#include "runtime/errors.hpp"
#include "runtime/pool.hpp"

namespace cuzk {

constexpr int MAX_NTT_LOG = 28;

inline void require_aligned(const void* p, const char* what) {
    require(p != nullptr, std::string(what) + " is null");
    require(((uintptr_t)p & 7) == 0, std::string(what) + " is not 8-byte aligned");
}

template <class T>
void require_ptr(const T* p, const char* what) {
    require(p != nullptr, std::string(what) + " is null");
}

// cuzk_groth16_h's argument checks; then prepare(Tag<Fr>) for CUZK_H_PREPARE, else
// run(a, b, c, canonical) with a, b and c as pointers to the curve's Fr and canonical for
// CUZK_H_CANONICAL.
template <class Prepare, class Run>
void with_h_vectors(const cuzk_h_config* config, void* a, void* b, void* c, Prepare&& prepare, Run&& run) {
    require_ptr(config, "config");
    require((config->flags & ~(uint32_t)(CUZK_H_PREPARE | CUZK_H_CANONICAL)) == 0,
            "unknown flags " + std::to_string(config->flags) + " (1 = CUZK_H_PREPARE, 2 = CUZK_H_CANONICAL)");
    const bool canonical = (config->flags & CUZK_H_CANONICAL) != 0;
    const uint32_t log_n = config->log_n;
    const bool only_prepare = (config->flags & CUZK_H_PREPARE) != 0;
    if (!only_prepare) {
        require_aligned(a, "a");
        require_aligned(b, "b");
        require_aligned(c, "c");
        require(a != b && b != c && a != c, "a, b and c must be distinct vectors");
    }
    with_scalar_field(config->curve, [&](auto tag) {
        using Fr = typename decltype(tag)::type;
        // unsigned: log_n comes from the caller, and a value from 2^31 on was negative as an int
        const uint32_t max_log = (uint32_t)std::min(MAX_NTT_LOG, Fr::Params::TWO_ADICITY - 1);
        if (log_n > max_log) {
            fail(CUZK_ERR_INVALID_ARGUMENT, "log_n " + std::to_string(log_n) + " is above the largest supported size 2^" +
                                                std::to_string(max_log));
        }
        if (only_prepare) prepare(tag);
        else run(static_cast<Fr*>(a), static_cast<Fr*>(b), static_cast<Fr*>(c), canonical);
    });
}

}  // namespace cuzk

using namespace cuzk;
