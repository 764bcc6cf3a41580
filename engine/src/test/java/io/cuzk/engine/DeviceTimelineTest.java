package io.cuzk.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The timeline's arithmetic on a scripted sequence of busy intervals (times in nanoseconds). */
class DeviceTimelineTest {
    static final long MS = 1_000_000;

    @Test
    void gapsCountOnlyWhileWorkWaits() {
        DeviceTimeline t = new DeviceTimeline("d");
        t.begin(0);
        t.end(100 * MS, true); // work waits: the next gap counts
        t.begin(100 * MS + 200_000); // 0.2 ms later: chained
        t.end(200 * MS, false); // nothing waits
        t.begin(300 * MS); // 100 ms idle, but no work waited: not a gap
        t.end(400 * MS, false);
        t.wanted(450 * MS); // work arrives at 450 ms
        t.begin(460 * MS); // 10 ms after it arrived
        t.end(500 * MS, false);
        Histogram g = t.gapHistogram();
        assertEquals(2, g.getTotalCount());
        assertEquals(200, g.getMinValue(), 1);
        assertEquals(10_000, g.getMaxValue(), 10);
        assertEquals(2, t.longestChain(), "the first two ran back to back");
        assertEquals(4, t.partitions());
        long busy = 100 * MS + (100 * MS - 200_000) + 100 * MS + 40 * MS;
        assertEquals(busy, t.busyNanos());
        assertEquals((double) busy / (busy + 200_000 + 10 * MS), t.utilizationWhileBacklog(), 1e-9);
        assertEquals((double) busy / (500 * MS), t.spanUtilization(), 1e-9);
        assertEquals(40.0 / 100.0, t.utilizationOver(100 * MS, 500 * MS), 1e-9);
    }

    @Test
    void wantedWhileBusyIsNotAGap() {
        DeviceTimeline t = new DeviceTimeline("d");
        t.begin(0);
        t.wanted(10 * MS); // arrives while busy: the device is not idle
        t.end(20 * MS, false);
        t.begin(20 * MS + 100_000);
        t.end(30 * MS, false);
        assertEquals(0, t.gapHistogram().getTotalCount());
        assertTrue(t.utilizationWhileBacklog() == 1.0);
    }

    /** The status page's bins: each bin's busy share, an interval split across the bins it spans, the running one up to now. */
    @Test
    void busySharesSplitIntervalsOverBins() {
        DeviceTimeline t = new DeviceTimeline("d");
        t.begin(50 * MS);
        t.end(250 * MS, false); // bins of 200 ms from 0: 150 ms in bin 0, 50 ms in bin 1
        t.begin(300 * MS);
        t.end(350 * MS, false); // 50 ms more in bin 1
        t.begin(700 * MS); // still running at 800 ms: 100 ms of bin 3
        double[] bins = t.busyShares(800 * MS, 200 * MS, 4);
        assertEquals(0.75, bins[0], 1e-9);
        assertEquals(0.5, bins[1], 1e-9);
        assertEquals(0.0, bins[2], 1e-9);
        assertEquals(0.5, bins[3], 1e-9);
        double[] late = t.busyShares(800 * MS, 200 * MS, 2); // from 400 ms: the finished ones are out of range
        assertEquals(0.0, late[0], 1e-9);
        assertEquals(0.5, late[1], 1e-9);
    }
}
