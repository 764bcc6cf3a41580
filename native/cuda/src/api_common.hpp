// Shared by the ABI translation units: argument checks.
#pragma once
#include <cstdint>
#include <string>

#include "cuzk/cuzk.h"
#include "dispatch.hpp"
#include "errors.hpp"
#include "pool.hpp"

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

}  // namespace cuzk

using namespace cuzk;
