// Status codes across the ABI: native code throws cuzk::Error (or lets std::bad_alloc escape);
// the ABI entry points catch everything and turn it into a status plus a per-thread message.
#pragma once
#include <cstddef>
#include <exception>
#include <initializer_list>
#include <new>
#include <string>

#include "cuzk/cuzk.h"

namespace cuzk {

struct Error : std::exception {
    cuzk_status_t status;
    std::string message;
    Error(cuzk_status_t s, std::string m) : status(s), message(std::move(m)) {}
    const char* what() const noexcept override { return message.c_str(); }
};

// The calling thread's message, "function: kind message", cut to fit a fixed buffer: recording an
// error allocates nothing, so it cannot fail inside a catch of a noexcept entry point (a string
// built there could throw std::bad_alloc when memory runs out, and that ends the process).
// Each library defines it over its own thread-local buffer (runtime/abi.cpp, runtime/cuda/runtime.cu).
void set_last_error(const char* function, const char* kind, const char* message) noexcept;

// Copies the parts into out (size bytes, always terminated), as far as they fit.
inline void join_message(char* out, size_t size, const char* function, const char* kind, const char* message) noexcept {
    size_t at = 0;
    for (const char* part : {function, ": ", kind, message}) {
        for (const char* c = part; *c != 0 && at + 1 < size; c++) out[at++] = *c;
    }
    out[at] = 0;
}

[[noreturn]] inline void fail(cuzk_status_t status, const std::string& message) { throw Error(status, message); }

inline void require(bool condition, const std::string& message) {
    if (!condition) fail(CUZK_ERR_INVALID_ARGUMENT, message);
}

template <class Fn>
cuzk_status_t guarded(const char* function, Fn&& fn) noexcept {
    try {
        fn();
        return CUZK_OK;
    } catch (const Error& e) {
        set_last_error(function, "", e.message.c_str());
        return e.status;
    } catch (const std::bad_alloc&) {
        set_last_error(function, "", "out of host memory");
        return CUZK_ERR_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        set_last_error(function, "internal error: ", e.what());
        return CUZK_ERR_INTERNAL;
    } catch (...) {
        set_last_error(function, "internal error: ", "unknown exception");
        return CUZK_ERR_INTERNAL;
    }
}

}  // namespace cuzk
