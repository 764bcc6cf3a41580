// The host's two inversions side by side: Fermat's (inv(): the field operations', the GPU's) and
// the variable-time divsteps (inv_vartime(): the CPU MSM's batches only). For each field (BN254 and BLS12-381, Fp and Fr) it
// inverts random values and the edge cases of the divsteps' bulk steps (stored forms 2^k, 2^k - 1,
// p - 2^k, 1, p - 1, 0 and p itself, a lazy zero), checks that both give the same answer and that
// x * inv(x) = 1, does the same for Fp2, and prints one line per field:
//   <field> values <n> mismatches <m> fermat_us <t> divsteps_us <t>
// The Java tests run it for the check; its timings are a benchmark with its baseline in the same
// run (docs/benchmarks.md).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "cuzk/field.hpp"

using namespace cuzk;

namespace {

template <class F>
std::vector<F> inputs(uint64_t seed, int count) {
    std::mt19937_64 rng(seed);
    std::vector<F> xs;
    const Limbs<F::N> m = F::Params::modulus();
    F lazy_zero;
    for (int i = 0; i < F::N; i++) lazy_zero.l[i] = m.v[i];
    xs.push_back(F::zero());
    xs.push_back(lazy_zero);
    xs.push_back(F::one());
    xs.push_back(-F::one());
    for (int k = 0; k < 64 * F::N - 1; k++) {
        F p2 = F::zero();
        p2.l[k / 64] = uint64_t(1) << (k % 64);
        if (!F::is_canonical(p2.l)) break;
        xs.push_back(p2);
        xs.push_back(p2 - F::one());
        xs.push_back(F::zero() - p2);
    }
    while ((int)xs.size() < count) {
        F x;
        for (int i = 0; i < F::N; i++) x.l[i] = rng();
        x.l[F::N - 1] >>= 3;  // below 2^(64N - 3), then reduced below p
        while (!F::is_canonical(x.l)) F::reduce_once(x.l);
        xs.push_back(x);
    }
    return xs;
}

template <class F>
bool is_zero_value(F x) {
    F::reduce_once(x.l);
    return x.is_zero();
}

template <class F>
int run(const char* name, uint64_t seed, int count) {
    std::vector<F> xs = inputs<F>(seed, count);
    std::vector<F> a(xs.size()), b(xs.size());
    auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < xs.size(); i++) a[i] = xs[i].inv();
    auto t1 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < xs.size(); i++) b[i] = xs[i].inv_vartime();
    auto t2 = std::chrono::steady_clock::now();
    int bad = 0;
    for (size_t i = 0; i < xs.size(); i++) {
        const bool zero = is_zero_value(xs[i]);
        if (zero ? !b[i].is_zero() : !(a[i] == b[i]) || !(xs[i] * b[i] == F::one())) bad++;
    }
    const double n = (double)xs.size();
    std::printf("%s values %zu mismatches %d fermat_us %.2f divsteps_us %.2f\n", name, xs.size(), bad,
                std::chrono::duration<double, std::micro>(t1 - t0).count() / n,
                std::chrono::duration<double, std::micro>(t2 - t1).count() / n);
    return bad;
}

template <class F2>
int run2(const char* name, uint64_t seed, int count) {
    using F = typename F2::Base;
    std::vector<F> c0 = inputs<F>(seed, count), c1 = inputs<F>(seed + 1, count);
    int bad = 0;
    for (size_t i = 0; i < c0.size(); i++) {
        F2 x{c0[i], c1[(i * 7) % c1.size()]};
        F2 a = x.inv(), b = x.inv_vartime();
        if (!(a == b)) bad++;
    }
    std::printf("%s values %zu mismatches %d\n", name, c0.size(), bad);
    return bad;
}

}  // namespace

int main(int argc, char** argv) {
    const int count = argc > 1 ? std::atoi(argv[1]) : 20000;
    int bad = 0;
    bad += run<bn254_fp>("bn254_fp", 1, count);
    bad += run<bn254_fr>("bn254_fr", 2, count);
    bad += run<bls12_381_fp>("bls12_381_fp", 3, count);
    bad += run<bls12_381_fr>("bls12_381_fr", 4, count);
    bad += run2<bn254_fp2>("bn254_fp2", 5, count / 10);
    bad += run2<bls12_381_fp2>("bls12_381_fp2", 6, count / 10);
    return bad == 0 ? 0 : 1;
}
