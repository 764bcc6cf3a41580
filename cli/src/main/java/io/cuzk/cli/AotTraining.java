package io.cuzk.cli;

import java.io.ByteArrayInputStream;
import java.nio.file.Path;

/**
 * The training run of bin/cuzk's ahead-of-time cache (cli/pom.xml runs it at package time with
 * -XX:AOTCacheOutput): the commands a user starts most, in one JVM, so that the cache holds the
 * classes, linked call sites and profiles of each one's start (a path the training never took
 * costs a command its class loading and its first string concatenations and lambdas, about
 * 10-20 ms). Arguments: the installation's root, a scratch folder, and the file to write the
 * JDK's home into: the cache holds only for the JDK it was made with, so bin/cuzk prefers that one
 * when JAVA_HOME does not name another. A fourth argument, {@code verify}, trains the cache of the
 * snarkjs-file commands instead (after the proving training, whose proof it reads); {@code witness}
 * trains the cache of wtns calculate on the sample's circuit.wasm and input.json as loaded from the
 * cache of compiled circuits (run it with -Dcuzk.witness.cache in the scratch folder).
 */
public final class AotTraining {
    private AotTraining() {}

    public static void main(String[] args) throws java.io.IOException {
        Path sample = Path.of(args[0]).resolve(SampleCommand.SAMPLE);
        Path out = Path.of(args[1]);
        String zkey = sample.resolve("circuit.zkey").toString(), wtns = sample.resolve("witness.wtns").toString();
        // "verify": the snarkjs-file commands' own cache (bin/cuzk gives it to verify and the exports),
        // on the proof the proving training left in the scratch folder
        boolean verify = args.length > 3 && args[3].equals("verify");
        boolean witness = args.length > 3 && args[3].equals("witness");
        String wasm = sample.resolve("circuit.wasm").toString(), input = sample.resolve("input.json").toString();
        String[][] runs = witness ? new String[][] {
            {"wtns", "calculate", wasm, input, out.resolve("witness.wtns").toString()},
        } : verify ? new String[][] {
            {"verify", sample.resolve("verification_key.json").toString(), out.resolve("public.json").toString(),
                out.resolve("proof.json").toString()},
            {"verify", sample.resolve("verification_key.json").toString(), out.resolve("public.json").toString(),
                out.resolve("proof.json").toString(), out.resolve("public.json").toString(), out.resolve("proof.json").toString()},
            {"export-calldata", out.resolve("public.json").toString(), out.resolve("proof.json").toString()},
        } : new String[][] {
            {"sample", "--out", out.toString()},
            {"prove", zkey, wtns, out.resolve("proof.json").toString(), out.resolve("public.json").toString()},
            {"prove", "-q", zkey, wtns, out.resolve("proof.json").toString(), out.resolve("public.json").toString()},
        };
        if (witness) {
            // a circuit's later loads, from the cache of compiled circuits, are what the cache is for:
            // a child JVM compiles the sample's circuit into it first, so that this run loads it
            // from there and Chicory's compiler (needed only by a circuit's first load) stays out
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Dcuzk.witness.cache=" + System.getProperty("cuzk.witness.cache"), "-Dcuzk.library.path="
                    + System.getProperty("cuzk.library.path"), "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                    "wtns", "calculate", wasm, input, out.resolve("witness.wtns").toString()).inheritIO();
            pb.environment().remove("JAVA_TOOL_OPTIONS"); // the AOT flags the JDK passes its assembly step
            try {
                int status = pb.start().waitFor();
                if (status != 0) {
                    System.err.println("AOT training: the circuit's first load exited with " + status);
                    System.exit(status);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                System.exit(1);
            }
        }
        for (String[] run : runs) {
            int status = Main.run(run, new ByteArrayInputStream(new byte[0]), System.out, System.err);
            if (status != Main.OK) {
                System.err.println("AOT training: cuzk " + String.join(" ", run) + " exited with " + status);
                System.exit(status);
            }
        }
        Main.needsShutdownHooks(); // what Main.exit asks, so that its classes are in the cache too
        java.nio.file.Files.writeString(Path.of(args[2]), System.getProperty("java.home") + "\n");
        // halt, as the commands end (Main.exit): System.exit would look up Runtime.exit's logger,
        // and the logging and service-loading classes that pulls in would join the cache, which
        // every start then maps and loads (the cache is written all the same)
        Runtime.getRuntime().halt(0);
    }
}
