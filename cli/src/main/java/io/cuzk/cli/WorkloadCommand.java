package io.cuzk.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cuzk.Backend;
import io.cuzk.engine.Config;
import io.cuzk.engine.ContendedBaseline;
import io.cuzk.engine.Engine;
import io.cuzk.engine.EngineStatus;
import io.cuzk.engine.Job;
import io.cuzk.engine.JobHandle;
import io.cuzk.engine.PartitionState;
import io.cuzk.engine.Phase;
import io.cuzk.engine.Priority;
import io.cuzk.engine.TrackerMode;
import io.cuzk.groth16.OutputFiles;
import io.cuzk.groth16.Proof;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code cuzk workload}: runs jobs of several partitions through the engine and reports what the
 * devices did: utilization while work waited, the idle gaps, the longest chain of partitions run
 * back to back, throughput and peak memory, as JSON with {@code --json} or as live progress.
 */
final class WorkloadCommand implements CliCommand {
    enum Priorities {
        NORMAL, MIXED
    }

    @Override
    public CommandSpec spec() {
        CommandSpec spec = Specs.command("workload", "Runs N jobs of P partitions through the proving engine and reports device "
                + "utilization, idle gaps while work waited, chains, throughput and peak memory (JSON with --json).");
        spec.addOption(Specs.required("--zkey", "FILE", Path.class, "the proving key of every job (with --server: its name on the daemon)"));
        spec.addOption(Specs.repeated("--wtns", "FILE", Path.class, true, "a witness; repeat it for several, which the partitions take "
                + "in turn"));
        spec.addOption(Specs.option("--jobs", "N", int.class, "1", "jobs to submit"));
        spec.addOption(Specs.option("--partitions", "P", int.class, "1", "partitions per job"));
        Backends.addOptions(spec);
        spec.addOption(Specs.option("--workers-per-device", "K", int.class, "2", "device workers per device"));
        spec.addOption(Specs.option("--synthesis-workers", "S", Integer.class, null,
                "partitions synthesized at once (default: half the hardware threads)"));
        spec.addOption(Specs.option("--synthesis-threads", "T", int.class, "1", "native threads per synthesis, 0 = all"));
        spec.addOption(Specs.option("--budget-mib", "M", Integer.class, null, "the memory budget in MiB (default: half the physical memory)"));
        spec.addOption(Specs.option("--priorities", "normal|mixed", Priorities.class, "normal",
                "every job NORMAL, or the jobs cycling through the priorities"));
        spec.addOption(Specs.option("--tracker", "lockfree|contended", TrackerMode.class, "lockfree",
                "the engine's lock-free status tracker, or the contended baseline it replaces"));
        spec.addOption(Specs.option("--stall-ms", "MS", int.class, "200", "with --tracker contended: the finalizers' stall under the lock"));
        spec.addOption(Specs.flag("--self-check", "verify every proof in the finalizers before it counts as done (its cost shows as "
                + "selfCheck in --json and in the summary)"));
        spec.addOption(Specs.option("--ready-per-worker", "R", int.class, "0",
                "ready partitions kept per device worker: how far synthesis runs ahead (0 = derived from measured times)"));
        spec.addOption(Specs.option("--pool-idle-s", "S", int.class, "10", "seconds a pooled block may stay idle before it is given back"));
        spec.addOption(Specs.option("--linger-s", "S", int.class, "0",
                "after the jobs are done, wait S seconds and report what the pool still holds"));
        spec.addOption(Specs.option("--urgent-tries", "N", int.class, "0", "measure the latency of N urgent (CRITICAL) jobs, one at a "
                + "time, first alone and then submitted into the backlog of the other jobs"));
        spec.addOption(Specs.option("--urgent-partitions", "P", int.class, "10", "partitions per urgent job"));
        spec.addOption(Specs.option("--warmup-jobs", "N", int.class, "0", "prove N jobs first, untimed and not counted in partitions or "
                + "proofs/s (the devices' utilization and the phase times cover the whole run)"));
        spec.addOption(Specs.option("--in-flight", "N", int.class, "0", "at most N jobs submitted and not yet proved at a time, the "
                + "next submitted as the oldest is done: a steady backlog of N jobs (0: all at once)"));
        spec.addOption(Specs.option("--progress", "auto|always|never", String.class, "auto", "a progress line on stderr (partitions "
                + "done, proofs/s, utilization, partitions by phase): auto shows it when stderr is a terminal"));
        spec.addOption(Specs.outputFileOption("--trace", "FILE", "write what every worker did into FILE as Chrome trace-event "
                + "JSON (open it in ui.perfetto.dev): a track per synthesis worker, device worker and finalizer"));
        spec.addOption(Specs.flag("--json", "print the summary as JSON"));
        spec.addOption(Specs.option("--out", "DIR", Path.class, null, "write every proof and its public signals into DIR (with "
                + "--server, the jobs numbered from 1 in the order they were submitted)"));
        ProveCommand.addClientOptions(spec, "send the jobs to a daemon (bin/cuzk serve) instead of an engine in this process, and "
                + "report throughput and each job's latency as its client sees them");
        return spec;
    }

    /** The options workload --server uses; the others set the engine in this process. */
    private static final java.util.Set<String> REMOTE_OPTIONS = java.util.Set.of("--zkey", "--wtns", "--jobs", "--partitions", "--priorities",
            "--warmup-jobs", "--in-flight", "--progress", "--json", "--out", "--server", "--attempts", "--token-file", "--tls-ca",
            "--verbose", "--help", "--version");

    @Override
    public int run(Main root, ParseResult parsed) {
        Path zkey = Specs.value(parsed, "--zkey");
        List<Path> wtns = Specs.value(parsed, "--wtns");
        int jobs = Specs.intValue(parsed, "--jobs", 1, 1_000_000);
        int partitions = Specs.intValue(parsed, "--partitions", 1, 10_000);
        int workersPerDevice = Specs.intValue(parsed, "--workers-per-device", 1, 64);
        int synthesisThreads = Specs.intValue(parsed, "--synthesis-threads", 0, 4096);
        int stallMs = Specs.intValue(parsed, "--stall-ms", 0, 600_000);
        Integer synthesisWorkers = Specs.value(parsed, "--synthesis-workers");
        if (synthesisWorkers != null) {
            Specs.inRange(parsed, "--synthesis-workers", synthesisWorkers, 1, 1024);
        }
        Integer budgetMib = Specs.value(parsed, "--budget-mib");
        if (budgetMib != null) {
            Specs.inRange(parsed, "--budget-mib", budgetMib, 1, Integer.MAX_VALUE);
        }
        int readyPerWorker = Specs.intValue(parsed, "--ready-per-worker", 0, 4096);
        int poolIdleS = Specs.intValue(parsed, "--pool-idle-s", 0, 86_400);
        int lingerS = Specs.intValue(parsed, "--linger-s", 0, 86_400);
        int urgentTries = Specs.intValue(parsed, "--urgent-tries", 0, 10_000);
        int urgentPartitions = Specs.intValue(parsed, "--urgent-partitions", 1, 10_000);
        int warmupJobs = Specs.intValue(parsed, "--warmup-jobs", 0, 1_000_000);
        int inFlight = Specs.intValue(parsed, "--in-flight", 0, 1_000_000);
        Priorities priorities = Specs.value(parsed, "--priorities");
        TrackerMode tracker = Specs.value(parsed, "--tracker");
        boolean json = Specs.value(parsed, "--json");
        Path outDir = Specs.value(parsed, "--out");
        String progressMode = Specs.value(parsed, "--progress");
        boolean showProgress = ProgressLine.firstAfter(root, progressMode, json) != null;
        PrintStream out = root.out, err = root.err;
        for (Path p : wtns) {
            requireInput(p);
        }
        if (outDir != null && Files.exists(outDir) && !Files.isDirectory(outDir)) {
            throw new InvalidInputException(outDir + ": not a folder (--out names the folder the proofs go into)");
        }
        if (Specs.value(parsed, "--server") != null) {
            // the engine's options have no effect on a daemon: said, not ignored
            List<String> local = new ArrayList<>();
            for (picocli.CommandLine.Model.OptionSpec o : parsed.matchedOptions()) {
                if (!REMOTE_OPTIONS.contains(o.longestName()) && !local.contains(o.longestName())) {
                    local.add(o.longestName());
                }
            }
            if (!local.isEmpty()) {
                throw new picocli.CommandLine.ParameterException(parsed.commandSpec().commandLine(), String.join(", ", local)
                        + (local.size() == 1 ? " sets" : " set") + " the engine in this process, not a daemon's: with --server the daemon"
                        + " runs as `cuzk serve` was started (its --self-check verifies every proof it makes)");
            }
            if ("always".equals(progressMode)) { // auto and never hold as they are: the client draws no progress line
                throw new picocli.CommandLine.ParameterException(parsed.commandSpec().commandLine(), "--progress always: with --server "
                        + "there is no progress line here; `cuzk status --server ... --watch` shows the daemon's");
            }
            return Remote.workload(root, parsed, zkey.toString(), wtns, jobs, partitions, priorities == Priorities.MIXED, json,
                    warmupJobs, outDir);
        }
        requireInput(zkey);
        Backend b = Backends.backend(parsed, json ? null : err);
        Config.Builder cfg = Config.builder().devices(List.of(b)).workersPerDevice(workersPerDevice).synthesisThreads(synthesisThreads)
                .selfCheck(Specs.value(parsed, "--self-check"))
                .readyPerWorker(readyPerWorker).poolIdleRelease(Duration.ofSeconds(poolIdleS));
        if (synthesisWorkers != null) {
            cfg.synthesisWorkers(synthesisWorkers);
        }
        if (budgetMib != null) {
            cfg.memoryBudgetBytes((long) budgetMib << 20);
        }
        List<JobHandle> handles = new ArrayList<>();
        List<Failure> failures = new ArrayList<>();
        try (Engine engine = tracker == TrackerMode.CONTENDED ? ContendedBaseline.start(cfg.build(), Duration.ofMillis(stallMs))
                : Engine.start(cfg.build())) {
            Urgent urgent = urgentTries > 0 ? new Urgent(engine, zkey, wtns, urgentPartitions) : null;
            if (urgent != null) {
                urgent.alone = urgent.measure(urgentTries, failures, err, null);
            }
            // untimed jobs first (--warmup-jobs): the key is read and the code compiled before the clock starts
            for (int j = 0; j < warmupJobs; j++) {
                List<Path> parts = new ArrayList<>();
                for (int p = 0; p < partitions; p++) {
                    parts.add(wtns.get(p % wtns.size()));
                }
                try {
                    engine.submit(Job.ofFiles(zkey, parts, Priority.NORMAL)).await(Duration.ofHours(1));
                } catch (ExecutionException | TimeoutException e) {
                    throw new IllegalStateException("a warm-up job failed: " + e.getMessage(), e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Main.FAILURE;
                }
            }
            // what the clock measures: the partitions proved from here on (not the warm-up's, not the urgent tries made alone)
            long before = engine.status().counters().partitionsDone();
            long t0 = System.nanoTime();
            long total = (long) jobs * partitions;
            Awaiter awaiter = new Awaiter(engine, handles, failures, err, outDir, json, showProgress, t0, before, total);
            for (int j = 0; j < jobs; j++) {
                // a steady backlog (--in-flight): the oldest job is awaited before the next goes in
                while (inFlight > 0 && handles.size() - awaiter.next >= inFlight) {
                    if (!awaiter.awaitNext()) {
                        return Main.FAILURE;
                    }
                }
                List<Path> parts = new ArrayList<>();
                for (int p = 0; p < partitions; p++) {
                    parts.add(wtns.get((j * partitions + p) % wtns.size()));
                }
                Priority prio = priorities == Priorities.MIXED ? Priority.values()[j % Priority.values().length] : Priority.NORMAL;
                handles.add(engine.submit(Job.ofFiles(zkey, parts, prio)));
            }
            if (urgent != null) {
                urgent.inBacklog = urgent.measure(urgentTries, failures, err, handles);
            }
            while (awaiter.next < handles.size()) {
                if (!awaiter.awaitNext()) {
                    return Main.FAILURE;
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            EngineStatus s = engine.status();
            Path traceFile = Specs.value(parsed, "--trace");
            if (traceFile != null) {
                try {
                    OutputFiles.writeTogether(List.of(traceFile), List.of(io.cuzk.server.ChromeTrace.of(engine.trace())));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            EngineStatus lingered = null;
            if (lingerS > 0) {
                try {
                    Thread.sleep(Duration.ofSeconds(lingerS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Main.FAILURE;
                }
                lingered = engine.status();
            }
            if (json) {
                out.println(json(s, before, total, seconds, failures, urgent, lingerS, lingered));
            } else {
                if (showProgress) {
                    progress(err, s, before, total, seconds);
                    err.println();
                }
                summary(out, s, before, seconds, urgent, lingerS, lingered);
                if (!failures.isEmpty()) {
                    out.println(failures.size() + (failures.size() == 1 ? " job" : " jobs") + " failed (each named on standard error)");
                }
            }
        }
        // the worst failure decides: an environment or internal one over bad input
        return failures.stream().mapToInt(Failure::status).max().orElse(Main.OK);
    }

    /** Awaits the submitted jobs in order, each let go of once done: a long run holds only the jobs still running. */
    private static final class Awaiter {
        final Engine engine;
        final List<JobHandle> handles;
        final List<Failure> failures;
        final PrintStream err;
        final Path outDir;
        final boolean json, showProgress;
        final long t0, before, total;
        int next;
        long lastPrint;

        Awaiter(Engine engine, List<JobHandle> handles, List<Failure> failures, PrintStream err, Path outDir, boolean json,
                boolean showProgress, long t0, long before, long total) {
            this.engine = engine;
            this.handles = handles;
            this.failures = failures;
            this.err = err;
            this.outDir = outDir;
            this.json = json;
            this.showProgress = showProgress;
            this.t0 = t0;
            this.before = before;
            this.total = total;
        }

        /** Awaits the oldest job not yet awaited; false if interrupted (the interrupt is kept). */
        boolean awaitNext() {
            JobHandle h = handles.set(next++, null);
            while (true) {
                try {
                    List<Proof> proofs = h.await(Duration.ofMillis(json ? 60_000 : 500));
                    if (outDir != null) {
                        write(outDir, h.id(), proofs);
                    }
                    return true;
                } catch (TimeoutException e) {
                    if (showProgress && System.nanoTime() - lastPrint > TimeUnit.SECONDS.toNanos(1)) {
                        progress(err, engine.status(), before, total, (System.nanoTime() - t0) / 1e9);
                        lastPrint = System.nanoTime();
                    }
                } catch (ExecutionException e) {
                    failures.add(failure(h, e, err));
                    return true;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
    }

    /** Refuses, before the engine starts, an input that is missing or not a regular file. */
    private static void requireInput(Path p) {
        if (!Files.exists(p)) {
            throw new InvalidInputException(p + ": no such file");
        }
        if (Files.isDirectory(p)) {
            throw new InvalidInputException(p + ": is a folder, not a file");
        }
        if (!Files.isRegularFile(p)) {
            throw new InvalidInputException(p + ": is not a regular file (a pipe, a device or a socket)");
        }
    }

    private static Failure failure(JobHandle h, ExecutionException e, PrintStream err) {
        Failure f = new Failure(h.id(), Main.statusOf(e.getCause()), "job " + h.id() + ": " + Main.messageOf(e.getCause()));
        err.println("cuzk workload: " + f.message());
        return f;
    }

    /**
     * The latency of urgent jobs (CRITICAL, submitted one at a time and awaited), alone on the
     * engine and then inside the backlog of the other jobs, which are NORMAL or mixed: what an
     * urgent proof (a WindowPoSt with a deadline) sees when bulk work (PoRep) is queued.
     */
    static final class Urgent {
        final Engine engine;
        final Path zkey;
        final List<Path> wtns;
        final int partitions;
        List<Double> alone = List.of(), inBacklog = List.of();
        List<Long> backlogAtSubmit = new ArrayList<>();

        Urgent(Engine engine, Path zkey, List<Path> wtns, int partitions) {
            this.engine = engine;
            this.zkey = zkey;
            this.wtns = wtns;
            this.partitions = partitions;
        }

        /** Milliseconds of each try; with a backlog, only tries made while it still waits count. */
        List<Double> measure(int tries, List<Failure> failures, PrintStream err, List<JobHandle> backlog) {
            List<Double> ms = new ArrayList<>();
            List<Path> parts = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                parts.add(wtns.get(p % wtns.size()));
            }
            for (int i = 0; i < tries; i++) {
                if (backlog != null) {
                    long waiting = waiting(engine.status());
                    if (waiting < 2L * partitions) {
                        err.println("cuzk workload: the backlog ran out after " + i + " urgent tries; submit more jobs for more tries");
                        break;
                    }
                    backlogAtSubmit.add(waiting);
                }
                long t = System.nanoTime();
                JobHandle h = engine.submit(Job.ofFiles(zkey, parts, Priority.CRITICAL));
                try {
                    h.await(Duration.ofMinutes(10));
                    ms.add((System.nanoTime() - t) / 1e6);
                } catch (ExecutionException e) {
                    failures.add(failure(h, e, err));
                    return ms;
                } catch (TimeoutException | InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return ms;
                }
            }
            return ms;
        }

        static long waiting(EngineStatus s) {
            return s.queues().getOrDefault(PartitionState.QUEUED, 0) + s.queues().getOrDefault(PartitionState.SYNTHESIZING, 0)
                    + s.queues().getOrDefault(PartitionState.READY, 0);
        }
    }

    /** p50, p99 and max of a small sample (nearest rank). */
    static double[] percentiles(List<Double> v) {
        if (v.isEmpty()) {
            return new double[] {0, 0, 0};
        }
        List<Double> sorted = v.stream().sorted().toList();
        return new double[] {rank(sorted, 0.50), rank(sorted, 0.99), sorted.get(sorted.size() - 1)};
    }

    private static double rank(List<Double> sorted, double q) {
        return sorted.get(Math.max(0, (int) Math.ceil(q * sorted.size()) - 1));
    }

    /** A job that failed: its exit status by kind (see Main.statusOf) and its one-line message. */
    record Failure(long job, int status, String message) {}

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

    /** The progress line; {@code before}: the partitions done before the clock started, not counted. */
    private static void progress(PrintStream err, EngineStatus s, long before, long total, double seconds) {
        StringBuilder b = new StringBuilder();
        long done = s.counters().partitionsDone() - before;
        b.append(String.format(Locale.ROOT, "\r%d/%d partitions done, %.1f proofs/s", done, total, seconds > 0 ? done / seconds : 0.0));
        for (EngineStatus.Device d : s.devices()) {
            b.append(String.format(Locale.ROOT, "; %s utilization %.3f (last 10 s %.3f)", d.name(), d.utilization(), d.recentUtilization()));
        }
        Map<PartitionState, Integer> q = s.queues();
        b.append(String.format("; queued %d synthesizing %d ready %d proving %d finalizing %d   ", q.get(PartitionState.QUEUED),
                q.get(PartitionState.SYNTHESIZING), q.get(PartitionState.READY), q.get(PartitionState.PROVING),
                q.get(PartitionState.FINALIZING)));
        err.print(b);
        err.flush();
    }

    private static void summary(PrintStream out, EngineStatus s, long before, double seconds, Urgent urgent, int lingerS,
            EngineStatus lingered) {
        long done = s.counters().partitionsDone() - before;
        out.printf(Locale.ROOT, "%d partitions in %.1f s: %.2f proofs/s, tracker %s%n", done, seconds, done / seconds,
                s.tracker().name().toLowerCase(Locale.ROOT));
        if (s.counters().selfChecks() > 0) {
            out.printf(Locale.ROOT, "self-check: %d proofs verified in the finalizers, %d did not verify, %.3f ms each%n",
                    s.counters().selfChecks(), s.counters().selfCheckFailures(),
                    s.counters().selfCheckSeconds() * 1e3 / s.counters().selfChecks());
        }
        for (EngineStatus.Device d : s.devices()) {
            out.printf(Locale.ROOT, "%s: utilization %.4f while work waited (%.4f over its span); gaps while work waited: p50 %.3f ms,"
                    + " p99 %.3f ms, max %.3f ms (%d); longest chain %d of %d%n", d.name(), d.utilization(), d.spanUtilization(),
                    d.gapsMs().p50(), d.gapsMs().p99(), d.gapsMs().max(), d.gapCount(), d.longestChain(), d.partitions());
        }
        EngineStatus.Memory m = s.memory();
        out.printf(Locale.ROOT, "memory: budget peak %d of %d bytes; pool %d bytes held (peak %d, %d returned to the system), "
                + "%d system allocations; peak RSS %d bytes%n", m.budgetPeak(), m.budgetCapacity(), m.poolAllocated(), m.poolPeak(),
                m.poolReturnedBytes(), m.systemAllocations(), peakRss());
        out.printf(Locale.ROOT, "lookahead: at most %d partitions admitted ahead of the devices (peak %d)%n", s.lookahead().limit(),
                s.lookahead().peak());
        s.phasesMs().forEach((k, v) -> out.printf(Locale.ROOT, "  %-12s p50 %9.3f ms  p99 %9.3f ms  max %9.3f ms%n", k.label(), v.p50(),
                v.p99(), v.max()));
        if (lingered != null) {
            out.printf(Locale.ROOT, "%d s later: pool %d bytes held (%.1f %% of its peak), %d bytes returned to the system%n", lingerS,
                    lingered.memory().poolAllocated(), 100.0 * lingered.memory().poolAllocated() / Math.max(1, lingered.memory().poolPeak()),
                    lingered.memory().poolReturnedBytes());
        }
        if (urgent != null) {
            double[] a = percentiles(urgent.alone), b = percentiles(urgent.inBacklog);
            out.printf(Locale.ROOT, "urgent jobs of %d partitions: alone p50 %.1f ms p99 %.1f ms (%d tries); in the backlog p50 %.1f ms "
                    + "p99 %.1f ms (%d tries); p99 ratio %.2f%n", urgent.partitions, a[0], a[1], urgent.alone.size(), b[0], b[1],
                    urgent.inBacklog.size(), a[1] == 0 ? 0 : b[1] / a[1]);
        }
    }

    /**
     * The summary as JSON: each device's figures, throughput, memory and per-phase latencies.
     * {@code before}: the partitions done before the clock started (the warm-up jobs', the urgent
     * tries made alone), left out of partitions and proofsPerSecond and reported as
     * partitionsBeforeClock; the devices' figures and the phase times cover the whole run.
     */
    static String json(EngineStatus s, long before, long total, double seconds, List<Failure> failures, Urgent urgent, int lingerS,
            EngineStatus lingered) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        if (!failures.isEmpty()) {
            Failure worst = failures.stream().max(Comparator.comparingInt(Failure::status)).orElseThrow();
            root.set("error", JsonErrors.errorNode(mapper, worst.status(), failures.size() + " of the jobs failed; the worst: "
                    + worst.message()));
            ArrayNode errors = root.putArray("failedJobs");
            for (Failure f : failures) {
                ObjectNode e = JsonErrors.errorNode(mapper, f.status(), f.message());
                e.put("job", f.job());
                errors.add(e);
            }
        }
        ArrayNode devices = root.putArray("devices");
        for (EngineStatus.Device d : s.devices()) {
            ObjectNode n = devices.addObject();
            n.put("name", d.name());
            n.put("utilization", d.utilization());
            n.put("spanUtilization", d.spanUtilization());
            ObjectNode gaps = n.putObject("gapMs");
            gaps.put("p50", d.gapsMs().p50());
            gaps.put("p99", d.gapsMs().p99());
            gaps.put("max", d.gapsMs().max());
            gaps.put("count", d.gapCount());
            n.put("longestChain", d.longestChain());
            n.put("partitions", d.partitions());
            n.put("busySeconds", d.busySeconds());
        }
        long done = s.counters().partitionsDone() - before;
        root.put("partitions", done);
        root.put("partitionsRequested", total);
        root.put("partitionsBeforeClock", before);
        root.put("seconds", seconds);
        root.put("proofsPerSecond", done / seconds);
        root.put("peakRssBytes", peakRss());
        root.put("budgetPeakBytes", s.memory().budgetPeak());
        root.put("budgetBytes", s.memory().budgetCapacity());
        root.put("poolBytes", s.memory().poolAllocated());
        root.put("poolPeakBytes", s.memory().poolPeak());
        root.put("poolInUseBytes", s.memory().poolInUse());
        root.put("poolReturnedBytes", s.memory().poolReturnedBytes());
        ObjectNode look = root.putObject("lookahead");
        look.put("limit", s.lookahead().limit());
        look.put("peak", s.lookahead().peak());
        if (lingered != null) {
            ObjectNode l = root.putObject("linger");
            l.put("seconds", lingerS);
            l.put("poolBytes", lingered.memory().poolAllocated());
            l.put("poolIdleBytes", lingered.memory().poolIdle());
            l.put("poolReturnedBytes", lingered.memory().poolReturnedBytes());
        }
        if (urgent != null) {
            ObjectNode u = root.putObject("urgent");
            u.put("partitions", urgent.partitions);
            putPercentiles(u.putObject("aloneMs"), urgent.alone);
            putPercentiles(u.putObject("inBacklogMs"), urgent.inBacklog);
            ArrayNode waiting = u.putArray("backlogPartitionsAtSubmit");
            urgent.backlogAtSubmit.forEach(waiting::add);
        }
        root.put("pinnedBytes", s.memory().pinned());
        root.put("systemAllocations", s.memory().systemAllocations());
        ObjectNode phases = root.putObject("phasesMs");
        for (Map.Entry<Phase, EngineStatus.Percentiles> e : s.phasesMs().entrySet()) {
            ObjectNode p = phases.putObject(e.getKey().label());
            p.put("p50", e.getValue().p50());
            p.put("p99", e.getValue().p99());
            p.put("max", e.getValue().max());
            p.put("count", e.getValue().count());
        }
        root.put("tracker", s.tracker().name().toLowerCase(Locale.ROOT));
        EngineStatus.Counters counters = s.counters();
        if (counters.selfChecks() > 0) {
            ObjectNode sc = root.putObject("selfCheck");
            sc.put("proofs", counters.selfChecks());
            sc.put("failed", counters.selfCheckFailures());
            sc.put("seconds", counters.selfCheckSeconds());
            sc.put("msPerProof", counters.selfCheckSeconds() * 1e3 / counters.selfChecks());
        }
        try {
            return mapper.writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void putPercentiles(ObjectNode n, List<Double> v) {
        double[] p = percentiles(v);
        n.put("p50", p[0]);
        n.put("p99", p[1]);
        n.put("max", p[2]);
        n.put("count", v.size());
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
