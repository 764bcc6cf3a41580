package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The x86-ifma path's vector lanes run where the library means them to, and give the scalar
 * code's answers: {@code cuzk_lanes}, built from the same headers as the library's x86-ifma code,
 * runs a batch's Miller loop in the lanes and in the scalar affine loop (both curves, 8 to 64
 * pairs, with and without prepared ones) and BLS12-381's G1 membership checks in the lanes and one
 * point at a time. The library's own tests cannot tell this: it falls back to the scalar code
 * wherever the lanes decline, with the same answers, only slower.
 */
class LanesToolTest {
    static final Pattern LOOP = Pattern.compile("loop (\\w+) pairs (\\d+) prepared (\\d+) ran (\\d) equal (\\d) .*");
    static final Pattern G1 = Pattern.compile("g1 runs (\\d+) good (\\d+) passed_good (\\d+) accepted_bad (\\d+) mismatches (\\d+) .*");

    @Test
    void theLanesRunAndEqualTheScalarCode() throws IOException, InterruptedException {
        boolean x86 = System.getProperty("os.arch").matches("amd64|x86_64");
        assumeTrue(x86, "the lanes are AVX-512 IFMA code, built on x86-64 only; this is " + System.getProperty("os.arch"));
        Path tool = Path.of(System.getProperty("cuzk.lanes.tool", "../native/cuda/target/build/cuzk_lanes"));
        assertTrue(Files.isExecutable(tool), "the lanes tool " + tool.toAbsolutePath() + " is missing: build native/cuda first");
        Process p = new ProcessBuilder(tool.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        assumeTrue(!out.startsWith("skip:"), out.strip());
        List<Matcher> loops = out.lines().map(LOOP::matcher).filter(Matcher::matches).toList();
        assertEquals(20, loops.size(), out);
        for (Matcher m : loops) {
            assertEquals("1", m.group(4), "the lanes ran the loop: " + m.group(0));
            assertEquals("1", m.group(5), "the lanes' value and end points equal the scalar loop's: " + m.group(0));
        }
        Matcher g1 = out.lines().map(G1::matcher).filter(Matcher::matches).findFirst().orElseThrow(() -> new AssertionError(out));
        assertTrue(Integer.parseInt(g1.group(2)) >= 40, g1.group(0));
        assertEquals(g1.group(2), g1.group(3), "every run of points in G1 passed in the lanes: " + g1.group(0));
        assertEquals("0", g1.group(4), "no run with a point outside G1 passed: " + g1.group(0));
        assertEquals("0", g1.group(5), g1.group(0));
        // and the library's default path on this CPU is the one whose code the tool checked
        if (System.getenv("CUZK_CPU_ISA") == null) {
            assertEquals(CpuIsa.X86_IFMA, Cuzk.libraryInfo().cpuIsa(), "the default path on a CPU with AVX-512 IFMA");
        }
    }
}
