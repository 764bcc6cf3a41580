package com.example.prover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Backend;
import io.cuzk.Codec;
import io.cuzk.Curve;
import io.cuzk.Encoding;
import io.cuzk.Group;
import io.cuzk.NttKind;
import io.cuzk.Point;
import io.cuzk.PointVector;
import io.cuzk.Points;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import io.cuzk.engine.Config;
import io.cuzk.engine.Engine;
import io.cuzk.engine.EngineStatus;
import io.cuzk.engine.Job;
import io.cuzk.engine.JobHandle;
import io.cuzk.engine.Priority;
import io.cuzk.groth16.Groth16Prover;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The README's Java examples, run by a project that depends on cuzk-java through its BOM (their
 * bodies are the README's lines: cuzk-java's build checks that they match). The proofs are checked
 * by snarkjs, the reference verifier of the files they are made from.
 */
class ReadmeExamplesTest {
    static final Path SAMPLE = Path.of(System.getProperty("cuzk.sample.dir"));
    static final Path NODE = Path.of(System.getProperty("cuzk.node.dir"));

    @Test
    void theApiExample() {
        // 1·G, 2·G, 3·G in EIP-2537 encoding (128 bytes each), as a user would hold them
        Point g = Points.generator(Curve.BLS12_381, Group.G1);
        byte[] encoded = new byte[3 * 128];
        for (int i = 0; i < 3; i++) {
            System.arraycopy(Points.multiply(g, BigInteger.valueOf(i + 1)).encode(Encoding.EIP2537), 0, encoded, 128 * i, 128);
        }
        try (Arena arena = Arena.ofConfined()) {
            // untrusted points: decode with every check (canonical, on the curve, in the subgroup)
            MemorySegment src = arena.allocate(encoded.length);
            MemorySegment.copy(MemorySegment.ofArray(encoded), 0, src, 0, encoded.length);
            PointVector bases = Codec.decodePoints(arena, Curve.BLS12_381, Group.G1, Encoding.EIP2537, src);

            ScalarVector scalars = ScalarVector.allocate(arena, Curve.BLS12_381, bases.size(), ScalarForm.CANONICAL);
            for (long i = 0; i < scalars.size(); i++) {
                scalars.set(i, BigInteger.valueOf(10 + i));
            }
            Point sum = Backend.cpu().msm(bases, scalars); // all hardware threads
            byte[] result = sum.encode(Encoding.EIP2537);

            ScalarVector poly = ScalarVector.allocate(arena, Curve.BN254, 1 << 16, ScalarForm.MONTGOMERY);
            poly.set(1, BigInteger.ONE); // the polynomial x
            Backend.cpu(2).ntt(poly, NttKind.FORWARD); // in place, natural order: x at every 2^16-th root of unity

            // 10·1G + 11·2G + 12·3G = 68·G
            assertEquals(Points.multiply(g, BigInteger.valueOf(68)), sum);
            assertEquals(128, result.length);
            assertEquals(BigInteger.ONE, poly.get(0), "x at the first root, 1");
        }
    }

    @Test
    void theGroth16Example() throws Exception {
        Path zkey = SAMPLE.resolve("circuit.zkey"), wtns = SAMPLE.resolve("witness.wtns");
        try (ProvingKey key = ProvingKey.read(zkey);                       // memory-mapped, checked
             Witness witness = Witness.read(wtns)) {
            Proof proof = new Groth16Prover().prove(key, witness);          // CPU backend, SecureRandom r and s
            proof.write(Path.of("proof.json"), Path.of("public.json"));
        }
        snarkjsVerifies(Path.of("proof.json"), Path.of("public.json"));
    }

    @Test
    void theEngineExample() throws Exception {
        Path zkey = SAMPLE.resolve("circuit.zkey"), w0 = SAMPLE.resolve("witness.wtns"), w1 = w0;
        try (Engine engine = Engine.start(Config.builder().workersPerDevice(2).build())) {
            JobHandle job = engine.submit(Job.ofFiles(zkey, List.of(w0, w1), Priority.HIGH));
            List<Proof> proofs = job.await(Duration.ofMinutes(5));       // one per partition
            EngineStatus status = engine.status();                       // immutable snapshot, never blocks workers

            assertEquals(2, proofs.size());
            assertEquals(2, status.counters().partitionsDone());
            for (int i = 0; i < proofs.size(); i++) {
                Path proof = Path.of("engine-" + i + "-proof.json"), pub = Path.of("engine-" + i + "-public.json");
                proofs.get(i).write(proof, pub);
                snarkjsVerifies(proof, pub);
            }
        }
    }

    /** snarkjs groth16 verify, from the npm packages cuzk-java's build installed. */
    static void snarkjsVerifies(Path proof, Path pub) throws Exception {
        Path cli = NODE.resolve("node_modules/snarkjs/build/cli.cjs");
        assertTrue(Files.isRegularFile(cli), "snarkjs is not installed at " + cli + ": run npm install in " + NODE);
        List<String> cmd = new ArrayList<>(List.of("node", cli.toString(), "groth16", "verify",
                SAMPLE.resolve("verification_key.json").toString(), pub.toAbsolutePath().toString(), proof.toAbsolutePath().toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "snarkjs timed out");
        assertTrue(out.contains("OK!"), "snarkjs did not accept the proof: " + out);
    }
}
