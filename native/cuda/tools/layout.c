/* Prints sizeof and offsetof of every struct in cuzk.h, one "name size" or "name.field offset"
 * line each, and the values of the enum constants the bindings name, one "NAME value" line each,
 * compiled from the same header as the library. The Java layout tests compare the hand-written FFM
 * layouts and constants with this output. */
#include <stddef.h>
#include <stdio.h>

#include "cuzk/cuzk.h"

#define SIZE(T) printf("%s %zu\n", #T, sizeof(T))
#define FIELD(T, f) printf("%s.%s %zu\n", #T, #f, offsetof(T, f))
#define CONSTANT(c) printf("%s %lld\n", #c, (long long)(c))

int main(void) {
    SIZE(cuzk_library_info);
    FIELD(cuzk_library_info, abi_version);
    FIELD(cuzk_library_info, cuda_compiled);
    FIELD(cuzk_library_info, hardware_threads);
    FIELD(cuzk_library_info, max_ntt_log_size);
    FIELD(cuzk_library_info, cpu_isa);
    FIELD(cuzk_library_info, cpu_isa_available);
    FIELD(cuzk_library_info, version);
    FIELD(cuzk_library_info, build);

    SIZE(cuzk_curve_info);
    FIELD(cuzk_curve_info, curve);
    FIELD(cuzk_curve_info, fp_bytes);
    FIELD(cuzk_curve_info, fr_bytes);
    FIELD(cuzk_curve_info, g1_affine_bytes);
    FIELD(cuzk_curve_info, g2_affine_bytes);
    FIELD(cuzk_curve_info, fr_two_adicity);
    FIELD(cuzk_curve_info, fr_bits);
    FIELD(cuzk_curve_info, fp_bits);

    SIZE(cuzk_msm_config);
    FIELD(cuzk_msm_config, curve);
    FIELD(cuzk_msm_config, group);
    FIELD(cuzk_msm_config, scalar_form);
    FIELD(cuzk_msm_config, window_bits);
    FIELD(cuzk_msm_config, threads);
    FIELD(cuzk_msm_config, copies);
    FIELD(cuzk_msm_config, count);

    SIZE(cuzk_ntt_config);
    FIELD(cuzk_ntt_config, curve);
    FIELD(cuzk_ntt_config, direction);
    FIELD(cuzk_ntt_config, coset);
    FIELD(cuzk_ntt_config, log_n);
    FIELD(cuzk_ntt_config, threads);
    FIELD(cuzk_ntt_config, flags);
    FIELD(cuzk_ntt_config, coset_shift);

    SIZE(cuzk_codec_config);
    FIELD(cuzk_codec_config, curve);
    FIELD(cuzk_codec_config, group);
    FIELD(cuzk_codec_config, encoding);
    FIELD(cuzk_codec_config, checks);
    FIELD(cuzk_codec_config, threads);
    FIELD(cuzk_codec_config, flags);
    FIELD(cuzk_codec_config, count);
    FIELD(cuzk_codec_config, src_stride);
    FIELD(cuzk_codec_config, dst_stride);

    SIZE(cuzk_abc_config);
    FIELD(cuzk_abc_config, curve);
    FIELD(cuzk_abc_config, threads);
    FIELD(cuzk_abc_config, n_coeffs);
    FIELD(cuzk_abc_config, n_vars);
    FIELD(cuzk_abc_config, domain_size);
    FIELD(cuzk_abc_config, coeffs);
    FIELD(cuzk_abc_config, witness);

    SIZE(cuzk_h_config);
    FIELD(cuzk_h_config, curve);
    FIELD(cuzk_h_config, log_n);
    FIELD(cuzk_h_config, threads);
    FIELD(cuzk_h_config, flags);

    SIZE(cuzk_host_config);
    FIELD(cuzk_host_config, bytes);
    FIELD(cuzk_host_config, flags);
    FIELD(cuzk_host_config, reserved);

    SIZE(cuzk_check_result);
    FIELD(cuzk_check_result, index);
    FIELD(cuzk_check_result, status);
    FIELD(cuzk_check_result, reserved);

    CONSTANT(CUZK_ABI_VERSION);
    CONSTANT(CUZK_H_PREPARE);
    CONSTANT(CUZK_H_CANONICAL);
    return 0;
}
