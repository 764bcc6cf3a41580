package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * The host's variable-time inversion (the CPU MSM's) against Fermat's (the GPU's) on 5,000
 * values per field and the edge cases of its bulk steps: {@code cuzk_inversion}, built from the
 * same field.hpp as the library, reports the values on which they differ or x * x^-1 is not 1.
 */
class InversionToolTest {
    static final Pattern LINE = Pattern.compile("(\\w+) values (\\d+) mismatches (\\d+).*");

    @Test
    void divstepsEqualFermatOnEveryField() throws IOException, InterruptedException {
        Path tool = Path.of(System.getProperty("cuzk.inversion.tool", "../native/cuda/target/build/cuzk_inversion"));
        assertTrue(Files.isExecutable(tool), "the inversion tool " + tool.toAbsolutePath() + " is missing: build native/cuda first");
        Process p = new ProcessBuilder(tool.toString(), "5000").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        List<String> seen = out.lines().map(LINE::matcher).filter(Matcher::matches).map(m -> {
            assertEquals("0", m.group(3), m.group(0));
            assertTrue(Integer.parseInt(m.group(2)) >= 500, m.group(0));
            return m.group(1);
        }).toList();
        assertEquals(List.of("bn254_fp", "bn254_fr", "bls12_381_fp", "bls12_381_fr", "bn254_fp2", "bls12_381_fp2"), seen, out);
    }
}
