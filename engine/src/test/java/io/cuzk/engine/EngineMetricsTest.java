package io.cuzk.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The buckets the daemon's Prometheus histograms are made of, from the engine's HdrHistograms (microseconds). */
class EngineMetricsTest {
    @Test
    void bucketsCountEachValueOnceUnderItsUpperBound() {
        Histogram h = new Histogram(3);
        for (long micros : new long[] {50, 100, 200, 2_000, 2_000_000, 900_000_000}) { // 900 s: above every bound
            h.recordValue(micros);
        }
        EngineStatus.Percentiles p = EngineMetrics.percentiles(h);
        long[] expected = new long[EngineStatus.Percentiles.BOUNDS_MS.length + 1];
        expected[0] = 2; // 0.05 and 0.1 ms: le 0.1 (inclusive)
        expected[1] = 1; // 0.2 ms: le 0.25
        expected[4] = 1; // 2 ms: le 2.5
        expected[13] = 1; // 2 s: le 2.5 s
        expected[EngineStatus.Percentiles.BOUNDS_MS.length] = 1; // 900 s: +Inf
        assertArrayEquals(expected, p.buckets());
        assertEquals(6, p.count());
        assertEquals((50 + 100 + 200 + 2_000 + 2_000_000 + 900_000_000) / 1e3, p.sumMs(), 900_000 * 1e-3, "the sum within the histogram's precision");
        assertArrayEquals(new long[EngineStatus.Percentiles.BOUNDS_MS.length + 1], EngineMetrics.percentiles(new Histogram(3)).buckets());
    }
}
