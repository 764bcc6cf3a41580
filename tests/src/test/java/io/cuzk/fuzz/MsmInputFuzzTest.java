package io.cuzk.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.cuzk.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@code cuzk msm}'s input on fuzzed text (seeds: the Ethereum test vectors' MSM inputs). The first
 * byte picks the curve, group and encoding; the rest is the standard input. The command must end
 * with 0 (and print a sum) or 1 (and print one line saying what is wrong), never 3 (an internal
 * error) or an exception.
 */
class MsmInputFuzzTest {
    static final String[][] TARGETS = {{"bn254", "g1"}, {"bn254", "g2"}, {"bls12-381", "g1"}, {"bls12-381", "g2"}};

    @FuzzTest(maxDuration = "15s")
    void msm(byte[] data) {
        if (data.length == 0) {
            return;
        }
        String[] t = TARGETS[data[0] & 3];
        String encoding = (data[0] & 4) != 0 ? "native" : "ethereum";
        byte[] stdin = Arrays.copyOfRange(data, 1, data.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int status = Main.run(new String[] {"msm", "--curve", t[0], "--group", t[1], "--encoding", encoding, "--threads", "1"},
                new ByteArrayInputStream(stdin), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String said = err.toString(StandardCharsets.UTF_8);
        if (status == 0 ? out.size() == 0 : status != 1 || said.strip().lines().count() != 1) {
            throw new AssertionError("status " + status + ", said: " + said + out.toString(StandardCharsets.UTF_8));
        }
    }
}
