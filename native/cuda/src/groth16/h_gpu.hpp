// Groth16's last step of H as a per-thread body, shared by the CUDA kernel (cuda/h.cu) and the
// CPU code (h_cpu.hpp).
#pragma once
#include "cuzk/field.hpp"

CUZK_NS_BEGIN
namespace gpu {

// Groth16's h = a*b - c, element i.
template <class Fr>
CUZK_HD void groth16_h_body(Fr* a, const Fr* b, const Fr* c, uint64_t i) {
    a[i] = a[i] * b[i] - c[i];
}

}  // namespace gpu
CUZK_NS_END
