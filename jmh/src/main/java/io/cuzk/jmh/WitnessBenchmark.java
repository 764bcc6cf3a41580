package io.cuzk.jmh;

import io.cuzk.witness.WitnessCalculator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * Witnesses per second from one circuit on two threads: one calculator for all (the daemon's way
 * before: one calculation of a key at a time) against a calculator per thread made from the one
 * compiled circuit (the daemon's way now). The circuit and its input default to the tests' chain
 * circuit (built by the tests module: {@code mvn -B verify -pl tests} once); run from the
 * repository's root, or give {@code -p wasm=... -p input=...}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WitnessBenchmark {
    @Param({"tests/target/circuits/bn128/chain_main/chain_main_js/chain_main.wasm"})
    public String wasm;

    /** circom's input.json: a file, or the JSON itself (the chain circuit's test input by default). */
    @Param({"{\"a\": \"3\", \"b\": \"5\"}"})
    public String input;

    private WitnessCalculator.Circuit circuit;
    private WitnessCalculator shared;
    private String json;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Path w = Path.of(wasm);
        if (!Files.isRegularFile(w)) {
            throw new IllegalStateException(wasm + " is missing: build the tests' circuits (mvn -B verify -pl tests) or give -p wasm=...");
        }
        json = input.strip().startsWith("{") ? input : Files.readString(Path.of(input));
        circuit = WitnessCalculator.Circuit.load(w);
        shared = circuit.newCalculator(line -> { });
    }

    /** A calculator of the benchmark's circuit for one thread. */
    @State(Scope.Thread)
    public static class Own {
        WitnessCalculator calculator;

        @Setup(Level.Trial)
        public void make(WitnessBenchmark b) {
            calculator = b.circuit.newCalculator(line -> { });
        }
    }

    /** The baseline: both threads share one calculator, one calculation at a time. */
    @Benchmark
    @Threads(2)
    public byte[] oneCalculator() {
        return shared.wtns(json);
    }

    /** Each thread its own calculator from the one compiled circuit. */
    @Benchmark
    @Threads(2)
    public byte[] calculatorPerThread(Own own) {
        return own.calculator.wtns(json);
    }
}
