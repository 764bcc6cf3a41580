package io.cuzk.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Backend;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The engine under a backlog: synthesis runs ahead of the devices only within the lookahead, so the
 * memory reserved follows the work in flight and not the queue; urgent work overtakes bulk work
 * already queued, without interrupting anything that runs.
 */
class BacklogTest {
    /** A device that proves on the backend and then holds its lane for a while, recording whose partition it started. */
    static final class SlowDevice extends DelegatingDevice {
        final long holdMillis;
        final List<Partition> started;

        SlowDevice(String name, Backend b, int lanes, BooleanSupplier readyWork, long holdMillis, List<Partition> started) {
            super(name, b, lanes, readyWork);
            this.holdMillis = holdMillis;
            this.started = started;
        }

        @Override
        public Backend.Pending start(int lane, Partition p, Runnable abcTaken) {
            started.add(p);
            Backend.Pending pending = real.start(lane, p, abcTaken);
            return () -> {
                try {
                    Thread.sleep(holdMillis); // a device slower than synthesis: a backlog builds up in front of it
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return pending.finish();
            };
        }
    }

    static Engine slowEngine(Config config, long holdMillis, List<Partition> started) {
        return Engine.start(config, StatusTracker::lockFree, (name, b, lanes, ready) -> new SlowDevice(name, b, lanes, ready, holdMillis,
                started));
    }

    /**
     * 200 partitions queued at once in front of a slow device: never more than the limit are
     * admitted (the status is sampled all along, and the engine keeps its own peak), the limit is
     * reached, and the budget's peak is what the limit and the partitions on the device hold, not
     * the backlog's 200.
     */
    @Test
    void theLookaheadNeverExceedsItsBound() throws Exception {
        Config config = EngineShutdownTest.oneWorker().workersPerDevice(2).readyPerWorker(1).build();
        List<Partition> started = new CopyOnWriteArrayList<>();
        try (Engine e = slowEngine(config, 5, started)) {
            int limit = e.status().lookahead().limit();
            assertEquals(1 + 2 * 1, limit, "one synthesis worker, two device workers with one ready partition each");
            List<JobHandle> jobs = new ArrayList<>();
            for (int j = 0; j < 20; j++) {
                jobs.add(e.submit(EngineShutdownTest.job(10)));
            }
            long reservation = started.isEmpty() ? 0 : started.get(0).reservation();
            int worst = 0;
            while (!jobs.getLast().isDone()) {
                EngineStatus s = e.status();
                int ahead = s.queues().get(PartitionState.SYNTHESIZING) + s.queues().get(PartitionState.READY);
                worst = Math.max(worst, Math.max(ahead, s.lookahead().admitted()));
                Thread.sleep(1);
            }
            for (JobHandle h : jobs) {
                assertEquals(10, h.await(EngineShutdownTest.WAIT).size());
            }
            reservation = started.get(0).reservation();
            EngineStatus s = e.status();
            assertTrue(worst <= limit, "admitted ahead of the devices: " + worst + " > " + limit);
            assertTrue(s.lookahead().peak() <= limit, "the engine's own peak: " + s.lookahead().peak());
            assertEquals(limit, s.lookahead().peak(), "the backlog filled the lookahead");
            // admitted ones, plus one per device worker on the device, plus those finalizing (2 finalizers)
            long bound = (limit + 2 + 2) * reservation;
            assertTrue(s.memory().budgetPeak() <= bound, "budget peak " + s.memory().budgetPeak() + " > " + bound + " (the backlog "
                    + "would reserve " + 200 * reservation + ")");
        }
    }

    /** Without a configured number, the limit is derived from the measured times and keeps at least one ready per worker. */
    @Test
    void theDerivedLimitFollowsTheMeasuredTimes() throws Exception {
        Config config = EngineShutdownTest.oneWorker().workersPerDevice(2).build();
        try (Engine e = slowEngine(config, 40, new CopyOnWriteArrayList<>())) {
            assertEquals(1 + 2 * 2, e.status().lookahead().limit(), "two ready per worker until the times are measured");
            assertEquals(30, e.submit(EngineShutdownTest.job(30)).await(EngineShutdownTest.WAIT).size());
            int limit = e.status().lookahead().limit();
            // a device slower than synthesis needs little ahead: one synthesis covers a fraction of a device interval
            assertEquals(1 + 2 * 2, limit, "ceil(Ts * devices / interval / workers) + 1 = 2 per worker when Ts << Td");
        }
    }

    /**
     * A CRITICAL job submitted into a backlog of 100 NORMAL partitions: its partitions are
     * synthesized next and started as soon as device workers free up: between its submission and
     * its last partition's start, the device starts at most the NORMAL partitions already admitted
     * (the lookahead's limit) and those admitted while its own were synthesized, far fewer than the
     * backlog; nothing running is interrupted (every job completes).
     */
    @Test
    void urgentWorkOvertakesTheBacklog() throws Exception {
        Config config = EngineShutdownTest.oneWorker().workersPerDevice(2).readyPerWorker(1).build();
        List<Partition> started = new CopyOnWriteArrayList<>();
        try (Engine e = slowEngine(config, 10, started)) {
            int limit = e.status().lookahead().limit();
            List<JobHandle> bulk = new ArrayList<>();
            for (int j = 0; j < 10; j++) {
                bulk.add(e.submit(EngineShutdownTest.job(10)));
            }
            while (started.size() < 10) {
                Thread.sleep(1);
            }
            int before = started.size();
            JobHandle urgent = e.submit(Job.ofFiles(EngineShutdownTest.ZKEY, Collections.nCopies(3, EngineShutdownTest.WTNS),
                    Priority.CRITICAL));
            assertEquals(3, urgent.await(EngineShutdownTest.WAIT).size());
            int lastUrgent = -1;
            for (int i = 0; i < started.size(); i++) {
                if (started.get(i).job == urgent) {
                    lastUrgent = i;
                }
            }
            long bulkBetween = started.subList(before, lastUrgent).stream().filter(p -> p.job != urgent).count();
            assertTrue(bulkBetween <= limit + 2L * 2, "NORMAL partitions started before the urgent job's last: " + bulkBetween
                    + " (limit " + limit + ")");
            for (JobHandle h : bulk) {
                assertEquals(10, h.await(EngineShutdownTest.WAIT).size(), "the bulk jobs complete too");
            }
            assertTrue(bulk.stream().filter(JobHandle::isDone).count() == 10);
            long bulkAfter = started.subList(lastUrgent, started.size()).stream().filter(p -> p.job != urgent).count();
            assertTrue(bulkAfter >= 100 - before - limit - 4, "most of the backlog ran after the urgent job: " + bulkAfter);
        }
    }
}
