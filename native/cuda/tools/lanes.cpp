// The x86-ifma path's lanes against their scalar forms, built from the same headers as the
// library's x86-ifma code: a batch's Miller loop (pairing/lanes_loop.hpp's LanesLoop::run against
// Pairing::affine_loop, both curves, 8 to 64 pairs, with and without prepared ones) and
// BLS12-381's G1 membership checks (codec/check_ifma.hpp's G1SubgroupLanes::pass against
// in_subgroup, every run of up to eight points of a list of points in G1, outside it and at
// infinity). The library falls back to the scalar code wherever the lanes decline, so its own
// answers cannot tell whether the lanes ran; this tool can. It prints one line per case:
//   loop <curve> pairs <n> prepared <k> ran <0|1> equal <0|1> scalar_us <t> lanes_us <t>
//   g1 runs <n> good <g> passed_good <p> accepted_bad <b> mismatches <m> scalar_us <t> lanes_us <t>
// (equal: the Miller loop's value and every pair's end point; passed_good: runs of points all in
// G1 that the lanes passed without falling back; accepted_bad: runs with a point outside G1 that
// they passed), or "skip: <why>" on a CPU without AVX-512 IFMA, BMI2 or ADX. The Java tests run it
// for the check; its timings are a benchmark with its baseline in the same run.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "codec/check_ifma.hpp"
#include "cuzk/pairing.hpp"

using namespace cuzk;

namespace {

template <class Fn>
double best_us(Fn&& fn, int rounds) {
    double best = 1e300;
    for (int r = 0; r < rounds; r++) {
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        best = std::min(best, std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

template <class T>
void loop_case(const char* curve, int n, int nf, std::mt19937_64& rng, int& failures) {
    using P = Pairing<T>;
    using L = LanesLoop<T>;
    using G1 = typename T::G1;
    using G2 = typename T::G2;
    std::vector<typename P::G1A> p(n + nf);
    std::vector<typename P::G2A> q(n);
    for (int i = 0; i < n + nf; i++) {
        const uint64_t k[2] = {rng(), rng()};
        p[i] = scalar_mul(G1::generator(), k, 2).to_affine();
    }
    for (int i = 0; i < n; i++) {
        const uint64_t k[2] = {rng(), rng()};
        q[i] = scalar_mul(G2::generator(), k, 2).to_affine();
    }
    std::vector<std::vector<typename P::NLine>> prepared(nf, std::vector<typename P::NLine>(P::LINES));
    std::vector<const typename P::NLine*> lines(nf);
    for (int j = 0; j < nf; j++) {
        const uint64_t k[1] = {rng()};
        P::prepare(scalar_mul(G2::generator(), k, 1).to_affine(), prepared[j].data());
        lines[j] = prepared[j].data();
    }
    // what miller_loop hands the loops: the live pairs, the fixed ones, the G1 points' factors
    std::vector<std::size_t> live(n), fixed(nf);
    for (int i = 0; i < n; i++) live[i] = i;
    for (int j = 0; j < nf; j++) fixed[j] = j;
    std::vector<const typename P::G1A*> ps(n + nf);
    for (int i = 0; i < n + nf; i++) ps[i] = &p[i];
    std::vector<typename P::PFactors> pp(n + nf);
    P::factors(ps.data(), ps.size(), n, pp.data());
    typename P::F12 fs = P::F12::one(), fl = P::F12::one();
    std::vector<typename P::Proj> es, el;
    const bool scalar_ok = P::affine_loop(fs, q.data(), live, pp.data(), lines.data(), fixed, es);
    const bool ran = L::run(fl, q.data(), live, pp.data(), lines.data(), fixed, el) == L::DONE;
    bool equal = scalar_ok && ran && fs == fl && es.size() == el.size();
    for (std::size_t i = 0; equal && i < es.size(); i++) {
        equal = es[i].x == el[i].x && es[i].y == el[i].y && es[i].z == el[i].z;
    }
    auto time_loop = [&](auto&& loop) {
        return best_us(
            [&] {
                typename P::F12 f = P::F12::one();
                std::vector<typename P::Proj> e;
                loop(f, e);
            },
            3);
    };
    const double scalar_us = time_loop([&](auto& f, auto& e) { P::affine_loop(f, q.data(), live, pp.data(), lines.data(), fixed, e); });
    const double lanes_us = time_loop([&](auto& f, auto& e) { L::run(f, q.data(), live, pp.data(), lines.data(), fixed, e); });
    std::printf("loop %s pairs %d prepared %d ran %d equal %d scalar_us %.1f lanes_us %.1f\n", curve, n, nf, ran ? 1 : 0,
                equal ? 1 : 0, scalar_us, lanes_us);
    if (!ran || !equal) failures++;
}

void g1_case(std::mt19937_64& rng, int& failures) {
    using G = bls12_381_g1;
    using Fp = bls12_381_fp;
    std::vector<Affine<G>> pts;
    for (int i = 0; i < 40; i++) {
        const uint64_t k[2] = {rng(), rng()};
        pts.push_back(scalar_mul(G::generator(), k, 2).to_affine());
        if (i % 13 == 6) pts.push_back(Affine<G>::infinity());
    }
    // points of the curve, nearly all outside G1: x from a random start, y = rhs^((p+1)/4) (p = 3 mod 4)
    const auto m = Fp::Params::modulus();
    uint64_t e[Fp::N];
    unsigned __int128 carry = 1;
    uint64_t m1[Fp::N];
    for (int i = 0; i < Fp::N; i++) {
        carry += m.v[i];
        m1[i] = (uint64_t)carry;
        carry >>= 64;
    }
    for (int i = 0; i < Fp::N; i++) e[i] = (m1[i] >> 2) | (i + 1 < Fp::N ? m1[i + 1] << 62 : 0);
    Fp x = Fp::from_u64(rng());
    for (int made = 0; made < 40;) {
        x = x + Fp::one();
        const Fp rhs = x.sqr() * x + G::b();
        const Fp y = rhs.pow(e, Fp::N);
        if (y.sqr() == rhs) {
            pts.insert(pts.begin() + (rng() % (pts.size() + 1)), Affine<G>{x, y});
            made++;
        }
    }
    const Affine<G> three{Fp::zero(), Fp::from_u64(2)};  // order 3
    XYZZ<G> s = XYZZ<G>::from_affine(pts[0]);
    s.add_affine(three);
    pts.push_back(three);
    pts.push_back(three.neg());
    pts.push_back(s.to_affine());
    std::vector<bool> in(pts.size());
    for (std::size_t i = 0; i < pts.size(); i++) in[i] = in_subgroup<G>(pts[i]);
    const auto* bytes = reinterpret_cast<const uint8_t*>(pts.data());
    int runs = 0, good = 0, passed_good = 0, accepted_bad = 0, mismatches = 0;
    for (std::size_t b = 0; b < pts.size(); b++) {
        for (std::size_t len : {std::size_t(1), std::size_t(5), std::size_t(8)}) {
            const std::size_t end = std::min(pts.size(), b + len);
            bool all = true;
            for (std::size_t i = b; i < end; i++) all = all && in[i];
            const bool pass = lanes::G1SubgroupLanes::pass(bytes, sizeof(Affine<G>), b, end);
            runs++;
            good += all;
            passed_good += all && pass;
            accepted_bad += !all && pass;
            mismatches += pass != all;
        }
    }
    std::vector<Affine<G>> g1(128);  // the timings: 128 points of G1
    for (std::size_t i = 0, j = 0; i < g1.size(); j++) {
        if (in[j % pts.size()]) g1[i++] = pts[j % pts.size()];
    }
    const double scalar_us = best_us(
        [&] {
            int k = 0;
            for (const auto& pt : g1) k += in_subgroup<G>(pt);
            if (k != (int)g1.size()) std::abort();
        },
        3);
    const double lanes_us = best_us(
        [&] {
            if (!lanes::G1SubgroupLanes::pass(reinterpret_cast<const uint8_t*>(g1.data()), sizeof(Affine<G>), 0, g1.size())) std::abort();
        },
        3);
    std::printf("g1 runs %d good %d passed_good %d accepted_bad %d mismatches %d scalar_us %.1f lanes_us %.1f\n", runs, good, passed_good,
                accepted_bad, mismatches, scalar_us, lanes_us);
    if (passed_good != good || accepted_bad != 0 || mismatches != 0) failures++;
}

}  // namespace

int main() {
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512ifma") || !__builtin_cpu_supports("bmi2") ||
        !__builtin_cpu_supports("adx")) {
        std::printf("skip: this CPU has no AVX-512 IFMA (or no BMI2/ADX): the library does not use the lanes here\n");
        return 0;
    }
    std::mt19937_64 rng(2026);
    int failures = 0;
    for (int n : {8, 13, 16, 27, 64}) {
        for (int nf : {0, 3}) {
            loop_case<bn254_tower>("bn254", n, nf, rng, failures);
            loop_case<bls12_381_tower>("bls12_381", n, nf, rng, failures);
        }
    }
    g1_case(rng, failures);
    return failures == 0 ? 0 : 1;
}
