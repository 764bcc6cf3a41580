// libcuzk_cuda: errors of its own (its thread-local message is separate from libcuzk's) and device
// selection.
#include <mutex>
#include <set>
#include <vector>

#include "runtime/cuda/common.cuh"

namespace cuzk {

namespace {
thread_local char last_error[2048];
}

void set_last_error(const char* function, const char* kind, const char* message) noexcept {
    join_message(last_error, sizeof last_error, function, kind, message);
}

namespace cu {

namespace {
std::vector<const void*>& noted_kernels() {
    static std::vector<const void*> kernels;  // filled by static initializers, read under use_device's lock
    return kernels;
}
}  // namespace

KernelStack::KernelStack(const void* kernel) { noted_kernels().push_back(kernel); }

void use_device(int device) {
    check(cudaSetDevice(device), "cudaSetDevice");
    static std::mutex m;
    static std::set<int> configured;
    std::lock_guard<std::mutex> g(m);
    if (configured.count(device)) return;
    cudaMemPool_t pool;
    check(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool");
    uint64_t keep = UINT64_MAX;
    check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "cudaMemPoolSetAttribute");
    size_t largest = 0;
    for (const void* k : noted_kernels()) {
        cudaFuncAttributes a;
        check(cudaFuncGetAttributes(&a, k), "cudaFuncGetAttributes");
        if (a.localSizeBytes > largest) largest = a.localSizeBytes;
    }
    size_t limit = 0;
    check(cudaDeviceGetLimit(&limit, cudaLimitStackSize), "cudaDeviceGetLimit(stack)");
    if (largest > limit) check(cudaDeviceSetLimit(cudaLimitStackSize, largest), "cudaDeviceSetLimit(stack)");
    configured.insert(device);
}

}  // namespace cu
}  // namespace cuzk

using namespace cuzk;
using cuzk::cu::check;

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
