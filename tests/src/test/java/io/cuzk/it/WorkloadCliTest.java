package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cuzk.Curve;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cuzk workload: the JSON summary, the proofs it writes (checked with snarkjs), and its errors. */
class WorkloadCliTest {
    @TempDir
    Path tmp;



    @Test
    void jsonSummaryAndVerifiableProofs() throws Exception {
        Path multi = Circuits.dir(Curve.BN254, "multi_main");
        Path other = tmp.resolve("other.wtns");
        Files.copy(multi.resolve("witness.wtns"), other);
        Path out = tmp.resolve("proofs");
        Cli.Result r = Cli.run("workload", "--zkey", multi.resolve("circuit.zkey").toString(), "--wtns", multi.resolve("witness.wtns").toString(),
                "--wtns", other.toString(), "--jobs", "3", "--partitions", "4", "--workers-per-device", "2", "--backend", "cpu",
                "--tracker", "lockfree", "--json", "--out", out.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(12, j.get("partitions").asInt());
        assertEquals("lockfree", j.get("tracker").asText());
        assertTrue(j.get("proofsPerSecond").asDouble() > 0);
        assertTrue(j.get("peakRssBytes").asLong() > 0);
        JsonNode d = j.get("devices").get(0);
        double u = d.get("utilization").asDouble();
        assertTrue(u > 0 && u <= 1, "utilization " + u);
        assertTrue(d.get("longestChain").asInt() >= 1 && d.get("longestChain").asInt() <= 12);
        for (String k : List.of("p50", "p99", "max")) {
            assertTrue(d.get("gapMs").has(k), k);
        }
        List<Path> proofs;
        try (Stream<Path> s = Files.list(out)) {
            proofs = s.filter(p -> p.getFileName().toString().endsWith("-proof.json")).sorted().toList();
        }
        assertEquals(12, proofs.size());
        for (Path p : List.of(proofs.get(0), proofs.get(11))) {
            Path pub = Path.of(p.toString().replace("-proof.json", "-public.json"));
            Node.Result v = Node.snarkjs("groth16", "verify", multi.resolve("verification_key.json").toString(), pub.toString(),
                    p.toString());
            assertTrue(v.out().contains("OK!"), v.out() + v.err());
        }
    }

    /**
     * --warmup-jobs: the warm-up's partitions are proved before the clock starts and left out of
     * partitions and proofs/s (counting them over the timed seconds inflated the rate by the
     * warm-up's share: 10 % with 2 warm-up jobs before 20, the whole overhead the daemon benchmark
     * then showed); they are reported apart, and the written proofs are the timed jobs' only.
     */
    @Test
    void warmupJobsAreNotCountedInTheRate() throws Exception {
        Path multi = Circuits.dir(Curve.BN254, "multi_main");
        Path out = tmp.resolve("proofs");
        Cli.Result r = Cli.run("workload", "--zkey", multi.resolve("circuit.zkey").toString(), "--wtns", multi.resolve("witness.wtns").toString(),
                "--jobs", "2", "--partitions", "3", "--warmup-jobs", "3", "--backend", "cpu", "--json", "--out", out.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(6, j.get("partitions").asInt());
        assertEquals(6, j.get("partitionsRequested").asInt());
        assertEquals(9, j.get("partitionsBeforeClock").asInt());
        assertEquals(15, j.get("devices").get(0).get("partitions").asInt(), "the device figures cover the whole run");
        double seconds = j.get("seconds").asDouble();
        assertEquals(6 / seconds, j.get("proofsPerSecond").asDouble(), 1e-9 * (6 / seconds));
        try (Stream<Path> s = Files.list(out)) {
            assertEquals(6, s.filter(p -> p.getFileName().toString().endsWith("-proof.json")).count());
        }
        Cli.Result text = Cli.run("workload", "--zkey", multi.resolve("circuit.zkey").toString(), "--wtns",
                multi.resolve("witness.wtns").toString(), "--jobs", "1", "--partitions", "2", "--warmup-jobs", "1", "--backend", "cpu");
        assertEquals(0, text.status(), text.err());
        assertTrue(text.out().startsWith("2 partitions in "), text.out());
    }

    /**
     * --trace: Chrome trace-event JSON with a named track per worker and, for every partition, one
     * slice of each phase in that order in time (synthesis; the device worker's handoff, device with
     * H and the MSMs nested in it, finish; finalize); a device worker's top-level slices never overlap
     * (it proves one partition at a time), and neither do a synthesis worker's.
     */
    @Test
    void traceHasEveryPartitionOnItsWorkersTracks() throws Exception {
        Path multi = Circuits.dir(Curve.BN254, "multi_main");
        Path trace = tmp.resolve("trace.json");
        Cli.Result r = Cli.run("workload", "--zkey", multi.resolve("circuit.zkey").toString(), "--wtns", multi.resolve("witness.wtns").toString(),
                "--jobs", "4", "--partitions", "5", "--workers-per-device", "2", "--backend", "cpu", "--json", "--trace", trace.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode events = new ObjectMapper().readTree(trace.toFile()).get("traceEvents");
        java.util.Map<Integer, String> tracks = new java.util.HashMap<>();
        java.util.Map<String, java.util.Map<String, double[]>> byPartition = new java.util.HashMap<>();
        java.util.Map<Integer, List<double[]>> byTrack = new java.util.HashMap<>();
        for (JsonNode e : events) {
            if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("thread_name")) {
                tracks.put(e.get("tid").asInt(), e.get("args").get("name").asText());
            } else if (e.get("ph").asText().equals("X")) {
                double ts = e.get("ts").asDouble(), dur = e.get("dur").asDouble();
                assertTrue(ts >= 0 && dur >= 0, e.toString());
                String id = e.get("args").get("job").asLong() + "/" + e.get("args").get("partition").asInt();
                double[] prev = byPartition.computeIfAbsent(id, k -> new java.util.HashMap<>()).put(e.get("name").asText(),
                        new double[] {ts, ts + dur});
                assertEquals(null, prev, "two " + e.get("name").asText() + " slices for partition " + id);
                if (!List.of("H", "MSMs").contains(e.get("name").asText())) { // nested in their device slice, checked below
                    byTrack.computeIfAbsent(e.get("tid").asInt(), k -> new java.util.ArrayList<>()).add(new double[] {ts, ts + dur});
                }
            }
        }
        assertEquals(20, byPartition.size(), "every partition is in the trace");
        for (var p : byPartition.entrySet()) {
            var ph = p.getValue();
            assertEquals(java.util.Set.of("synthesis", "handoff", "device", "H", "MSMs", "finish", "finalize"), ph.keySet(), p.getKey());
            List<String> order = List.of("synthesis", "handoff", "H", "MSMs", "finish", "finalize");
            for (int i = 1; i < order.size(); i++) {
                assertTrue(ph.get(order.get(i - 1))[1] <= ph.get(order.get(i))[0] + 1e-3,
                        order.get(i - 1) + " ends after " + order.get(i) + " starts for " + p.getKey());
            }
            assertEquals(ph.get("device")[0], ph.get("H")[0], 1e-3, "H starts the device slice of " + p.getKey());
            assertEquals(ph.get("device")[1], ph.get("MSMs")[1], 1e-3, "the MSMs end the device slice of " + p.getKey());
        }
        assertTrue(tracks.values().stream().filter(n -> n.startsWith("device-0-worker-")).count() == 2, tracks.toString());
        for (var t : byTrack.entrySet()) {
            String name = tracks.get(t.getKey());
            assertTrue(name != null, "a slice on an unnamed track " + t.getKey());
            if (name.startsWith("device-") || name.startsWith("cuzk-synthesis-")) {
                List<double[]> slices = new java.util.ArrayList<>(t.getValue());
                slices.sort(java.util.Comparator.comparingDouble(a -> a[0]));
                for (int i = 1; i < slices.size(); i++) {
                    assertTrue(slices.get(i)[0] >= slices.get(i - 1)[1] - 1e-3, name + ": two partitions at once");
                }
            }
        }
    }

    /**
     * --in-flight N keeps a steady backlog: a job goes in only once the job N places before it is
     * done, so no partition of job j starts synthesis before every partition of job j - N has been
     * finalized; every partition is still proved.
     */
    @Test
    void inFlightKeepsASteadyBacklog() throws Exception {
        Path multi = Circuits.dir(Curve.BN254, "multi_main");
        Path trace = tmp.resolve("in-flight-trace.json");
        Cli.Result r = Cli.run("workload", "--zkey", multi.resolve("circuit.zkey").toString(), "--wtns", multi.resolve("witness.wtns").toString(),
                "--jobs", "6", "--partitions", "3", "--in-flight", "2", "--backend", "cpu", "--json", "--trace", trace.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(18, new ObjectMapper().readTree(r.out()).get("partitions").asInt(), r.out());
        java.util.TreeMap<Long, double[]> jobs = new java.util.TreeMap<>(); // job -> first synthesis start, last finalize end
        for (JsonNode e : new ObjectMapper().readTree(trace.toFile()).get("traceEvents")) {
            if (!e.get("ph").asText().equals("X")) {
                continue;
            }
            double[] span = jobs.computeIfAbsent(e.get("args").get("job").asLong(), k -> new double[] {Double.MAX_VALUE, 0});
            double ts = e.get("ts").asDouble();
            if (e.get("name").asText().equals("synthesis")) {
                span[0] = Math.min(span[0], ts);
            } else if (e.get("name").asText().equals("finalize")) {
                span[1] = Math.max(span[1], ts + e.get("dur").asDouble());
            }
        }
        assertEquals(6, jobs.size(), jobs.keySet().toString());
        List<double[]> spans = List.copyOf(jobs.values());
        for (int j = 2; j < spans.size(); j++) {
            assertTrue(spans.get(j)[0] >= spans.get(j - 2)[1] - 1e-3, "job " + j + " started synthesis before job " + (j - 2) + " was done");
        }
    }

    /**
     * prove --progress: always, a line rewritten in place ("\r") and wiped before the results; auto
     * (not a terminal here) and never, nothing on stderr; a failure's one line starts on a clean line.
     */
    @Test
    void proveShowsAProgressLineOnlyWhereAsked() throws Exception {
        Path sample = LauncherIT.repo().resolve("samples/poseidon-bn254");
        String zkey = sample.resolve("circuit.zkey").toString(), wtns = sample.resolve("witness.wtns").toString();
        Cli.Result always = Cli.run("prove", "--progress", "always", zkey, wtns, tmp.resolve("a/proof.json").toString(),
                tmp.resolve("a/public.json").toString());
        assertEquals(0, always.status(), always.err());
        assertTrue(always.err().startsWith("\rcuzk prove: ") && always.err().endsWith("\r") && !always.err().contains("\n"),
                "a progress line, wiped: " + always.err().replace("\r", "<CR>"));
        assertTrue(always.out().contains("wrote "), always.out());
        for (String mode : List.of("auto", "never")) {
            Cli.Result r = Cli.run("prove", "--progress", mode, zkey, wtns, tmp.resolve(mode + "/proof.json").toString(),
                    tmp.resolve(mode + "/public.json").toString());
            assertEquals(0, r.status(), r.err());
            assertEquals("", r.err(), mode);
        }
        Cli.Result bad = Cli.run("prove", "--progress", "always", zkey, zkey, tmp.resolve("b/proof.json").toString(),
                tmp.resolve("b/public.json").toString());
        assertEquals(1, bad.status(), bad.err());
        String lastLine = bad.err().substring(bad.err().lastIndexOf('\r') + 1);
        assertTrue(lastLine.startsWith("cuzk prove: ") && lastLine.strip().lines().count() == 1, bad.err().replace("\r", "<CR>"));
        Cli.Result wrong = Cli.run("prove", "--progress", "sometimes", zkey, wtns, tmp.resolve("c/proof.json").toString(),
                tmp.resolve("c/public.json").toString());
        assertEquals(1, wrong.status(), wrong.err());
        assertTrue(wrong.err().contains("--progress sometimes: expected auto, always or never"), wrong.err());
    }

    @Test
    void contendedBaselineAndProgressOutput() throws Exception {
        Path multi = Circuits.dir(Curve.BN254, "multi_main");
        Cli.Result r = Cli.run("workload", "--zkey", multi.resolve("circuit.zkey").toString(), "--wtns", multi.resolve("witness.wtns").toString(),
                "--jobs", "2", "--partitions", "3", "--tracker", "contended", "--stall-ms", "5", "--json");
        assertEquals(0, r.status(), r.err());
        assertEquals("contended", new ObjectMapper().readTree(r.out()).get("tracker").asText());
        Cli.Result human = Cli.run("workload", "--zkey", multi.resolve("circuit.zkey").toString(), "--wtns",
                multi.resolve("witness.wtns").toString(), "--jobs", "2", "--partitions", "2", "--backend", "auto", "--progress", "always");
        assertEquals(0, human.status(), human.err());
        assertTrue(human.out().contains("4 partitions in"), human.out());
        assertTrue(human.err().contains("4/4 partitions done,") && human.err().contains("proofs/s"), human.err());
        assertTrue(human.err().contains("backend auto: cpu"), human.err());
        // not a terminal (in process, as in a pipe or a log): no progress line by default
        Cli.Result quiet = Cli.run("workload", "--zkey", multi.resolve("circuit.zkey").toString(), "--wtns",
                multi.resolve("witness.wtns").toString(), "--jobs", "2", "--partitions", "2");
        assertEquals(0, quiet.status(), quiet.err());
        assertTrue(quiet.out().contains("4 partitions in"), quiet.out());
        assertFalse(quiet.err().contains("partitions done"), quiet.err());
    }

    @Test
    void badArgumentsAreUsageErrors() {
        Path multi = Circuits.dir(Curve.BN254, "multi_main");
        assertEquals(2, Cli.run("workload", "--zkey", multi.resolve("circuit.zkey").toString()).status(), "no --wtns");
        assertEquals(2, Cli.run("workload", "--zkey", "z", "--wtns", "w", "--tracker", "spinning").status());
        assertEquals(2, Cli.run("workload", "--zkey", "z", "--wtns", "w", "--jobs", "zero").status());
        Cli.Result missing = Cli.run("workload", "--zkey", tmp.resolve("none.zkey").toString(), "--wtns", multi.resolve("witness.wtns").toString());
        assertEquals(1, missing.status());
        assertTrue(missing.err().contains("none.zkey: no such file"), missing.err());
    }
}
