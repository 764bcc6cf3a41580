package io.cuzk.cli;

import io.cuzk.api.CuzkClient;
import io.cuzk.api.v1.DeviceStatus;
import io.cuzk.api.v1.JobResult;
import io.cuzk.api.v1.KeyInfo;
import io.cuzk.api.v1.PartitionProof;
import io.cuzk.api.v1.Priority;
import io.cuzk.api.v1.Status;
import io.cuzk.groth16.OutputFiles;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * The commands that talk to a daemon: {@code prove --server} and {@code status}. Apart from the
 * local commands so that they alone load gRPC. A daemon's refusal is one line, its gRPC status and
 * what the daemon said, with exit status 1 for a bad request and 3 otherwise.
 */
final class Remote {
    private Remote() {}

    static CuzkClient client(ParseResult parsed) {
        return client(parsed, Specs.value(parsed, "--server"), null);
    }

    /** A client of server (balanced as the target implies when balanced is null). */
    static CuzkClient client(ParseResult parsed, String server, Boolean balanced) {
        Path token = Specs.value(parsed, "--token-file");
        Path ca = Specs.value(parsed, "--tls-ca");
        try {
            CuzkClient.Builder b = CuzkClient.builder(server);
            if (balanced != null) {
                b.balanced(balanced);
            }
            b.failover(Specs.intValue(parsed, "--attempts", 1, 1000), Duration.ofMillis(250));
            if (token != null) {
                b.tokenFile(token);
            }
            if (ca != null) {
                b.tls(ca);
            }
            return b.build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("--server " + server + ": " + e.getMessage());
        }
    }

    static RemoteFailure failure(String server, StatusRuntimeException e) {
        io.grpc.Status s = e.getStatus();
        String what = s.getDescription() != null ? s.getDescription() : s.getCause() != null ? s.getCause().getMessage() : "";
        String line = switch (s.getCode()) {
            case UNAVAILABLE -> (CuzkClient.namesSeveral(server) ? "no daemon of " + server + " could take the job: "
                    : "the daemon at " + server + " is unavailable: ") + what;
            case DEADLINE_EXCEEDED -> "the daemon at " + server + " did not answer in time" + (what.isEmpty() ? "" : ": " + what);
            case UNAUTHENTICATED -> "the daemon at " + server + " refused the call: " + what + " (--token-file)";
            default -> "the daemon at " + server + " answered " + s.getCode() + ": " + what;
        };
        int status = switch (s.getCode()) {
            // FAILED_PRECONDITION is the daemon's own state (a key it cannot read, a circuit it cannot use): not the input's
            case INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, OUT_OF_RANGE, RESOURCE_EXHAUSTED, UNAUTHENTICATED,
                    PERMISSION_DENIED -> Main.BAD_INPUT;
            default -> Main.FAILURE;
        };
        return new RemoteFailure(line, status);
    }

    /**
     * The file's text when it is circom's input.json (UTF-8 whose first character but blanks, after
     * an optional byte-order mark, is '{'), else null: a .wtns begins with the bytes "wtns".
     */
    static String inputJson(byte[] file) {
        // the bytes first: a witness of hundreds of MiB is not decoded to find that out
        int i = file.length >= 3 && (file[0] & 0xff) == 0xef && (file[1] & 0xff) == 0xbb && (file[2] & 0xff) == 0xbf ? 3 : 0;
        while (i < file.length && (file[i] == ' ' || file[i] == '\t' || file[i] == '\n' || file[i] == '\r')) {
            i++;
        }
        if (i >= file.length || file[i] != '{') {
            return null;
        }
        try { // as it is, a mark included: the daemon reads it as snarkjs would (a mark is not JSON)
            return io.cuzk.groth16.TextFiles.utf8(file);
        } catch (java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }

    /** A job the daemon accepted and then failed: exit 1 when its self-check refused a proof (the witness, as a rule), else 3. */
    static RemoteFailure jobFailure(String server, CuzkClient.JobFailedException e) {
        return new RemoteFailure("the daemon at " + server + ": " + e.getMessage(),
                e.failure() == io.cuzk.api.v1.FailureKind.FAILURE_KIND_SELF_CHECK ? Main.BAD_INPUT : Main.FAILURE);
    }

    static Priority priority(String p) {
        return switch (p.toLowerCase(Locale.ROOT)) {
            case "low" -> Priority.PRIORITY_LOW;
            case "normal" -> Priority.PRIORITY_NORMAL;
            case "high" -> Priority.PRIORITY_HIGH;
            case "critical" -> Priority.PRIORITY_CRITICAL;
            default -> throw new InvalidInputException("--priority " + p + ": expected low, normal, high or critical");
        };
    }

    /** prove --server: the witness goes to the daemon, the proof comes back into the two files. */
    static int prove(Main root, ParseResult parsed, String key, Path wtns, Path proofJson, Path publicJson, boolean quiet,
            Duration progress) {
        String server = Specs.value(parsed, "--server");
        Priority priority = priority(Specs.value(parsed, "--priority"));
        int timeoutS = Specs.intValue(parsed, "--timeout-s", 1, 30 * 86_400);
        byte[] witness;
        try {
            OutputFiles.requireDistinct(List.of(proofJson, publicJson), List.of(wtns));
            OutputFiles.requireWritable(List.of(proofJson, publicJson));
            witness = Files.readAllBytes(wtns);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long t0 = System.nanoTime();
        java.util.concurrent.atomic.AtomicReference<String> state = new java.util.concurrent.atomic.AtomicReference<>("submitting");
        try (CuzkClient c = client(parsed);
                ProgressLine line = ProgressLine.start(root.err, progress, () -> "cuzk prove: " + key + " on " + server + ": " + state.get()
                        + ", " + Math.round((System.nanoTime() - t0) / 1e8) / 10.0 + " s")) {
            CuzkClient.Proved proved;
            java.util.function.Consumer<io.cuzk.api.v1.JobEvent> events = e -> state.set("job " + e.getJobId() + " on " + e.getDaemon() + " "
                    + e.getState().name().replace("JOB_STATE_", "").toLowerCase(java.util.Locale.ROOT) + ", " + e.getPartitionsDone() + "/"
                    + e.getPartitions() + " partitions");
            String inputJson = inputJson(witness);
            try {
                proved = inputJson != null
                        ? c.runInputs(key, List.of(inputJson), priority, null, Duration.ofSeconds(timeoutS), events)
                        : c.run(key, List.of(witness), priority, null, Duration.ofSeconds(timeoutS), events);
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == io.grpc.Status.Code.DEADLINE_EXCEEDED) {
                    // the call's end cancelled the job on its daemon: the device has better things to do
                    throw new RemoteFailure("the daemon at " + server + " did not prove the job within --timeout-s " + timeoutS
                            + "; it was cancelled", Main.FAILURE);
                }
                throw e;
            }
            JobResult r = proved.result();
            PartitionProof p = r.getProofs(0);
            OutputFiles.writeTogether(List.of(proofJson, publicJson), List.of(p.getProofJson().getBytes(StandardCharsets.UTF_8),
                    p.getPublicJson().getBytes(StandardCharsets.UTF_8)));
            line.close();
            if (!quiet) {
                root.out.println(key + " on " + proved.daemon() + ": job " + r.getJobId() + " proved in "
                        + Math.round((System.nanoTime() - t0) / 1e6) + " ms" + (proved.attempts() > 1 ? " (placed " + proved.attempts()
                        + " times)" : ""));
                root.out.println("wrote " + proofJson + " and " + publicJson);
            }
            return Main.OK;
        } catch (StatusRuntimeException e) {
            throw failure(server, e);
        } catch (CuzkClient.JobFailedException e) {
            throw jobFailure(server, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * workload --server: the same jobs sent to a daemon instead of an engine in this process, all
     * submitted at once, each followed by Await; reports throughput and each job's latency from
     * submission to proofs, as the client sees it.
     */
    static int workload(Main root, ParseResult parsed, String key, List<Path> wtns, int jobs, int partitions, boolean mixed,
            boolean json, int warmupJobs, Path outDir) {
        String server = Specs.value(parsed, "--server");
        List<byte[]> bytes = new java.util.ArrayList<>();
        try {
            for (Path p : wtns) {
                bytes.add(Files.readAllBytes(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Priority[] prios = {Priority.PRIORITY_LOW, Priority.PRIORITY_NORMAL, Priority.PRIORITY_HIGH, Priority.PRIORITY_CRITICAL};
        int inFlight = Specs.intValue(parsed, "--in-flight", 0, 1_000_000);
        boolean several = CuzkClient.namesSeveral(server);
        try (CuzkClient c = client(parsed)) {
            for (int j = 0; j < warmupJobs; j++) {
                List<byte[]> parts = new java.util.ArrayList<>(partitions);
                for (int p = 0; p < partitions; p++) {
                    parts.add(bytes.get(p % bytes.size()));
                }
                c.run(key, parts, Priority.PRIORITY_NORMAL, null, Duration.ofHours(1), null);
            }
            // with several daemons, a status call reaches one of them: the count is then the results'
            long before = several ? 0 : c.status().getPartitionsDone();
            long[] latencyNanos = new long[jobs];
            List<java.util.concurrent.CompletableFuture<CuzkClient.Proved>> results = new java.util.ArrayList<>(jobs);
            // at most --in-flight jobs at a time (0: all at once), as provers feeding a farm do: the
            // balancer's weights then steer the later jobs
            java.util.concurrent.Semaphore window = new java.util.concurrent.Semaphore(inFlight > 0 ? inFlight : Integer.MAX_VALUE);
            long t0 = System.nanoTime();
            for (int j = 0; j < jobs; j++) {
                List<byte[]> parts = new java.util.ArrayList<>(partitions);
                for (int p = 0; p < partitions; p++) {
                    parts.add(bytes.get((j * partitions + p) % bytes.size()));
                }
                int job = j;
                window.acquireUninterruptibly();
                long submitted = System.nanoTime();
                results.add(c.runAsync(key, parts, mixed ? prios[j % prios.length] : Priority.PRIORITY_NORMAL, null, Duration.ofHours(1), null)
                        .whenComplete((r, e) -> {
                            latencyNanos[job] = System.nanoTime() - submitted;
                            window.release();
                        }));
            }
            // every job's outcome: a failed one is reported and counted, the others' results kept
            // (as an engine in this process does); a daemon that cannot be reached ends the run
            java.util.Map<String, Integer> byDaemon = new java.util.TreeMap<>();
            int placedAgain = 0;
            long proved = 0;
            long[] provedNanos = new long[jobs]; // the latencies of the jobs proved (a refusal is quick: not one)
            int provedJobs = 0;
            List<WorkloadCommand.Failure> failures = new java.util.ArrayList<>();
            for (int j = 0; j < jobs; j++) {
                CuzkClient.Proved r;
                try {
                    r = results.get(j).join();
                } catch (java.util.concurrent.CompletionException e) {
                    RemoteFailure f = e.getCause() instanceof CuzkClient.JobFailedException jf ? jobFailure(server, jf)
                            : e.getCause() instanceof StatusRuntimeException sre ? failure(server, sre) : null;
                    if (f == null) {
                        throw e;
                    }
                    if (e.getCause() instanceof StatusRuntimeException sre && sre.getStatus().getCode() == io.grpc.Status.Code.UNAVAILABLE) {
                        throw f; // no daemon to talk to: the other jobs fare no better
                    }
                    failures.add(new WorkloadCommand.Failure(j + 1, f.status, "job " + (j + 1) + ": " + f.getMessage()));
                    root.err.println("cuzk workload: job " + (j + 1) + ": " + f.getMessage());
                    continue;
                }
                if (r.result().getProofsCount() != partitions) {
                    throw new IllegalStateException("a job came back with " + r.result().getProofsCount() + " proofs, not " + partitions);
                }
                if (outDir != null) { // numbered in submission order, from 1: several daemons' job ids may repeat
                    for (int i = 0; i < partitions; i++) {
                        PartitionProof pp = r.result().getProofs(i);
                        OutputFiles.writeTogether(List.of(outDir.resolve("job-" + (j + 1) + "-partition-" + i + "-proof.json"),
                                outDir.resolve("job-" + (j + 1) + "-partition-" + i + "-public.json")),
                                List.of(pp.getProofJson().getBytes(StandardCharsets.UTF_8),
                                        pp.getPublicJson().getBytes(StandardCharsets.UTF_8)));
                    }
                }
                proved += partitions;
                provedNanos[provedJobs++] = latencyNanos[j];
                byDaemon.merge(r.daemon(), 1, Integer::sum);
                placedAgain += r.attempts() > 1 ? 1 : 0;
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            Status s = several ? Status.getDefaultInstance() : c.status();
            long[] sorted = java.util.Arrays.copyOf(provedNanos, Math.max(1, provedJobs)); // a 0 when none was proved
            java.util.Arrays.sort(sorted);
            double p50 = sorted[(int) Math.min(sorted.length - 1, Math.ceil(0.50 * sorted.length) - 1)] / 1e6;
            double p99 = sorted[(int) Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] / 1e6;
            double max = sorted[sorted.length - 1] / 1e6;
            DeviceStatus d = s.getDevicesCount() > 0 ? s.getDevices(0) : DeviceStatus.getDefaultInstance();
            int worst = failures.stream().mapToInt(WorkloadCommand.Failure::status).max().orElse(Main.OK);
            if (json) {
                com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
                com.fasterxml.jackson.databind.node.ObjectNode o = mapper.createObjectNode();
                o.put("server", server);
                o.put("partitions", proved);
                if (!several) {
                    o.put("partitionsDoneByDaemon", s.getPartitionsDone() - before);
                }
                o.put("seconds", seconds);
                o.put("proofsPerSecond", proved / seconds);
                com.fasterxml.jackson.databind.node.ObjectNode lat = o.putObject("jobLatencyMs");
                lat.put("p50", p50).put("p99", p99).put("max", max).put("count", provedJobs);
                if (!several) {
                    o.put("deviceUtilization", d.getUtilization());
                }
                com.fasterxml.jackson.databind.node.ObjectNode spread = o.putObject("jobsByDaemon");
                byDaemon.forEach(spread::put);
                o.put("jobsPlacedAgain", placedAgain);
                if (!failures.isEmpty()) {
                    WorkloadCommand.Failure w = failures.stream().max(java.util.Comparator.comparingInt(WorkloadCommand.Failure::status))
                            .orElseThrow();
                    o.set("error", JsonErrors.errorNode(mapper, w.status(), failures.size() + " of the jobs failed; the worst: " + w.message()));
                    com.fasterxml.jackson.databind.node.ArrayNode failed = o.putArray("failedJobs");
                    for (WorkloadCommand.Failure f : failures) {
                        failed.add(JsonErrors.errorNode(mapper, f.status(), f.message()).put("job", f.job()));
                    }
                }
                root.out.println(o);
            } else {
                StringBuilder spread = new StringBuilder();
                for (Map.Entry<String, Integer> e : byDaemon.entrySet()) {
                    spread.append(spread.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
                }
                root.out.printf(Locale.ROOT, "%d partitions in %.2f s through %s: %.1f proofs/s; job latency p50 %.1f ms, p99 %.1f ms,"
                        + " max %.1f ms%s; jobs by daemon: %s%s%s%n", proved, seconds, server, proved / seconds, p50, p99, max,
                        several ? "" : String.format(Locale.ROOT, "; device utilization %.4f", d.getUtilization()), spread,
                        placedAgain > 0 ? "; " + placedAgain + " placed again" : "",
                        failures.isEmpty() ? "" : "; " + failures.size() + " of " + jobs + " jobs failed");
            }
            return worst;
        } catch (StatusRuntimeException e) {
            throw failure(server, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof StatusRuntimeException sre) {
                throw failure(server, sre);
            }
            if (e.getCause() instanceof CuzkClient.JobFailedException f) {
                throw jobFailure(server, f);
            }
            throw e;
        } catch (CuzkClient.JobFailedException e) { // a warm-up job
            throw jobFailure(server, e);
        }
    }

    /** {@code cuzk status --server HOST:PORT}: the daemon's status once, as JSON, or refreshed like top. */
    static final class StatusCommand implements CliCommand {
        @Override
        public CommandSpec spec() {
            CommandSpec spec = Specs.command("status", "A daemon's status: per device utilization (overall and over the last 10 s), "
                    + "idle gaps and chains; partitions by phase; memory; keys.");
            ProveCommand.addClientOptions(spec, null);
            spec.addOption(Specs.flag("--json", "print the status as JSON (the cuzk.v1.Status message)"));
            spec.addOption(Specs.flag("--watch", "refresh the view every --interval-s seconds until interrupted"));
            spec.addOption(Specs.option("--interval-s", "S", int.class, "1", "with --watch: seconds between refreshes"));
            spec.addOption(Specs.option("--count", "N", int.class, "0", "with --watch: stop after N views (0: never)"));
            return spec;
        }

        @Override
        public int run(Main root, ParseResult parsed) {
            String server = Specs.value(parsed, "--server");
            boolean json = Specs.value(parsed, "--json"), watch = Specs.value(parsed, "--watch");
            int interval = Specs.intValue(parsed, "--interval-s", 1, 3600);
            int count = Specs.intValue(parsed, "--count", 0, Integer.MAX_VALUE);
            // a list of daemons: each one's view in turn (a dns:/// name reaches one of its addresses)
            List<String> daemons;
            try {
                daemons = CuzkClient.listedDaemons(server);
            } catch (IllegalArgumentException e) {
                throw new InvalidInputException("--server " + server + ": " + e.getMessage());
            }
            List<CuzkClient> clients = new java.util.ArrayList<>();
            String current = server;
            try {
                for (String d : daemons) {
                    clients.add(client(parsed, d, false));
                }
                for (int n = 1; ; n++) {
                    StringBuilder view = new StringBuilder();
                    for (int i = 0; i < clients.size(); i++) {
                        current = daemons.get(i);
                        Status s = clients.get(i).status();
                        if (json) {
                            view.append(i == 0 ? daemons.size() > 1 ? "[" : "" : ",\n")
                                    .append(com.google.protobuf.util.JsonFormat.printer().print(s));
                        } else {
                            view.append(i == 0 ? "" : "\n").append(render(current, s, clients.get(i).keys()));
                        }
                    }
                    if (json && daemons.size() > 1) {
                        view.append("]");
                    }
                    if (watch && !json) {
                        root.out.print("\033[H\033[2J"); // home, clear: the view replaces the last one
                    }
                    root.out.println(view);
                    root.out.flush();
                    if (!watch || (count > 0 && n >= count)) {
                        return Main.OK;
                    }
                    Thread.sleep(interval * 1000L);
                }
            } catch (StatusRuntimeException e) {
                throw failure(current, e);
            } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Main.OK;
            } finally {
                for (CuzkClient c : clients) {
                    c.close();
                }
            }
        }
    }

    static String render(String server, Status s, List<KeyInfo> keys) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "cuzk daemon %s (%s)  version %s  up %.0f s%s%n", server, s.getName(), s.getVersion(),
                s.getUptimeSeconds(),
                s.getDraining() ? "  DRAINING" : ""));
        var l = s.getLoad();
        b.append(String.format(Locale.ROOT, "load (reported to balancing clients, last %.0f s): %.1f partitions/s, utilization %.3f "
                + "(devices busy %.3f, %d partitions queued), memory %.3f, cpu %.3f%n", l.getWindowSeconds(), l.getQps(),
                l.getApplicationUtilization(), l.getDeviceBusy(), l.getQueuedPartitions(), l.getMemoryUtilization(), l.getCpuUtilization()));
        b.append(String.format(Locale.ROOT, "jobs: %d submitted, %d done, %d failed, %d cancelled; partitions done %d%n",
                s.getJobsSubmitted(), s.getJobsDone(), s.getJobsFailed(), s.getJobsCancelled(), s.getPartitionsDone()));
        b.append("partitions now:");
        for (Map.Entry<String, Integer> q : new java.util.TreeMap<>(s.getPartitionsMap()).entrySet()) {
            b.append(' ').append(q.getKey()).append(' ').append(q.getValue());
        }
        b.append(System.lineSeparator());
        b.append(String.format(Locale.ROOT, "%-28s %10s %8s %8s %10s %10s %10s %6s%n", "device", "partitions", "util", "util10s",
                "gap p50", "gap p99", "gap max", "chain"));
        for (DeviceStatus d : s.getDevicesList()) {
            b.append(String.format(Locale.ROOT, "%-28s %10d %8.4f %8.4f %8.3fms %8.3fms %8.3fms %6d%n", d.getName(), d.getPartitions(),
                    d.getUtilization(), d.getRecentUtilization(), d.getGapsMs().getP50(), d.getGapsMs().getP99(), d.getGapsMs().getMax(),
                    d.getLongestChain()));
        }
        var m = s.getMemory();
        b.append(String.format(Locale.ROOT, "memory: budget %s of %s (peak %s); pool %s, in use %s, idle %s, returned %s; pinned %s%n",
                mib(m.getBudgetUsedBytes()), mib(m.getBudgetBytes()), mib(m.getBudgetPeakBytes()), mib(m.getPoolBytes()),
                mib(m.getPoolInUseBytes()), mib(m.getPoolIdleBytes()), mib(m.getPoolReturnedBytes()), mib(m.getPinnedBytes())));
        b.append("keys:");
        for (KeyInfo k : keys) {
            b.append(String.format(Locale.ROOT, "%n  %-24s %-9s 2^%-3d %s %s", k.getName(), k.getCurve(),
                    Integer.numberOfTrailingZeros(k.getDomainSize()), k.getResident() ? "resident" : "on disk ", k.getSha256()));
        }
        return b.toString();
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
