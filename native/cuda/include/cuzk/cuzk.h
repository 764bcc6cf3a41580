/*
 * cuzk: the one C ABI of the cuzk native library (CPU backend; CUDA backend where built).
 *
 * Conventions
 *  - Every function except the version and message getters returns a cuzk_status_t; CUZK_OK is 0.
 *    On failure cuzk_last_error() gives a message for the calling thread that names what was wrong.
 *  - No C++ exception, abort or exit crosses this boundary.
 *  - All functions are safe to call from many threads at once. A `threads` field of 0 means all
 *    hardware threads; the work runs on a shared native pool plus the calling thread.
 *  - Field elements are little-endian 64-bit words in Montgomery form (R = 2^(64*words)), the layout
 *    of snarkjs files. Affine points are x then y (G2: x.c0, x.c1, y.c0, y.c1); infinity is all zeros.
 *  - Scalars are 32 bytes, little-endian: canonical integers (any 256-bit value, reduced mod r by the
 *    kernels) or Fr elements in Montgomery form, as cuzk_scalar_form says.
 *  - Buffers in the native layout are 8-byte aligned (a call that gets one that is not fails,
 *    naming it), except the points a call only reads (cuzk_msm's and cuzk_emulate_msm's bases,
 *    cuzk_points_encode's src, cuzk_point_op's input points, cuzk_points_decode's NATIVE src):
 *    those may sit at any address, such as a point section of a memory-mapped snarkjs zkey,
 *    which usually starts 4 bytes past an 8-byte boundary. Encoded buffers (the codecs' other
 *    side) may sit anywhere too.
 *
 *  - The calls a proof makes (the Groth16 steps, the MSMs, the decoders that check the key and the
 *    witness) share one call shape: a config struct and three pointers, returning a status. A
 *    binding such as Java's FFM linker prepares one stub per distinct shape on first use (about
 *    10 ms each in a command that proves once), so new entry points on that path keep this shape.
 *
 * The ABI version changes whenever a signature, a struct layout or an enum value changes.
 * Version 2: cuzk_groth16_abc and cuzk_groth16_h take config structs; cuzk_points_check is
 * cuzk_points_decode with a NULL dst; cuzk_scalars_decode checks and reports like it;
 * cuzk_host_alloc and cuzk_host_free take cuzk_host_config (and may copy); cuzk_abi_version_value.
 * Version 3: cuzk_pairing. Version 4: cuzk_miller_loop and cuzk_pairing_check. Version 5:
 * cuzk_g2_prepare, and cuzk_pairing_check takes pairs with prepared G2 points. Version 6:
 * cuzk_emulate_groth16_h. Version 7: cuzk_msm_config's reserved flags became copies (tables of
 * shifted copies of the bases: cuzk_msm_plan, cuzk_emulate_msm_precompute, cuzk_cuda_msm_precompute);
 * cuzk_fixed_prepare and cuzk_fixed_sum. Version 8: cuzk_pairing_check_g2. Version 9:
 * CUZK_POINT_MUL_SUBGROUP.
 */
#ifndef CUZK_H
#define CUZK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_ABI_VERSION 9

#if defined(_WIN32)
#define CUZK_API __declspec(dllexport)
#else
#define CUZK_API __attribute__((visibility("default")))
#endif

typedef int32_t cuzk_status_t;

enum cuzk_status {
    CUZK_OK = 0,
    CUZK_ERR_INVALID_ARGUMENT = 1, /* a null pointer, an unknown enum value, a size out of range */
    CUZK_ERR_UNSUPPORTED = 2,      /* a valid request this build cannot serve */
    CUZK_ERR_OUT_OF_MEMORY = 3,    /* host allocation failed */
    CUZK_ERR_NOT_CANONICAL = 4,    /* a coordinate is >= p, or padding bytes are not zero */
    CUZK_ERR_NOT_ON_CURVE = 5,     /* a point does not satisfy the curve equation */
    CUZK_ERR_NOT_IN_SUBGROUP = 6,  /* a point on the curve lies outside the prime-order subgroup */
    CUZK_ERR_CUDA = 7,             /* a CUDA runtime call failed */
    CUZK_ERR_NO_DEVICE = 8,        /* no usable CUDA device (or the library was built without CUDA) */
    CUZK_ERR_INTERNAL = 9          /* a bug: please report the message */
};

enum cuzk_curve {
    CUZK_CURVE_BN254 = 0,
    CUZK_CURVE_BLS12_381 = 1
};

enum cuzk_group {
    CUZK_G1 = 1,
    CUZK_G2 = 2
};

enum cuzk_field {
    CUZK_FIELD_FP = 0,
    CUZK_FIELD_FR = 1,
    CUZK_FIELD_FP2 = 2
};

enum cuzk_scalar_form {
    CUZK_SCALAR_CANONICAL = 0,
    CUZK_SCALAR_MONTGOMERY = 1
};

/* External encodings understood by the codecs. */
enum cuzk_encoding {
    CUZK_ENCODING_NATIVE = 0,  /* this library's (and snarkjs's) little-endian Montgomery layout */
    CUZK_ENCODING_EIP2537 = 1, /* BLS12-381: 64-byte big-endian Fp, G2 as x.c0|x.c1|y.c0|y.c1 */
    CUZK_ENCODING_EIP196 = 2   /* BN254: 32-byte big-endian Fp, G2 (EIP-197) as x.c1|x.c0|y.c1|y.c0 */
};

/* Checks applied by the point decoders (bit set); the scalar decoder applies CANONICAL (< r). */
enum cuzk_check {
    CUZK_CHECK_CANONICAL = 1, /* coordinates < p */
    CUZK_CHECK_ON_CURVE = 2,
    CUZK_CHECK_SUBGROUP = 4,
    CUZK_CHECK_ALL = 7
};

enum cuzk_field_op {
    CUZK_OP_ADD = 0,
    CUZK_OP_SUB = 1,
    CUZK_OP_MUL = 2,
    CUZK_OP_SQR = 3,
    CUZK_OP_NEG = 4,
    CUZK_OP_INV = 5,
    CUZK_OP_TO_MONT = 6,  /* canonical -> Montgomery; the input must be canonical */
    CUZK_OP_FROM_MONT = 7
};

enum cuzk_point_op {
    CUZK_POINT_ADD = 0,    /* out = a + b */
    CUZK_POINT_DOUBLE = 1, /* out = 2a */
    CUZK_POINT_NEG = 2,    /* out = -a */
    CUZK_POINT_MUL = 3,    /* out = [b]a, b a 32-byte canonical scalar (any value) */
    CUZK_POINT_GENERATOR = 4, /* out = the group's standard generator */
    CUZK_POINT_MUL_SUBGROUP = 5 /* out = [b]a as MUL, for points a in the prime-order subgroup (not
                                  checked: for others it is not [b]a): G1 on the CPU by the curve's
                                  endomorphism, about half MUL's cost; elsewhere MUL itself */
};

enum cuzk_ntt_direction {
    CUZK_NTT_FORWARD = 0,
    CUZK_NTT_INVERSE = 1
};

/* The CPU code paths of the kernels. */
enum cuzk_cpu_isa {
    CUZK_CPU_ISA_AUTO = 0,     /* for cuzk_set_cpu_isa: the best this CPU and build support */
    CUZK_CPU_ISA_PORTABLE = 1, /* plain C++, any CPU */
    CUZK_CPU_ISA_X86_ADX = 2,  /* x86-64 with BMI2 and ADX: MULX/ADCX/ADOX Montgomery products */
    CUZK_CPU_ISA_X86_IFMA = 3  /* x86-adx plus AVX-512 IFMA: MSM additions, H and point checks eight at a time */
};

typedef struct cuzk_library_info {
    uint32_t abi_version;
    uint32_t cuda_compiled;     /* 1 when CUDA kernels were compiled into this build */
    uint32_t hardware_threads;  /* what threads = 0 means */
    uint32_t max_ntt_log_size;
    uint32_t cpu_isa;           /* enum cuzk_cpu_isa in use */
    uint32_t cpu_isa_available; /* bit (1 << isa) set for every path this CPU and build can run */
    const char* version;
    const char* build;          /* compiler and flags, for reports */
} cuzk_library_info;

typedef struct cuzk_curve_info {
    uint32_t curve;
    uint32_t fp_bytes;
    uint32_t fr_bytes;
    uint32_t g1_affine_bytes;
    uint32_t g2_affine_bytes;
    uint32_t fr_two_adicity;
    uint32_t fr_bits;
    uint32_t fp_bits;
} cuzk_curve_info;

typedef struct cuzk_msm_config {
    uint32_t curve;       /* enum cuzk_curve */
    uint32_t group;       /* enum cuzk_group */
    uint32_t scalar_form; /* enum cuzk_scalar_form */
    uint32_t window_bits; /* 0 chooses from the size; otherwise 2..20 */
    uint32_t threads;     /* 0 = all hardware threads */
    uint32_t copies;      /* blocks of shifted copies the bases hold (see cuzk_msm_plan); 0 or 1: none */
    uint64_t count;       /* number of (base, scalar) pairs; 0 gives infinity */
} cuzk_msm_config;

typedef struct cuzk_ntt_config {
    uint32_t curve;       /* enum cuzk_curve: the scalar field Fr of that curve */
    uint32_t direction;   /* enum cuzk_ntt_direction */
    uint32_t coset;       /* 0: the subgroup of 2^log_n-th roots; 1: its coset by coset_shift */
    uint32_t log_n;       /* 0..max_ntt_log_size (and <= Fr's 2-adicity) */
    uint32_t threads;     /* 0 = all hardware threads */
    uint32_t flags;       /* reserved, 0 */
    const void* coset_shift; /* Fr, Montgomery; NULL = the field's non-residue generator (5) */
} cuzk_ntt_config;

typedef struct cuzk_codec_config {
    uint32_t curve;       /* enum cuzk_curve */
    uint32_t group;       /* enum cuzk_group */
    uint32_t encoding;    /* enum cuzk_encoding */
    uint32_t checks;      /* enum cuzk_check bits, for decoding */
    uint32_t threads;     /* 0 = all hardware threads */
    uint32_t flags;       /* reserved, 0 */
    uint64_t count;
    uint64_t src_stride;  /* bytes between consecutive inputs; 0 = packed */
    uint64_t dst_stride;  /* bytes between consecutive outputs; 0 = packed */
} cuzk_codec_config;

/* Arguments of cuzk_groth16_abc. */
typedef struct cuzk_abc_config {
    uint32_t curve;       /* enum cuzk_curve */
    uint32_t threads;     /* 0 = all hardware threads */
    uint64_t n_coeffs;    /* entries of the coefficient section */
    uint64_t n_vars;      /* length of the witness */
    uint64_t domain_size; /* length of a, b and c */
    const void* coeffs;   /* the coefficient entries (see cuzk_groth16_abc) */
    const void* witness;  /* n_vars 32-byte canonical little-endian values */
} cuzk_abc_config;

/* Arguments of cuzk_groth16_h. */
typedef struct cuzk_h_config {
    uint32_t curve;       /* enum cuzk_curve */
    uint32_t log_n;       /* a, b and c hold 2^log_n elements */
    uint32_t threads;     /* 0 = all hardware threads */
    uint32_t flags;       /* enum cuzk_h_flags bits, or 0 */
} cuzk_h_config;

enum cuzk_h_flags {
    /* Only make the tables H needs for this domain size (roots of unity, twiddles, the coset's
     * powers), which the library keeps per size for the process: a, b and c are not used and may
     * be NULL. A prover that knows its domain early can pay for them while it reads its inputs. */
    CUZK_H_PREPARE = 1,
    /* Leave h in a as canonical values instead of Montgomery form: what cuzk_msm takes as
     * CUZK_SCALAR_CANONICAL without converting a copy of its scalars first. */
    CUZK_H_CANONICAL = 2
};

/* Arguments of cuzk_host_alloc and cuzk_host_free. */
typedef struct cuzk_host_config {
    uint64_t bytes;       /* the buffer's size; cuzk_host_free takes the size it was allocated with */
    uint32_t flags;       /* reserved, 0 */
    uint32_t reserved;    /* 0 */
} cuzk_host_config;

/* Where a batch check or decode failed: the lowest failing index and its status. */
typedef struct cuzk_check_result {
    uint64_t index;
    cuzk_status_t status;
    uint32_t reserved;
} cuzk_check_result;

/* ---- library ---------------------------------------------------------------------------- */
CUZK_API uint32_t cuzk_abi_version(void);
/* CUZK_ABI_VERSION as data, so that a binding can check it before it prepares any call. */
CUZK_API extern const uint32_t cuzk_abi_version_value;
CUZK_API const char* cuzk_version(void);
CUZK_API cuzk_status_t cuzk_get_library_info(cuzk_library_info* out);
CUZK_API cuzk_status_t cuzk_get_curve_info(uint32_t curve, cuzk_curve_info* out);
/* The message of the calling thread's last failure ("" if none); valid until its next call. */
CUZK_API const char* cuzk_last_error(void);
/* The symbolic name of a status, such as "CUZK_ERR_NOT_ON_CURVE". */
CUZK_API const char* cuzk_status_name(cuzk_status_t status);
/* Chooses the CPU code path for the whole process (by default the best available, or the one the
 * environment variable CUZK_CPU_ISA names: portable or x86-adx). CUZK_ERR_UNSUPPORTED if this CPU
 * or build cannot run it. Calls already running finish on the path they started with. */
CUZK_API cuzk_status_t cuzk_set_cpu_isa(uint32_t isa);

/* ---- arithmetic ------------------------------------------------------------------------- */
/* Element-wise out[i] = op(a[i], b[i]) over n elements of the field (b unused by unary ops). */
CUZK_API cuzk_status_t cuzk_field_op(uint32_t curve, uint32_t field, uint32_t op, const void* a,
                                     const void* b, void* out, uint64_t n);
/* Element-wise out[i] = op(a[i], b[i]) over n affine points (see enum cuzk_point_op); for
 * CUZK_POINT_MUL, b holds n 32-byte canonical scalars. Inputs are not validated. */
CUZK_API cuzk_status_t cuzk_point_op(uint32_t curve, uint32_t group, uint32_t op, const void* a,
                                     const void* b, void* out, uint64_t n);

/* ---- pairings --------------------------------------------------------------------------- */
/* The product of the optimal ate pairings e(g1[i], g2[i]) over n pairs of affine points in the
 * native layout (a point at infinity contributes one), for verification on the CPU. out (if not
 * NULL, 8-byte aligned) receives it as 12 base-field elements in the native layout, in the order
 * c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1, c1.c0.c0, ..., c1.c2.c1 of
 * Fp12 = Fp6[w]/(w^2 - v), Fp6 = Fp2[v]/(v^3 - xi), xi = 9 + u (BN254) or 1 + u (BLS12-381); for
 * BLS12-381 it is the pairing cubed (the final exponentiation of blst and gnark), which is one
 * exactly when the pairing is. is_one (if not NULL) is set to 1 when the product is one, else 0.
 * The points are not validated: check them first (cuzk_points_decode with the subgroup check);
 * points off the curve or outside the subgroups give a meaningless answer. */
CUZK_API cuzk_status_t cuzk_pairing(uint32_t curve, const void* g1, const void* g2, uint64_t n,
                                    void* out, uint32_t* is_one);
/* The Miller loop of n pairs (the product of the pairs' loops, before the final exponentiation),
 * into out (8-byte aligned) as cuzk_pairing's 12 coefficients. A verifier computes once the loop
 * of pairs its key fixes (Groth16: -alpha and beta) and passes it to cuzk_pairing_check. */
CUZK_API cuzk_status_t cuzk_miller_loop(uint32_t curve, const void* g1, const void* g2, uint64_t n, void* out);
/* The lines of the Miller loops of n G2 points, computed once for pairs whose G2 point is fixed
 * (a Groth16 key's beta, gamma and delta), so that a check does not compute them again. With out
 * NULL, *bytes receives the size of one point's lines (the same for every point of the curve);
 * else out (8-byte aligned, *bytes at least n times that size) receives the n points' lines, one
 * after the other. A point at infinity is allowed (its pairs contribute one). Points as for
 * cuzk_pairing (not validated). */
CUZK_API cuzk_status_t cuzk_g2_prepare(uint32_t curve, const void* g2, uint64_t n, void* out, uint64_t* bytes);
/* is_one = 1 when the final exponentiation of the product of these Miller loops is one, else 0:
 * the n pairs (g1[i], g2[i]); the n_fixed pairs (g1_fixed[k], the G2 point whose lines are the
 * k-th in prepared, from cuzk_g2_prepare for this curve, 8-byte aligned; at most 64; a g1_fixed
 * point at infinity leaves its pair out), each about half the cost of another; and the pairs whose
 * loop factor is (from cuzk_miller_loop, 8-byte aligned; NULL for none). Lines that cuzk_g2_prepare
 * did not write for this curve, and a factor whose coefficients are not below p, are refused
 * (CUZK_ERR_INVALID_ARGUMENT). Points as for cuzk_pairing. */
CUZK_API cuzk_status_t cuzk_pairing_check(uint32_t curve, const void* g1, const void* g2, uint64_t n,
                                          const void* g1_fixed, const void* prepared, uint64_t n_fixed,
                                          const void* factor, uint32_t* is_one);
/* cuzk_pairing_check that also tells whether the n unprepared pairs' G2 points are in G2 (their
 * subgroup of order r), from the point each one's own Miller loop ends on, for a few products
 * instead of a check of its own (a quarter of a verification): BN254, [6u+2]Q + psi(Q) - psi^2(Q)
 * + psi^3(Q) = O (the loop's R with its two Frobenius lines, then psi^3(Q)); BLS12-381,
 * psi(Q) = [x]Q (the loop's R is [|x|]Q; Scott's test, as cuzk_points_decode's). *outside is
 * the index of the first pair whose G2 point is not in G2, n when all are; a pair whose G1 point
 * is at infinity has its G2 point checked on its own. *is_one is as for cuzk_pairing_check, and
 * means nothing about a product with a point outside. The G2 points must be on the twist (not
 * checked); the rest as for cuzk_pairing_check. */
CUZK_API cuzk_status_t cuzk_pairing_check_g2(uint32_t curve, const void* g1, const void* g2, uint64_t n,
                                             const void* g1_fixed, const void* prepared, uint64_t n_fixed,
                                             const void* factor, uint32_t* is_one, uint64_t* outside);

/* Fixed-base sums, for points summed again and again with new scalars (a verification key's IC:
 * L = IC[0] + sum s_i IC[i + 1] for every proof). cuzk_fixed_prepare: with out NULL, sets *bytes to
 * the size of the table of n points (at most 2^20) of the group; else writes the table to out
 * (8-byte aligned, *bytes at least that size): a header naming curve, group and n, then for each
 * point P and j = 0..64 the affine 1..8 times 16^j P (points 8-byte aligned, at infinity allowed,
 * not validated). cuzk_fixed_sum: result (affine) = sum scalars[i] P_i over a table from
 * cuzk_fixed_prepare for this curve, group and n (a table made for others is refused); scalars are
 * canonical 32-byte integers (any 256-bit value, reduced mod r). One mixed addition per nonzero
 * signed radix-16 digit and no doublings: about a third of a Straus sum's cost. */
CUZK_API cuzk_status_t cuzk_fixed_prepare(uint32_t curve, uint32_t group, const void* points, uint64_t n, void* out,
                                          uint64_t* bytes);
CUZK_API cuzk_status_t cuzk_fixed_sum(uint32_t curve, uint32_t group, const void* table, uint64_t n, const void* scalars,
                                      void* result);

/* ---- kernels ---------------------------------------------------------------------------- */
/* result (affine) = sum scalars[i] * bases[i]. With config->copies > 1 the bases are a table of
 * shifted copies (below), whose first block the CPU reads: the plain bases. */
CUZK_API cuzk_status_t cuzk_msm(const cuzk_msm_config* config, const void* bases,
                                const void* scalars, void* result);
/* In-place NTT of 2^log_n Fr elements (Montgomery form), natural order in and out.
 * Forward: out[i] = sum_j in[j] * (g w^i)^j, with g = 1 or the coset shift.
 * Inverse: the exact inverse of the forward transform with the same coset. */
CUZK_API cuzk_status_t cuzk_ntt(const cuzk_ntt_config* config, void* data);

/* ---- Groth16 ------------------------------------------------------------------------------ */
/* The witness's evaluations of the QAP's A and B at each constraint, from config->coeffs, the
 * coefficient section of a snarkjs zkey (section 4 without its leading u32 count): n_coeffs packed 44-byte entries
 * {u32 matrix (0 = A, 1 = B), u32 constraint, u32 signal, 32-byte Fr value}, all little-endian,
 * where the value is coefficient * R^2 mod r (R = 2^256), and config->witness. Out: a[i] = sum over A's entries of constraint i of coefficient * w[signal],
 * b likewise, c[i] = a[i] * b[i], each domain_size Fr elements in Montgomery form (zero where no
 * constraint reaches). An entry with matrix > 1, constraint >= domain_size or signal >= n_vars
 * fails the call with CUZK_ERR_INVALID_ARGUMENT naming the lowest such entry. */
CUZK_API cuzk_status_t cuzk_groth16_abc(const cuzk_abc_config* config, void* a, void* b, void* c);

/* Groth16's H on the CPU, as snarkjs computes it and as cuzk_cuda_groth16_h does on a GPU: a, b
 * and c (Montgomery Fr, 2^log_n each, evaluations on the domain) each get the inverse NTT, then
 * the NTT on the coset by the 2^(log_n+1)-th root of unity 5^((r-1)/2^(log_n+1)); then
 * a[i] = a[i] * b[i] - c[i]. h is left in a, in Montgomery form or, with CUZK_H_CANONICAL in
 * config->flags, canonical; b and c are overwritten. One call instead of six NTTs and two
 * element-wise operations. threads: 0 = all hardware threads. */
CUZK_API cuzk_status_t cuzk_groth16_h(const cuzk_h_config* config, void* a, void* b, void* c);

/* ---- the GPU algorithms on the host -------------------------------------------------------- */
/* The CUDA kernels' algorithms (MSM: sorted bucket pairs, bucket sums in levels of runs, window
 * sums in levels of segments; NTT: radix-2 stages in even groups per block in shared memory) run
 * on the host, phase by phase over the whole grid, with the kernels' own per-thread code: how CI
 * checks the GPU algorithms without a GPU. Same arguments and results as cuzk_msm and cuzk_ntt
 * (window_bits 0 = the GPU's choice). */
CUZK_API cuzk_status_t cuzk_emulate_msm(const cuzk_msm_config* config, const void* bases,
                                        const void* scalars, void* result);
CUZK_API cuzk_status_t cuzk_emulate_ntt(const cuzk_ntt_config* config, void* data);
/* Shifted copies of MSM bases (fixed-base windows), for bases the GPU keeps: with windows of
 * c = window_bits bits a scalar has W = ceil((bits of r + 1) / c) digits; a table of K = copies
 * blocks of count points holds block k = 2^(k S c) times block 0 (the bases) for S = ceil(W / K),
 * so that the GPU MSM (config->copies = K, window_bits = c, the table as bases) sums S rows of
 * buckets instead of W windows, for K times the bases' memory.
 * cuzk_msm_plan: for config's curve, group and count and window_bits (0 = the GPU MSM's choice for
 * count), the most blocks whose table takes at most max_bytes (at least 1, at most W, the fewest
 * giving the same S), written to config->copies, and the window bits to config->window_bits.
 * cuzk_emulate_msm_precompute (host, by the kernels' code) and cuzk_cuda_msm_precompute (queued on
 * the stream) fill blocks 1..K-1 of a table whose block 0 holds the bases; config as planned. */
CUZK_API cuzk_status_t cuzk_msm_plan(cuzk_msm_config* config, uint64_t max_bytes);
CUZK_API cuzk_status_t cuzk_emulate_msm_precompute(const cuzk_msm_config* config, void* table);
/* Groth16's H by the GPU's algorithm (cuzk_cuda_groth16_h: the inverse transforms as DIF, the coset
 * factors at bit-reversed indices, the forward transforms as DIT, no bit-reversal passes); same
 * arguments and results as cuzk_groth16_h. */
CUZK_API cuzk_status_t cuzk_emulate_groth16_h(const cuzk_h_config* config, void* a, void* b, void* c);

/* ---- points and codecs ------------------------------------------------------------------ */
/* Decodes points of config->encoding into the native layout, applying config->checks; with dst
 * NULL the points are only checked (config->encoding NATIVE checks native-layout points). On a
 * failed check, result (may be NULL) names the lowest failing index and its status. */
CUZK_API cuzk_status_t cuzk_points_decode(const cuzk_codec_config* config, const void* src,
                                          void* dst, cuzk_check_result* result);
/* Encodes native-layout points into config->encoding. */
CUZK_API cuzk_status_t cuzk_points_encode(const cuzk_codec_config* config, const void* src,
                                          void* dst);
/* Converts 32-byte big-endian scalars (EIP-2537/EIP-196) to or from little-endian canonical
 * scalars (NATIVE); the value is kept as is, not reduced. Decoding with CUZK_CHECK_CANONICAL in
 * config->checks also requires each value below r (a snarkjs witness must be): CUZK_ERR_NOT_CANONICAL
 * with result (may be NULL) naming the lowest failing index; with dst NULL the scalars are only
 * checked. The other check bits do not apply to scalars. */
CUZK_API cuzk_status_t cuzk_scalars_decode(const cuzk_codec_config* config, const void* src,
                                           void* dst, cuzk_check_result* result);
CUZK_API cuzk_status_t cuzk_scalars_encode(const cuzk_codec_config* config, const void* src,
                                           void* dst);

/* ---- host memory --------------------------------------------------------------------------
 * config->bytes of host memory, 64-byte aligned, for large buffers handed to the kernels (copies
 * of key sections, a, b and c): from 1 MiB on it is mapped in 2 MiB transparent huge pages where
 * the kernel allows (madvise), so that touching it costs one page fault per 2 MiB instead of 512.
 * It is zero-filled, or, with copy_from not NULL, filled with config->bytes bytes copied from
 * copy_from (any alignment): an aligned copy of a file's section in one pass. Free it with
 * cuzk_host_free and the same config->bytes. Both take the proof's shared call shape (a config
 * and three pointers); the arguments named reserved must be NULL. */
CUZK_API cuzk_status_t cuzk_host_alloc(const cuzk_host_config* config, void** out, const void* copy_from,
                                       void* reserved);
CUZK_API cuzk_status_t cuzk_host_free(const cuzk_host_config* config, void* p, void* reserved0, void* reserved1);

/* ---- CUDA: libcuzk_cuda -------------------------------------------------------------------
 * These functions live in a second library, libcuzk_cuda, built where nvcc is present and loaded
 * only when a CUDA backend is asked for; it links the shared CUDA runtime (libcudart.so.13), the
 * one the FFM bindings of the runtime use, so streams and device pointers pass between them.
 * Pointers named d_* are device pointers; streams are cudaStream_t. Its failures are described by
 * cuzk_cuda_last_error (the message is kept per thread and per library). */
typedef struct cuzk_cuda_msm cuzk_cuda_msm;

CUZK_API const char* cuzk_cuda_last_error(void);
/* Number of usable CUDA devices; CUZK_ERR_NO_DEVICE with the CUDA reason when the driver is
 * missing or too old. */
CUZK_API cuzk_status_t cuzk_cuda_device_count(int32_t* count);
/* cuzk_field_op and cuzk_point_op (host buffers) run on device `device` by the same arithmetic
 * code, compiled by nvcc: a check that host and device agree. */
CUZK_API cuzk_status_t cuzk_cuda_field_op(int32_t device, uint32_t curve, uint32_t field,
                                          uint32_t op, const void* a, const void* b, void* out,
                                          uint64_t n);
CUZK_API cuzk_status_t cuzk_cuda_point_op(int32_t device, uint32_t curve, uint32_t group,
                                          uint32_t op, const void* a, const void* b, void* out,
                                          uint64_t n);
/* Queues an NTT of d_data (Montgomery Fr, 2^log_n) on the stream, as cuzk_ntt computes it. */
CUZK_API cuzk_status_t cuzk_cuda_ntt(int32_t device, void* stream, const cuzk_ntt_config* config,
                                     void* d_data);
/* Queues Groth16's H on the stream: a, b, c (Montgomery Fr, 2^log_n each, evaluations on the
 * domain) to h = A*B - C on the odd powers of the 2^(log_n+1)-th root, left in d_a. */
CUZK_API cuzk_status_t cuzk_cuda_groth16_h(int32_t device, void* stream, uint32_t curve,
                                           uint32_t log_n, void* d_a, void* d_b, void* d_c);
/* The two phases of a G1 or G2 MSM (config->group) over device-resident bases and scalars.
 * start queues every kernel on the stream and returns a handle at once; finish waits for that
 * work, combines the window sums on the host, writes the affine result (of the group's size) and
 * frees the handle (also when it fails). */
CUZK_API cuzk_status_t cuzk_cuda_msm_start(int32_t device, void* stream,
                                           const cuzk_msm_config* config, const void* d_bases,
                                           const void* d_scalars, cuzk_cuda_msm** handle);
CUZK_API cuzk_status_t cuzk_cuda_msm_finish(cuzk_cuda_msm* handle, void* result);
/* Fills blocks 1..config->copies-1 of d_table (block 0: the bases) on the stream; see cuzk_msm_plan. */
CUZK_API cuzk_status_t cuzk_cuda_msm_precompute(int32_t device, void* stream,
                                                const cuzk_msm_config* config, void* d_table);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_H */
