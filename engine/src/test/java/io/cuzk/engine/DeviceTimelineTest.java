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
}
