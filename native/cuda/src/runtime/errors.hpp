// Status codes across the ABI: native code throws cuzk::Error (or lets std::bad_alloc escape);
// the ABI entry points catch everything and turn it into a status plus a per-thread message.
#pragma once
#include <exception>
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

void set_last_error(const std::string& message);

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
        set_last_error(std::string(function) + ": " + e.message);
        return e.status;
    } catch (const std::bad_alloc&) {
        set_last_error(std::string(function) + ": out of host memory");
        return CUZK_ERR_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        set_last_error(std::string(function) + ": internal error: " + e.what());
        return CUZK_ERR_INTERNAL;
    } catch (...) {
        set_last_error(std::string(function) + ": internal error: unknown exception");
        return CUZK_ERR_INTERNAL;
    }
}

}  // namespace cuzk
