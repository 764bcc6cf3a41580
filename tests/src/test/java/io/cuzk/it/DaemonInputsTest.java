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
 * input refuses the job naming the partition and the signal; a key without a circuit, or whose
 * circuit cannot serve it (not WebAssembly, another field, another witness size), says so as the
 * daemon's own failure (FAILED_PRECONDITION), naming the key, not the daemon's paths; the limit on a
 * job's witnesses holds for the witnesses the daemon calculates.
 */
class DaemonInputsTest {
    @TempDir
    Path keys;

    @Test
    void proofsFromInputJson() throws Exception {
        Path multi = Circuits.dir(Curve.BLS12_381, "multi_main");
        Files.copy(multi.resolve("circuit.zkey"), keys.resolve("multi.zkey"));
        Files.copy(multi.resolve("multi_main_js/multi_main.wasm"), keys.resolve("multi.wasm"));
        Files.copy(multi.resolve("multi_main.sym"), keys.resolve("multi.sym")); // names an input signal left out
        Files.copy(Circuits.dir(Curve.BN254, "chain_main").resolve("circuit.zkey"), keys.resolve("chain.zkey"));
        // circuits that cannot serve their keys: of BLS12-381 beside a BN254 key, of another
        // witness size, not WebAssembly, a link (the daemon follows none, as for keys)
        // (multi's keys: one input's witness is within the daemon's limit on a job's witnesses, below)
        Path blsMulti = multi.resolve("circuit.zkey");
        Path chainWasm = Circuits.dir(Curve.BLS12_381, "chain_main").resolve("chain_main_js/chain_main.wasm");
        Files.copy(Circuits.dir(Curve.BN254, "multi_main").resolve("circuit.zkey"), keys.resolve("field.zkey"));
        Files.copy(multi.resolve("multi_main_js/multi_main.wasm"), keys.resolve("field.wasm"));
        Files.copy(blsMulti, keys.resolve("size.zkey"));
        Files.copy(chainWasm, keys.resolve("size.wasm"));
        Files.copy(blsMulti, keys.resolve("junk.zkey"));
        Files.write(keys.resolve("junk.wasm"), new byte[] {0, 'a', 's', 'm', 9, 9, 9, 9, 1, 2, 3});
        Files.copy(blsMulti, keys.resolve("link.zkey"));
        Files.createSymbolicLink(keys.resolve("link.wasm"), multi.resolve("multi_main_js/multi_main.wasm"));
        String input = WitnessCalculatorTest.input("multi_main");
        String other = "{\"p\": [\"4\", \"6\", \"10\"], \"s\": [\"7\", \"11\", \"13\"]}";
        // room for three of multi's witnesses a job, not four
        long wtnsBytes = 76 + 32L * io.cuzk.groth16.ProvingKey.shape(keys.resolve("multi.zkey")).nVars();
        try (CuzkServer s = CuzkServer.builder().inProcess("cuzk-inputs").keys(keys).maxWitnessBytes(3 * wtnsBytes + 10).start();
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

            StatusRuntimeException left = assertThrows(StatusRuntimeException.class, () -> c.submitInputs("multi",
                    List.of("{\"p\": [\"2\", \"3\", \"5\"]}"), Priority.PRIORITY_NORMAL, null));
            assertEquals(Status.Code.INVALID_ARGUMENT, left.getStatus().getCode());
            assertTrue(left.getStatus().getDescription().contains("input of partition 0: input signal s is missing from the input (3 of the "
                    + "circuit's 6 input values given)"), left.getStatus().getDescription());

            StatusRuntimeException none = assertThrows(StatusRuntimeException.class,
                    () -> c.submitInputs("chain", List.of("{\"a\": \"3\", \"b\": \"5\"}"), Priority.PRIORITY_NORMAL, null));
            assertEquals(Status.Code.FAILED_PRECONDITION, none.getStatus().getCode());
            assertTrue(none.getStatus().getDescription().contains("has no circuit"), none.getStatus().getDescription());
            String[][] unusable = {
                {"field", "key field's circuit field.wasm is not the circuit of field.zkey: its witnesses are over another field than bn254's"},
                {"size", "key size's circuit size.wasm is not the circuit of size.zkey: its witnesses have"},
                {"junk", "key junk's circuit junk.wasm cannot be used: junk.wasm: "},
                {"link", "key link's circuit link.wasm is a symbolic link, which the daemon does not follow"},
            };
            for (String[] u : unusable) {
                for (int round = 0; round < 2; round++) { // the second time from what the first found, without compiling again
                    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                            () -> c.submitInputs(u[0], List.of(input), Priority.PRIORITY_NORMAL, null));
                    assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode(), u[0] + ": " + e.getStatus().getDescription());
                    assertTrue(e.getStatus().getDescription().startsWith(u[1]), e.getStatus().getDescription());
                    assertTrue(!e.getStatus().getDescription().contains(keys.toString()), "no daemon path: " + e.getStatus().getDescription());
                }
            }
            // the circuit file mended (another size and time): compiled again, and the key serves
            Files.copy(multi.resolve("multi_main_js/multi_main.wasm"), keys.resolve("junk.wasm"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            JobResult mended = c.await(c.submitInputs("junk", List.of(input), Priority.PRIORITY_NORMAL, null).jobId(), Duration.ofMinutes(2));
            assertTrue(Groth16Verifier.verify(vk, Proof.parse("proof", mended.getProofs(0).getProofJson(), "public",
                    mended.getProofs(0).getPublicJson())));
            // a circuit replaced while the daemon serves is compiled again from the next input on
            // (here a broken one: found so, where the one compiled before went on serving), and one
            // removed is gone
            Files.write(keys.resolve("junk.wasm"), new byte[] {0, 'a', 's', 'm', 9, 9, 9, 9, 1, 2, 3, 4});
            StatusRuntimeException replaced = assertThrows(StatusRuntimeException.class,
                    () -> c.submitInputs("junk", List.of(input), Priority.PRIORITY_NORMAL, null));
            assertEquals(Status.Code.FAILED_PRECONDITION, replaced.getStatus().getCode());
            assertTrue(replaced.getStatus().getDescription().startsWith("key junk's circuit junk.wasm cannot be used"),
                    replaced.getStatus().getDescription());
            Files.copy(multi.resolve("multi_main_js/multi_main.wasm"), keys.resolve("junk.wasm"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            assertEquals(1, c.await(c.submitInputs("junk", List.of(input), Priority.PRIORITY_NORMAL, null).jobId(), Duration.ofMinutes(2))
                    .getProofsCount());
            Files.delete(keys.resolve("junk.wasm"));
            StatusRuntimeException removed = assertThrows(StatusRuntimeException.class,
                    () -> c.submitInputs("junk", List.of(input), Priority.PRIORITY_NORMAL, null));
            assertTrue(removed.getStatus().getDescription().contains("has no circuit"), removed.getStatus().getDescription());
            // the limit on a job's witnesses, for the witnesses calculated from its inputs
            StatusRuntimeException big = assertThrows(StatusRuntimeException.class,
                    () -> c.submitInputs("multi", List.of(input, input, input, input), Priority.PRIORITY_NORMAL, null));
            assertEquals(Status.Code.RESOURCE_EXHAUSTED, big.getStatus().getCode());
            assertTrue(big.getStatus().getDescription().contains("witnesses, calculated from its inputs, would take " + 4 * wtnsBytes),
                    big.getStatus().getDescription());
            // input after the object, bytes that are not UTF-8, a format no daemon knows: refused
            StatusRuntimeException trailing = assertThrows(StatusRuntimeException.class,
                    () -> c.submitInputs("multi", List.of(input + "{}"), Priority.PRIORITY_NORMAL, null));
            assertTrue(trailing.getStatus().getDescription().startsWith("input of partition 0: not JSON (more after the input object"),
                    trailing.getStatus().getDescription());
            io.grpc.ManagedChannel raw = InProcessChannelBuilder.forName("cuzk-inputs").build();
            try {
                io.cuzk.api.v1.ProverGrpc.ProverBlockingStub stub = io.cuzk.api.v1.ProverGrpc.newBlockingStub(raw);
                byte[] latin1 = (input.substring(0, input.length() - 1) + ", \"\u00e9\": 1}").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
                StatusRuntimeException notUtf8 = assertThrows(StatusRuntimeException.class, () -> stub.prove(io.cuzk.api.v1.ProveRequest
                        .newBuilder().setSpec(io.cuzk.api.v1.JobSpec.newBuilder().setKey("multi").setPartitions(1)
                                .setFormat(io.cuzk.api.v1.PartitionFormat.PARTITION_FORMAT_INPUT_JSON))
                        .addWitnesses(com.google.protobuf.ByteString.copyFrom(latin1)).build()));
                assertEquals(Status.Code.INVALID_ARGUMENT, notUtf8.getStatus().getCode());
                assertEquals("input of partition 0: not JSON: not UTF-8 text", notUtf8.getStatus().getDescription());
                StatusRuntimeException format = assertThrows(StatusRuntimeException.class, () -> stub.prove(io.cuzk.api.v1.ProveRequest
                        .newBuilder().setSpec(io.cuzk.api.v1.JobSpec.newBuilder().setKey("multi").setPartitions(1).setFormatValue(7))
                        .addWitnesses(com.google.protobuf.ByteString.copyFromUtf8(input)).build()));
                assertEquals(Status.Code.INVALID_ARGUMENT, format.getStatus().getCode());
                assertTrue(format.getStatus().getDescription().startsWith("unknown partition format 7"), format.getStatus().getDescription());
            } finally {
                raw.shutdownNow();
            }
            // the daemon is unharmed: the next job proves
            assertEquals(1, c.await(c.submitInputs("multi", List.of(input), Priority.PRIORITY_HIGH, "again").jobId(),
                    Duration.ofMinutes(2)).getProofsCount());
        }
    }
}
