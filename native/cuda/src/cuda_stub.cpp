// CUDA entry points of a build made without nvcc: they answer CUZK_ERR_NO_DEVICE with the reason.
#include "cuzk/cuzk.h"
#include "errors.hpp"

using namespace cuzk;

namespace {
const char* const NO_CUDA = "this cuzk library was built without CUDA (nvcc was not found at build time)";
}

extern "C" {

CUZK_API cuzk_status_t cuzk_cuda_device_count(int32_t* count) {
    return guarded("cuzk_cuda_device_count", [&] {
        if (count) *count = 0;
        fail(CUZK_ERR_NO_DEVICE, NO_CUDA);
    });
}

CUZK_API cuzk_status_t cuzk_cuda_field_op(int32_t, uint32_t, uint32_t, uint32_t, const void*, const void*, void*, uint64_t) {
    return guarded("cuzk_cuda_field_op", [&] { fail(CUZK_ERR_NO_DEVICE, NO_CUDA); });
}

CUZK_API cuzk_status_t cuzk_cuda_point_op(int32_t, uint32_t, uint32_t, uint32_t, const void*, const void*, void*, uint64_t) {
    return guarded("cuzk_cuda_point_op", [&] { fail(CUZK_ERR_NO_DEVICE, NO_CUDA); });
}

}  // extern "C"
