package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    @Test
    void contendedBaselineAndProgressOutput() throws Exception {
        Path multi = Circuits.dir(Curve.BN254, "multi_main");
        Cli.Result r = Cli.run("workload", "--zkey", multi.resolve("circuit.zkey").toString(), "--wtns", multi.resolve("witness.wtns").toString(),
                "--jobs", "2", "--partitions", "3", "--tracker", "contended", "--stall-ms", "5", "--json");
        assertEquals(0, r.status(), r.err());
        assertEquals("contended", new ObjectMapper().readTree(r.out()).get("tracker").asText());
        Cli.Result human = Cli.run("workload", "--zkey", multi.resolve("circuit.zkey").toString(), "--wtns",
                multi.resolve("witness.wtns").toString(), "--jobs", "2", "--partitions", "2", "--backend", "auto");
        assertEquals(0, human.status(), human.err());
        assertTrue(human.out().contains("4 partitions in"), human.out());
        assertTrue(human.err().contains("4/4 partitions done"), human.err());
        assertTrue(human.err().contains("backend auto: cpu"), human.err());
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
