package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cuzk.Curve;
import io.cuzk.engine.Config;
import io.cuzk.server.CuzkServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line as a daemon's client, against a daemon on 127.0.0.1 that self-checks its proofs:
 * prove --server sends circom's input.json as well as a witness; a proof its self-check refuses is
 * exit 1 (the witness, as a rule), locally as on the daemon; workload --server keeps the jobs that
 * succeeded (their proofs in --out, verified here), reports each failed one, and refuses the options
 * that set an engine in this process instead of ignoring them.
 */
class DaemonClientCliTest {
    @TempDir
    Path tmp;

    @Test
    void inputsSelfCheckAndWorkloadThroughTheDaemon() throws Exception {
        Path dir = Circuits.dir(Curve.BN254, "chain_main");
        Path keys = Files.createDirectories(tmp.resolve("keys"));
        Files.copy(dir.resolve("circuit.zkey"), keys.resolve("chain.zkey"));
        Files.copy(dir.resolve("chain_main_js/chain_main.wasm"), keys.resolve("chain.wasm"));
        Files.copy(dir.resolve("circuit.zkey"), keys.resolve("nowasm.zkey")); // a key without a circuit
        Path vk = dir.resolve("verification_key.json"), good = dir.resolve("witness.wtns");
        // a witness that does not satisfy the circuit: its last value changed (still below r)
        byte[] w = Files.readAllBytes(good);
        w[w.length - 32] ^= 1;
        Path bad = Files.write(tmp.resolve("bad.wtns"), w);
        Path input = Files.writeString(tmp.resolve("input.json"), WitnessCalculatorTest.input("chain_main"));
        try (CuzkServer s = CuzkServer.builder().keys(keys).listen("127.0.0.1", 0).engine(Config.builder().selfCheck(true).build())
                .start()) {
            String server = "127.0.0.1:" + s.port();
            // input.json to the daemon: the proof of fullprove's witness, valid
            Path proof = tmp.resolve("proof.json"), pub = tmp.resolve("public.json");
            Cli.Result fromInput = Cli.run("prove", "-q", "--server", server, "chain", input.toString(), proof.toString(), pub.toString());
            assertEquals(0, fromInput.status(), fromInput.err());
            assertEquals(0, Cli.run("verify", vk.toString(), pub.toString(), proof.toString()).status());
            Path localProof = tmp.resolve("local-proof.json"), localPub = tmp.resolve("local-public.json");
            assertEquals(0, Cli.run("fullprove", "-q", input.toString(), dir.resolve("chain_main_js/chain_main.wasm").toString(),
                    dir.resolve("circuit.zkey").toString(), localProof.toString(), localPub.toString()).status());
            assertEquals(Files.readString(localPub), Files.readString(pub), "the same public signals as fullprove here");
            // input that does not fit the circuit: exit 1, the partition and the signal named
            Path wrong = Files.writeString(tmp.resolve("wrong.json"), "{\"a\": \"3\"}");
            Cli.Result refused = Cli.run("prove", "-q", "--server", server, "chain", wrong.toString(), proof.toString(), pub.toString());
            assertEquals(1, refused.status(), refused.err());
            assertTrue(refused.err().contains("INVALID_ARGUMENT: input of partition 0: "), refused.err());

            // input for a key the daemon has no circuit for: the daemon's state, not the input (exit 3)
            Cli.Result noCircuit = Cli.run("prove", "-q", "--server", server, "nowasm", input.toString(), proof.toString(), pub.toString());
            assertEquals(3, noCircuit.status(), noCircuit.err());
            assertTrue(noCircuit.err().contains("FAILED_PRECONDITION") && noCircuit.err().contains("has no circuit"), noCircuit.err());
            // the self-check refuses the bad witness's proof: exit 1 on the daemon and here, the partition named
            Cli.Result remote = Cli.run("prove", "-q", "--server", server, "chain", bad.toString(), proof.toString(), pub.toString());
            assertEquals(1, remote.status(), remote.err());
            assertTrue(remote.err().contains("failed: partition 0: its proof does not verify against chain.zkey (self-check")
                    && !remote.err().contains("internal error") && !remote.err().contains(keys.toString()), remote.err());
            // the same through the Java client's one-call prove: JobFailedException with the self-check's kind, as Run and Await say it
            try (io.cuzk.api.CuzkClient c = io.cuzk.api.CuzkClient.builder(server).build()) {
                io.cuzk.api.CuzkClient.JobFailedException f = org.junit.jupiter.api.Assertions.assertThrows(
                        io.cuzk.api.CuzkClient.JobFailedException.class,
                        () -> c.prove("chain", List.of(w), io.cuzk.api.v1.Priority.PRIORITY_NORMAL, java.time.Duration.ofMinutes(2)));
                assertEquals(io.cuzk.api.v1.FailureKind.FAILURE_KIND_SELF_CHECK, f.failure());
                assertEquals(io.cuzk.api.v1.JobState.JOB_STATE_FAILED, f.state());
                assertTrue(f.getMessage().startsWith("job " + f.jobId() + " failed: partition 0: its proof does not verify against chain.zkey"),
                        f.getMessage());
                Throwable async = org.junit.jupiter.api.Assertions.assertThrows(java.util.concurrent.ExecutionException.class,
                        () -> c.proveAsync("chain", List.of(w), io.cuzk.api.v1.Priority.PRIORITY_NORMAL, java.time.Duration.ofMinutes(2))
                                .get(2, java.util.concurrent.TimeUnit.MINUTES)).getCause();
                assertTrue(async instanceof io.cuzk.api.CuzkClient.JobFailedException j
                        && j.failure() == io.cuzk.api.v1.FailureKind.FAILURE_KIND_SELF_CHECK, String.valueOf(async));
            }
            Cli.Result local = Cli.run("workload", "--zkey", dir.resolve("circuit.zkey").toString(), "--wtns", bad.toString(), "--self-check");
            assertEquals(1, local.status(), local.err());
            assertTrue(local.err().contains("job 1: partition 0: its proof does not verify") && !local.err().contains("internal error"),
                    local.err());

            // workload --server: jobs 2 and 4 take the bad witness and fail; 1 and 3 are kept, their proofs written
            Path out = tmp.resolve("out");
            Cli.Result mixed = Cli.run("workload", "--server", server, "--zkey", "chain", "--wtns", good.toString(), "--wtns", bad.toString(),
                    "--jobs", "4", "--json", "--out", out.toString());
            assertEquals(1, mixed.status(), mixed.out() + mixed.err());
            JsonNode report = new ObjectMapper().readTree(mixed.out());
            assertEquals(2, report.get("partitions").asInt(), mixed.out());
            assertEquals(2, report.get("failedJobs").size(), mixed.out());
            assertEquals(2, report.get("failedJobs").get(0).get("job").asInt());
            assertEquals(4, report.get("failedJobs").get(1).get("job").asInt());
            assertTrue(report.get("failedJobs").get(0).get("message").asText().contains("self-check"), mixed.out());
            for (int job : new int[] {1, 3}) {
                assertEquals(0, Cli.run("verify", vk.toString(), out.resolve("job-" + job + "-partition-0-public.json").toString(),
                        out.resolve("job-" + job + "-partition-0-proof.json").toString()).status(), "job " + job);
            }
            assertFalse(Files.exists(out.resolve("job-2-partition-0-proof.json")), "no proof for a failed job");
            for (List<String> option : List.of(List.of("--self-check"), List.of("--trace", tmp.resolve("t.json").toString()),
                    List.of("--backend", "cpu"))) {
                List<String> args = new java.util.ArrayList<>(List.of("workload", "--server", server, "--zkey", "chain", "--wtns",
                        good.toString()));
                args.addAll(option);
                Cli.Result r = Cli.run(args.toArray(String[]::new));
                assertEquals(2, r.status(), option + ": " + r.err());
                assertTrue(r.err().contains(option.get(0) + " sets the engine in this process, not a daemon's"), r.err());
            }
            // --progress never (a script's quiet run) holds as it is; always cannot, and says so
            Cli.Result quiet = Cli.run("workload", "--server", server, "--zkey", "chain", "--wtns", good.toString(), "--progress", "never");
            assertEquals(0, quiet.status(), quiet.err());
            Cli.Result always = Cli.run("workload", "--server", server, "--zkey", "chain", "--wtns", good.toString(), "--progress", "always");
            assertEquals(2, always.status(), always.err());
            assertTrue(always.err().contains("--progress always: with --server there is no progress line"), always.err());
        }
    }
}
