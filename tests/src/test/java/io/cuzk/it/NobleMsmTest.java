package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cuzk.Backend;
import io.cuzk.CpuBackend;
import io.cuzk.Curve;
import io.cuzk.Encoding;
import io.cuzk.Group;
import io.cuzk.PointVector;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import io.cuzk.cli.EncodedMsm;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random and edge-case MSMs on both curves and both groups against @noble/curves, an independent
 * implementation: sizes 0 to 2^12, scalars anywhere in [0, 2^256), zero scalars, scalars at and
 * above r, points at infinity, repeated and opposite points. The inputs go through the Ethereum
 * codecs and the result comes back through them, as the msm command does.
 */
class NobleMsmTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HexFormat HEX = HexFormat.of();

    static Stream<Arguments> groups() {
        return Stream.of(Curve.values()).flatMap(c -> Stream.of(Group.values()).map(g -> Arguments.of(c, g)));
    }

    static JsonNode reference(Curve c, Group g, String seed, String... sizes) throws Exception {
        String[] args = Stream.concat(Stream.of(c.cliName(), g.name().toLowerCase(), seed), Stream.of(sizes)).toArray(String[]::new);
        return JSON.readTree(Node.run("msm_reference.mjs", args));
    }

    static byte[] pairs(JsonNode kase) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int i = 0; i < kase.get("points").size(); i++) {
            b.writeBytes(HEX.parseHex(kase.get("points").get(i).asText()));
            b.writeBytes(HEX.parseHex(kase.get("scalars").get(i).asText()));
        }
        return b.toByteArray();
    }

    static void check(Curve c, Group g, JsonNode doc, List<Backend> backends) {
        Encoding enc = Encoding.ethereum(c);
        for (JsonNode kase : doc.get("cases")) {
            String name = c.cliName() + " " + g + " " + kase.get("name").asText();
            byte[] input = pairs(kase);
            for (Backend b : backends) {
                String got = HEX.formatHex(input.length == 0 ? msmOfNothing(c, g, enc, b) : EncodedMsm.sum(c, g, enc, input, b));
                assertEquals(kase.get("expected").asText(), got, name + " on " + b.name());
            }
        }
    }

    /** The command refuses empty input (as the precompiles do), so n = 0 goes through the API directly. */
    static byte[] msmOfNothing(Curve c, Group g, Encoding enc, Backend b) {
        try (Arena a = Arena.ofConfined()) {
            return b.msm(PointVector.allocate(a, c, g, 0), ScalarVector.allocate(a, c, 0, ScalarForm.CANONICAL)).encode(enc);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("groups")
    void edgeCases(Curve c, Group g) throws Exception {
        check(c, g, reference(c, g, "7", "edge"),
                List.of(Backend.cpu(), Backend.cpu(1), new CpuBackend(2, 2), new CpuBackend(0, 5)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("groups")
    void randomSizesUpTo4096(Curve c, Group g) throws Exception {
        String[] sizes = g == Group.G1
                ? new String[] {"1", "2", "3", "5", "8", "9", "17", "64", "100", "255", "256", "1000", "1023", "4096"}
                : new String[] {"1", "2", "3", "8", "9", "17", "100", "256", "1023", "4096"};
        check(c, g, reference(c, g, "2026", sizes), List.of(Backend.cpu(), Backend.cpu(1)));
    }
}
