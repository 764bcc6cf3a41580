// The CPU MSM in BN254's G2 (one build per arithmetic path; see msm_cpu.hpp's end).
#include "msm/msm_cpu.hpp"

CUZK_NS_BEGIN
template CUZK_MSM_CPU_INSTANCE(bn254_g2);
CUZK_NS_END
