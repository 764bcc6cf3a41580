package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Curve;
import io.cuzk.api.CuzkClient;
import io.cuzk.api.v1.JobResult;
import io.cuzk.api.v1.KeyInfo;
import io.cuzk.api.v1.PartitionProof;
import io.cuzk.api.v1.Priority;
import io.cuzk.groth16.Groth16Verifier;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.VerificationKey;
import io.cuzk.server.CuzkServer;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon takes circom's input.json instead of witnesses for a key whose circuit (NAME.wasm)
 * lies next to it: it calculates the witnesses, proves, and the proofs verify with snarkjs; bad
 * input refuses the job naming the partition and the signal; a key without a circuit says so.
 */
class DaemonInputsTest {
    @TempDir
    Path keys;

    @Test
    void proofsFromInputJson() throws Exception {
        Path multi = Circuits.dir(Curve.BLS12_381, "multi_main");
        Files.copy(multi.resolve("circuit.zkey"), keys.resolve("multi.zkey"));
        Files.copy(multi.resolve("multi_main_js/multi_main.wasm"), keys.resolve("multi.wasm"));
        Files.copy(Circuits.dir(Curve.BN254, "chain_main").resolve("circuit.zkey"), keys.resolve("chain.zkey"));
        String input = WitnessCalculatorTest.input("multi_main");
        String other = "{\"p\": [\"4\", \"6\", \"10\"], \"s\": [\"7\", \"11\", \"13\"]}";
        try (CuzkServer s = CuzkServer.builder().inProcess("cuzk-inputs").keys(keys).start();
                CuzkClient c = CuzkClient.of(InProcessChannelBuilder.forName("cuzk-inputs").build(), null)) {
            Map<String, KeyInfo> listed = c.keys().stream().collect(Collectors.toMap(KeyInfo::getName, k -> k));
            assertTrue(listed.get("multi").getHasCircuit());
            assertTrue(!listed.get("chain").getHasCircuit());

            CuzkClient.Submitted job = c.submitInputs("multi", List.of(input, other, input), Priority.PRIORITY_NORMAL, null);
            JobResult r = c.await(job.jobId(), Duration.ofMinutes(2));
            assertEquals(3, r.getProofsCount());
            VerificationKey vk = VerificationKey.read(multi.resolve("verification_key.json"));
            for (int i = 0; i < 3; i++) {
                PartitionProof p = r.getProofs(i);
                assertTrue(Groth16Verifier.verify(vk, Proof.parse("proof " + i, p.getProofJson(), "public " + i, p.getPublicJson())), "" + i);
            }
            // the second input's public signals are its own (p = 4, 6, 10): the witness came from it
            assertTrue(r.getProofs(1).getPublicJson().contains("\"4\"") && r.getProofs(1).getPublicJson().contains("\"10\""),
                    r.getProofs(1).getPublicJson());
            Path proof = keys.resolve("p.json"), pub = keys.resolve("pub.json");
            Files.writeString(proof, r.getProofs(1).getProofJson());
            Files.writeString(pub, r.getProofs(1).getPublicJson());
            Node.Result v = Node.snarkjs("groth16", "verify", multi.resolve("verification_key.json").toString(), pub.toString(),
                    proof.toString());
            assertTrue(v.out().contains("OK!"), v.out() + v.err());

            // several provers sending inputs for the key at once: calculated side by side, each right
            List<java.util.concurrent.CompletableFuture<JobResult>> jobs = new java.util.ArrayList<>();
            for (int j = 0; j < 6; j++) {
                jobs.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> c.submitInputs("multi", List.of(other, input),
                        Priority.PRIORITY_NORMAL, null)).thenCompose(sub -> c.awaitAsync(sub.jobId())));
            }
            for (java.util.concurrent.CompletableFuture<JobResult> f : jobs) {
                JobResult each = f.get(2, java.util.concurrent.TimeUnit.MINUTES);
                assertEquals(r.getProofs(1).getPublicJson(), each.getProofs(0).getPublicJson());
                assertEquals(r.getProofs(0).getPublicJson(), each.getProofs(1).getPublicJson());
                for (PartitionProof p : each.getProofsList()) {
                    assertTrue(Groth16Verifier.verify(vk, Proof.parse("proof", p.getProofJson(), "public", p.getPublicJson())));
                }
            }

            StatusRuntimeException bad = assertThrows(StatusRuntimeException.class, () -> c.submitInputs("multi",
                    List.of(input, "{\"p\": [\"2\", \"3\"], \"s\": [\"7\", \"11\", \"13\"]}"), Priority.PRIORITY_NORMAL, null));
            assertEquals(Status.Code.INVALID_ARGUMENT, bad.getStatus().getCode());
            assertTrue(bad.getStatus().getDescription().contains("input of partition 1: input signal p: 2 values given"),
                    bad.getStatus().getDescription());

            StatusRuntimeException none = assertThrows(StatusRuntimeException.class,
                    () -> c.submitInputs("chain", List.of("{\"a\": \"3\", \"b\": \"5\"}"), Priority.PRIORITY_NORMAL, null));
            assertEquals(Status.Code.FAILED_PRECONDITION, none.getStatus().getCode());
            assertTrue(none.getStatus().getDescription().contains("has no circuit"), none.getStatus().getDescription());
            // the daemon is unharmed: the next job proves
            assertEquals(1, c.await(c.submitInputs("multi", List.of(input), Priority.PRIORITY_HIGH, "again").jobId(),
                    Duration.ofMinutes(2)).getProofsCount());
        }
    }
}
