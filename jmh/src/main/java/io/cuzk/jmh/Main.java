package io.cuzk.jmh;

import io.cuzk.BackendChoice;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmarks' entry point: JMH's, except that where no CUDA device is usable the GPU benchmarks
 * are excluded, with one line saying why, instead of failing in their set-up.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        List<String> a = new ArrayList<>(List.of(args));
        BackendChoice choice = BackendChoice.auto();
        if (choice.fallbackReason() != null) {
            System.out.println("# GPU benchmarks skipped: " + choice.fallbackReason());
            a.add("-e");
            a.add("GpuBenchmark");
        }
        org.openjdk.jmh.Main.main(a.toArray(String[]::new));
    }
}
