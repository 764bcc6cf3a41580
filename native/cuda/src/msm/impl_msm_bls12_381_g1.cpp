// The CPU MSM in BLS12-381's G1 (one build per arithmetic path; see msm_cpu.hpp's end).
#include "msm/msm_cpu.hpp"

CUZK_NS_BEGIN
template CUZK_MSM_CPU_INSTANCE(bls12_381_g1);
CUZK_NS_END
