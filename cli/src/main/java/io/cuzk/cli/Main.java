package io.cuzk.cli;

import io.cuzk.CuzkException;
import io.cuzk.InvalidPointException;
import io.cuzk.NativeLibraryException;
import io.cuzk.groth16.FormatException;
import io.cuzk.internal.NativeLibrary;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Set;
import jdk.jfr.FlightRecorder;

/**
 * The {@code cuzk} command. Without arguments it runs its default job (proving the bundled sample); each
 * subcommand documents its options under {@code cuzk help}.
 *
 * <p>Exit status: 0 success, 1 invalid input, 2 usage error, 3 a native or internal failure.
 */
public final class Main {
    static final int OK = 0;
    static final int BAD_INPUT = 1;
    static final int USAGE = 2;
    static final int FAILURE = 3;

    private Main() {}

    public static void main(String[] args) {
        int status = run(args, System.in, System.out, System.err);
        System.out.flush();
        System.err.flush();
        exit(status);
    }

    /**
     * Ends the process once the command's output is flushed. System.exit first looks up the logger
     * of Runtime.exit, which scans every jar on the class path for logging services (15-20 ms of a
     * 0.35 s prove command on 2 cores), and then runs the shutdown hooks. Without hooks that have
     * work to do the command needs neither and halts; the hooks that do are the deletion of
     * temporary copies of the native libraries and a flight recording's dump.
     */
    static void exit(int status) {
        if (NativeLibrary.deletesFilesOnExit() || flightRecording()) {
            System.exit(status);
        }
        Runtime.getRuntime().halt(status);
    }

    private static boolean flightRecording() {
        try {
            return FlightRecorder.isInitialized();
        } catch (LinkageError e) {
            return false; // a runtime image without jdk.jfr records nothing
        }
    }

    /** Runs one command; returns the exit status. */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        String command = args.length == 0 ? "sample" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        try {
            return switch (command) {
                case "sample" -> SampleCommand.run(Options.parse(rest, SampleCommand.OPTIONS), out);
                case "msm-demo" -> DemoCommand.run(Options.parse(rest, DemoCommand.OPTIONS), out);
                case "msm" -> MsmCommand.run(Options.parse(rest, MsmCommand.OPTIONS), in, out);
                case "prove" -> ProveCommand.run(Options.parse(rest, ProveCommand.OPTIONS, 4), out);
                case "workload" -> WorkloadCommand.run(Options.parse(rest, WorkloadCommand.OPTIONS, 0, Set.of("wtns"), Set.of("json")), out,
                        err);
                case "info" -> InfoCommand.run(Options.parse(rest, InfoCommand.OPTIONS), out);
                case "gpu-bench" -> GpuBenchCommand.run(Options.parse(rest, GpuBenchCommand.OPTIONS), out);
                case "help", "--help", "-h" -> {
                    out.print(usage());
                    yield OK;
                }
                default -> throw new UsageException("unknown command '" + command + "'");
            };
        } catch (UsageException e) {
            err.println("cuzk: " + e.getMessage());
            err.print(usage());
            return USAGE;
        } catch (InvalidInputException | InvalidPointException | FormatException e) {
            err.println("cuzk " + command + ": " + e.getMessage());
            return BAD_INPUT;
        } catch (IllegalArgumentException e) {
            err.println("cuzk " + command + ": " + e.getMessage());
            return BAD_INPUT;
        } catch (UncheckedIOException e) {
            err.println("cuzk " + command + ": " + e.getCause().getMessage());
            return BAD_INPUT;
        } catch (NativeLibraryException e) {
            err.println(e.getMessage());
            return FAILURE;
        } catch (CuzkException e) {
            err.println("cuzk " + command + ": " + e.getMessage());
            return FAILURE;
        }
    }

    static String usage() {
        return """
                usage: cuzk [command] [options]

                commands:
                  sample (the default) proves the bundled sample (Poseidon on BN254) into out/proof.json and
                         out/public.json and prints the snarkjs command that verifies them
                         [--out DIR]  [--threads N]
                  prove  <circuit.zkey> <witness.wtns> <proof.json> <public.json>  [--backend cpu|cuda|auto] [--device D] [--threads N]
                         a Groth16 proof from snarkjs files, written as snarkjs writes it (same arguments as
                         snarkjs groth16 prove and rapidsnark); verify it with snarkjs groth16 verify
                  workload  --zkey Z --wtns W [--wtns W2 ...] --jobs N --partitions P [--workers-per-device K]
                         [--backend cpu|cuda|auto] [--tracker lockfree|contended] [--stall-ms MS] [--json] [--out DIR]
                         [--synthesis-workers S] [--budget-mib M] [--priorities normal|mixed]
                         runs N jobs of P partitions through the proving engine and reports device utilization,
                         idle gaps while work waited, chains, throughput and peak memory (JSON with --json)
                  msm    reads concatenated (point, scalar) pairs as hex on stdin, prints the encoded sum as hex
                         --curve bn254|bls12-381  --group g1|g2  [--encoding ethereum|native]  [--threads N]
                         ethereum: EIP-2537 for bls12-381 (128-byte G1, 256-byte G2), EIP-196/197 for bn254
                         (64-byte G1, 128-byte G2); scalars are 32-byte big-endian. native: snarkjs's little-endian
                         Montgomery layout, 32-byte little-endian scalars.
                  msm-demo  an MSM on generated points, checked against a known answer
                         --curve bn254|bls12-381 (bls12-381)  --group g1|g2 (g1)  --log-size K (16)  --threads N (0 = all)
                  gpu-bench  [--curve C] [--msm 20,22,24] [--ntt 20,24] [--runs R] [--device D]
                         G1 MSMs and NTTs on a GPU timed with CUDA events (inputs on the device), each size
                         after the first checked against the CPU backend at the first size
                  info   the native library: version, build, threads
                  help   this text

                exit status: 0 success, 1 invalid input, 2 usage error, 3 native or internal failure
                """;
    }
}
