// libcuzk_cuda: errors of its own (its thread-local message is separate from libcuzk's) and device
// selection.
#include <mutex>
#include <set>

#include "runtime/cuda/common.cuh"

namespace cuzk {

namespace {
thread_local char last_error[2048];
}

void set_last_error(const char* function, const char* kind, const char* message) noexcept {
    join_message(last_error, sizeof last_error, function, kind, message);
}

namespace cuda {

void use_device(int device) {
    check(cudaSetDevice(device), "cudaSetDevice");
    static std::mutex m;
    static std::set<int> configured;
    std::lock_guard<std::mutex> g(m);
    if (configured.insert(device).second) {
        cudaMemPool_t pool;
        check(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool");
        uint64_t keep = UINT64_MAX;
        check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "cudaMemPoolSetAttribute");
    }
}

}  // namespace cuda
}  // namespace cuzk

using namespace cuzk;
using cuzk::cuda::check;

extern "C" {

CUZK_API const char* cuzk_cuda_last_error(void) { return cuzk::last_error; }

CUZK_API cuzk_status_t cuzk_cuda_device_count(int32_t* count) {
    return guarded("cuzk_cuda_device_count", [&] {
        require(count != nullptr, "count is null");
        *count = 0;
        int c = 0;
        check(cudaGetDeviceCount(&c), "cudaGetDeviceCount");
        *count = c;
    });
}

}  // extern "C"
