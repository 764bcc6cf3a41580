#!/usr/bin/env python3
"""Generates native/cuda/include/cuzk/mont_x86_64.hpp: Montgomery products for 4 and 6 limbs in
x86-64 inline assembly with MULX/ADCX/ADOX (two independent carry chains; BMI2 + ADX), and for
field.hpp's lazily reduced Fp2 product the two halves of one: the whole 2n-word product and the
Montgomery reduction of a 2n-word value.

Run from the repository root:
    python3 native/cuda/tools/gen_mont_x86.py > native/cuda/include/cuzk/mont_x86_64.hpp

The algorithm is the coarsely integrated operand scanning of field.hpp. The routines are forced
inline: left out of line, the 6-limb one cost BLS12-381's Miller loop 17 % (a call, and the
operands through memory, for every product). Each round adds a*b[i]
into the accumulator t[0..n], then m*p with m = t0 * (-p^-1 mod 2^64), which zeroes t0; the word
is dropped by renaming registers. t < 2p after every round when p < 2^(64n-2), so t never needs
more than n+1 words. The final conditional subtraction of p is left to the C caller.
"""


def q(name):
    """An asm operand as a 64-bit register."""
    return "%%[%s]" % name


def d(name):
    """An asm operand as its 32-bit register (xorl on it clears the whole register)."""
    return "%%k[%s]" % name


def add_row(lines, row, regs, n):
    """Adds rdx * row[0..n) (row: a memory operand's name) into the accumulator regs[0..n]: the
    low halves on the OF chain, the high halves on the CF chain, then OF into the top word. Both
    flags must be clear on entry; the top word regs[n] must not overflow."""
    for j in range(n):
        lines.append("mulxq %d(%s), %s, %s" % (8 * j, q(row), q("lo"), q("hi")))
        lines.append("adoxq %s, %s" % (q("lo"), q(regs[j])))
        lines.append("adcxq %s, %s" % (q("hi"), q(regs[j + 1])))
    lines.append("movl $0, %s" % d("lo"))
    lines.append("adoxq %s, %s" % (q("lo"), q(regs[n])))


def reduce_row(lines, regs, n):
    """m = regs[0] * inv, then m*p added into the accumulator, which zeroes regs[0]."""
    lines.append("movq %s, %%%%rdx" % q(regs[0]))
    lines.append("imulq %s, %%%%rdx" % q("inv"))
    lines.append("xorl %s, %s" % (d("lo"), d("lo")))
    add_row(lines, "m", regs, n)


def product_rows(lines, n, reduce):
    """Row i adds a*b[i] into the accumulator (and, when reducing, m*p after it); its lowest word
    is then final (zero, when reducing) and dropped by renaming. Returns the renamed registers."""
    regs = ["t%d" % k for k in range(n + 1)]  # regs[w]: operand holding accumulator word w
    for i in range(n):
        # a fresh top word; xor also clears CF and OF for the two carry chains
        if i == 0:
            for r in regs:
                lines.append("xorl %s, %s" % (d(r), d(r)))
        else:
            lines.append("xorl %s, %s" % (d(regs[n]), d(regs[n])))
        lines.append("movq %d(%s), %%%%rdx" % (8 * i, q("b")))
        add_row(lines, "a", regs, n)
        if reduce:
            reduce_row(lines, regs, n)
        else:
            lines.append("movq %s, %d(%s)" % (q(regs[0]), 8 * i, q("r")))
        regs = regs[1:] + regs[:1]
    return regs


def body(n):
    """Assembly lines (GCC extended-asm syntax) and, for each result word, its operand name."""
    lines = []
    regs = product_rows(lines, n, True)
    return lines, regs[:n]


def wide_body(n):
    """The 2n-word product a*b by rows (schoolbook): row i adds a*b[i] into an accumulator of n+1
    registers, whose lowest word is then final and stored to r[i]; the last row leaves r[n..2n)."""
    lines = []
    regs = product_rows(lines, n, False)
    for k in range(n):
        lines.append("movq %s, %d(%s)" % (q(regs[k]), 8 * (n + k), q("r")))
    return lines


def redc_body(n):
    """Montgomery reduction of a 2n-word t < p*2^(64n): n rounds over its low half (m = t0 * inv,
    then t += m*p, which zeroes the lowest word, dropped by renaming), then the high half added:
    (t_lo + M p) / R <= p and t_hi < p, so the result is below 2p and fits n words."""
    lines = []
    regs = ["t%d" % k for k in range(n + 1)]
    for k in range(n):
        lines.append("movq %d(%s), %s" % (8 * k, q("t"), q(regs[k])))
    lines.append("xorl %s, %s" % (d(regs[n]), d(regs[n])))
    for i in range(n):
        reduce_row(lines, regs, n)
        regs = regs[1:] + regs[:1]
    # regs[0..n) hold (t_lo + M p) / R; regs[n] is zero: add t_hi
    for k in range(n):
        op = "addq" if k == 0 else "adcq"
        lines.append("%s %d(%s), %s" % (op, 8 * (n + k), q("t"), q(regs[k])))
    return lines, regs[:n]


def function(n, comment, name, params, lines, inputs, result=(), volatile=False):
    """A forced-inline C function around one extended-asm block with the accumulator registers
    t0..tn, lo and hi as scratch outputs; result names the registers copied to r[] after it."""
    regs = range(n + 1)
    out = list(comment)
    out.append("static inline __attribute__((always_inline)) void %s(%s) {" % (name, ", ".join(params)))
    out.append("    uint64_t %s, lo, hi;" % ", ".join("t%d" % k for k in regs))
    out.append("    __asm__%s(" % (" volatile" if volatile else ""))
    for l in lines:
        out.append('        "%s\\n\\t"' % l)
    outs = ", ".join('[t%d] "=&r"(t%d)' % (k, k) for k in regs)
    out.append('        : %s, [lo] "=&r"(lo), [hi] "=&r"(hi)' % outs)
    out.append("        : %s" % ", ".join('[%s] "%s"(%s)' % (x, c, x) for x, c in inputs))
    out.append('        : "rdx", "cc", "memory");')
    for w, reg in enumerate(result):
        out.append("    r[%d] = %s;" % (w, reg))
    out.append("}")
    return out


def emit(n):
    lines, result = body(n)
    return function(
        n, ["// r = a*b*2^(-%d) mod p, r < 2p, for an %d-limb modulus m = p < 2^%d and inv = -p^-1 mod 2^64."
         % (64 * n, n, 64 * n - 2)],
        "mont_mul_adx_%d" % n,
        ["uint64_t r[%d]" % n, "const uint64_t a[%d]" % n, "const uint64_t b[%d]" % n,
         "const uint64_t m[%d]" % n, "uint64_t inv"],
        lines, [("a", "r"), ("b", "r"), ("m", "r"), ("inv", "rm")], result)


def emit_wide(n):
    return function(
        n, ["// r[0..%d) = a*b, the whole product of two %d-word integers (for lazy reduction: sums and"
         % (2 * n, n),
         "// differences of products, then one Montgomery reduction, redc_adx_%d). Volatile: its result" % n,
         "// goes to memory only, and an asm whose register outputs are all unused is removed as dead",
         "// code (the memory clobber does not keep it)."],
        "mul_wide_adx_%d" % n,
        ["uint64_t r[%d]" % (2 * n), "const uint64_t a[%d]" % n, "const uint64_t b[%d]" % n],
        wide_body(n), [("a", "r"), ("b", "r"), ("r", "r")], volatile=True)


def emit_redc(n):
    lines, result = redc_body(n)
    return function(
        n, ["// r = t*2^(-%d) mod p, r < 2p, for a %d-word t < p*2^%d, an %d-limb modulus m = p < 2^%d and"
         % (64 * n, 2 * n, 64 * n, n, 64 * n - 2),
         "// inv = -p^-1 mod 2^64. The final conditional subtraction of p is left to the C caller."],
        "redc_adx_%d" % n,
        ["uint64_t r[%d]" % n, "const uint64_t t[%d]" % (2 * n), "const uint64_t m[%d]" % n, "uint64_t inv"],
        lines, [("t", "r"), ("m", "r"), ("inv", "rm")], result)


def main():
    print("""// Generated by native/cuda/tools/gen_mont_x86.py; do not edit by hand.
// Montgomery products with MULX/ADCX/ADOX for the CPU backend on x86-64 CPUs with BMI2 and ADX
// (the library picks this code at run time only where CPUID reports both), and the whole products
// and reductions of the lazily reduced Fp2 product.
#pragma once
#include <stdint.h>

namespace cuzk {
namespace x86 {
""")
    for n in (4, 6):
        print("\n".join(emit(n)))
        print()
    for n in (4, 6):
        print("\n".join(emit_wide(n)))
        print()
        print("\n".join(emit_redc(n)))
        print()
    print("}  // namespace x86\n}  // namespace cuzk")


if __name__ == "__main__":
    main()
