// The last step of the bucket method, shared by the scalar and the x86-ifma MSM code.
#pragma once
#include <cstddef>

#include "cuzk/field.hpp"

CUZK_NS_BEGIN

// acc = sum_j (j + 1) * (sum of the spread buckets of digit j + 1), by running sums from the top;
// add_to(b, p) adds bucket b to p.
template <class P, class AddTo>
inline void reduce_spread(size_t buckets, size_t spread, P& running, P& acc, AddTo&& add_to) {
    for (size_t j = buckets / spread; j-- > 0;) {
        if (spread == 1) {
            add_to(j, running);
        } else {
            P digit_sum = P::infinity();
            for (size_t t = 0; t < spread; t++) add_to(j * spread + t, digit_sum);
            running.add(digit_sum);
        }
        acc.add(running);
    }
}

CUZK_NS_END
