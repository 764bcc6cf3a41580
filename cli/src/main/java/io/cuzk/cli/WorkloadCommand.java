package io.cuzk.cli;

import io.cuzk.Backend;
import io.cuzk.engine.Config;
import io.cuzk.engine.Engine;
import io.cuzk.engine.EngineStatus;
import io.cuzk.engine.Job;
import io.cuzk.engine.JobHandle;
import io.cuzk.engine.PartitionState;
import io.cuzk.engine.Priority;
import io.cuzk.engine.TrackerMode;
import io.cuzk.groth16.Proof;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code cuzk workload}: runs jobs of several partitions through the engine and reports what the
 * devices did: utilization while work waited, the idle gaps, the longest chain of partitions run
 * back to back, throughput and peak memory, as JSON with {@code --json} or as live progress.
 */
final class WorkloadCommand {
    static final Set<String> OPTIONS = Set.of("zkey", "wtns", "jobs", "partitions", "workers-per-device", "backend", "tracker", "json",
            "out", "stall-ms", "synthesis-workers", "synthesis-threads", "budget-mib", "threads", "priorities", "device");

    private WorkloadCommand() {}

    static int run(Options opts, PrintStream out, PrintStream err) {
        Path zkey = Path.of(opts.require("zkey"));
        List<Path> wtns = opts.all("wtns").stream().map(Path::of).toList();
        if (wtns.isEmpty()) {
            throw new UsageException("give at least one --wtns");
        }
        int jobs = opts.getInt("jobs", 1, 1, 1_000_000);
        int partitions = opts.getInt("partitions", 1, 1, 10_000);
        TrackerMode tracker;
        try {
            tracker = TrackerMode.parse(opts.get("tracker", "lockfree"));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        boolean json = opts.flag("json");
        Path outDir = opts.get("out", null) == null ? null : Path.of(opts.get("out", null));
        String priorities = opts.get("priorities", "normal").toLowerCase(Locale.ROOT);
        if (!priorities.equals("normal") && !priorities.equals("mixed")) {
            throw new UsageException("--priorities is normal or mixed");
        }
        Backend backend = ProveCommand.backend(opts, json ? null : err);
        Config.Builder cfg = Config.builder().devices(List.of(backend)).tracker(tracker)
                .workersPerDevice(opts.getInt("workers-per-device", 2, 1, 64))
                .contendedStall(Duration.ofMillis(opts.getInt("stall-ms", 200, 0, 600_000)))
                .synthesisThreads(opts.getInt("synthesis-threads", 1, 0, 4096));
        if (opts.get("synthesis-workers", null) != null) {
            cfg.synthesisWorkers(opts.getInt("synthesis-workers", 1, 1, 1024));
        }
        if (opts.get("budget-mib", null) != null) {
            cfg.memoryBudgetBytes((long) opts.getInt("budget-mib", 1024, 1, Integer.MAX_VALUE) << 20);
        }
        for (Path p : wtns) {
            if (!Files.isRegularFile(p)) {
                throw new InvalidInputException(p + ": no such file");
            }
        }
        if (!Files.isRegularFile(zkey)) {
            throw new InvalidInputException(zkey + ": no such file");
        }
        long t0 = System.nanoTime();
        List<JobHandle> handles = new ArrayList<>();
        int failed = 0;
        try (Engine engine = Engine.start(cfg.build())) {
            for (int j = 0; j < jobs; j++) {
                List<Path> parts = new ArrayList<>();
                for (int p = 0; p < partitions; p++) {
                    parts.add(wtns.get((j * partitions + p) % wtns.size()));
                }
                Priority prio = priorities.equals("mixed") ? Priority.values()[j % Priority.values().length] : Priority.NORMAL;
                handles.add(engine.submit(Job.ofFiles(zkey, parts, prio)));
            }
            long total = (long) jobs * partitions;
            long lastPrint = 0;
            for (JobHandle h : handles) {
                while (true) {
                    try {
                        List<Proof> proofs = h.await(Duration.ofMillis(json ? 60_000 : 500));
                        if (outDir != null) {
                            write(outDir, h.id(), proofs);
                        }
                        break;
                    } catch (TimeoutException e) {
                        if (!json && System.nanoTime() - lastPrint > TimeUnit.SECONDS.toNanos(1)) {
                            progress(err, engine.status(), total);
                            lastPrint = System.nanoTime();
                        }
                    } catch (ExecutionException e) {
                        failed++;
                        err.println("cuzk workload: job " + h.id() + " failed: " + e.getCause().getMessage());
                        break;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return Main.FAILURE;
                    }
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            EngineStatus s = engine.status();
            if (json) {
                out.println(json(s, total, seconds, tracker));
            } else {
                progress(err, s, total);
                err.println();
                summary(out, s, total, seconds);
            }
        }
        return failed == 0 ? Main.OK : Main.FAILURE;
    }

    private static void write(Path dir, long job, List<Proof> proofs) {
        try {
            Files.createDirectories(dir);
            for (int i = 0; i < proofs.size(); i++) {
                proofs.get(i).write(dir.resolve("job-" + job + "-partition-" + i + "-proof.json"),
                        dir.resolve("job-" + job + "-partition-" + i + "-public.json"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void progress(PrintStream err, EngineStatus s, long total) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("\r%d/%d partitions done", s.counters().partitionsDone(), total));
        for (EngineStatus.Device d : s.devices()) {
            b.append(String.format(Locale.ROOT, "; %s utilization %.3f (last 10 s %.3f)", d.name(), d.utilization(), d.recentUtilization()));
        }
        b.append(String.format("; queued %d synthesizing %d ready %d proving %d finalizing %d   ", s.queues().get(PartitionState.QUEUED),
                s.queues().get(PartitionState.SYNTHESIZING), s.queues().get(PartitionState.READY), s.queues().get(PartitionState.PROVING),
                s.queues().get(PartitionState.FINALIZING)));
        err.print(b);
        err.flush();
    }

    private static void summary(PrintStream out, EngineStatus s, long total, double seconds) {
        out.printf(Locale.ROOT, "%d partitions in %.1f s: %.2f proofs/s, tracker %s%n", s.counters().partitionsDone(), seconds,
                s.counters().partitionsDone() / seconds, s.tracker().name().toLowerCase(Locale.ROOT));
        for (EngineStatus.Device d : s.devices()) {
            out.printf(Locale.ROOT, "%s: utilization %.4f while work waited (%.4f over its span); gaps while work waited: p50 %.3f ms,"
                    + " p99 %.3f ms, max %.3f ms (%d); longest chain %d of %d%n", d.name(), d.utilization(), d.spanUtilization(),
                    d.gapsMs().p50(), d.gapsMs().p99(), d.gapsMs().max(), d.gapCount(), d.longestChain(), d.partitions());
        }
        out.printf(Locale.ROOT, "memory: budget peak %d of %d bytes, pool %d bytes (%d system allocations), peak RSS %d bytes%n",
                s.memory().budgetPeak(), s.memory().budgetCapacity(), s.memory().poolAllocated(), s.memory().systemAllocations(),
                peakRss());
        s.phasesMs().forEach((k, v) -> out.printf(Locale.ROOT, "  %-12s p50 %9.3f ms  p99 %9.3f ms  max %9.3f ms%n", k, v.p50(), v.p99(),
                v.max()));
    }

    static String json(EngineStatus s, long total, double seconds, TrackerMode tracker) {
        StringBuilder b = new StringBuilder("{\"devices\":[");
        for (int i = 0; i < s.devices().size(); i++) {
            EngineStatus.Device d = s.devices().get(i);
            b.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT,
                    "{\"name\":\"%s\",\"utilization\":%.6f,\"spanUtilization\":%.6f,\"gapMs\":{\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f,"
                            + "\"count\":%d},\"longestChain\":%d,\"partitions\":%d,\"busySeconds\":%.3f}",
                    d.name(), d.utilization(), d.spanUtilization(), d.gapsMs().p50(), d.gapsMs().p99(), d.gapsMs().max(), d.gapCount(),
                    d.longestChain(), d.partitions(), d.busySeconds()));
        }
        b.append("],");
        b.append(String.format(Locale.ROOT, "\"partitions\":%d,\"partitionsRequested\":%d,\"seconds\":%.3f,\"proofsPerSecond\":%.4f,",
                s.counters().partitionsDone(), total, seconds, s.counters().partitionsDone() / seconds));
        b.append(String.format(Locale.ROOT, "\"peakRssBytes\":%d,\"budgetPeakBytes\":%d,\"budgetBytes\":%d,\"poolBytes\":%d,"
                + "\"pinnedBytes\":%d,\"systemAllocations\":%d,", peakRss(), s.memory().budgetPeak(), s.memory().budgetCapacity(),
                s.memory().poolAllocated(), s.memory().pinned(), s.memory().systemAllocations()));
        b.append("\"tracker\":\"").append(tracker.name().toLowerCase(Locale.ROOT)).append("\"}");
        return b.toString();
    }

    /** The process's peak resident set (VmHWM), or -1 where /proc is not available. */
    static long peakRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
