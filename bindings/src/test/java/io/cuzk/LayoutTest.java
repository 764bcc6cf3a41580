package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.internal.Checked;
import io.cuzk.internal.Structs;
import io.cuzk.internal.ffi.cuzk_abc_config;
import io.cuzk.internal.ffi.cuzk_check_result;
import io.cuzk.internal.ffi.cuzk_codec_config;
import io.cuzk.internal.ffi.cuzk_curve_info;
import io.cuzk.internal.ffi.cuzk_h;
import io.cuzk.internal.ffi.cuzk_h_config;
import io.cuzk.internal.ffi.cuzk_host_config;
import io.cuzk.internal.ffi.cuzk_library_info;
import io.cuzk.internal.ffi.cuzk_msm_config;
import io.cuzk.internal.ffi.cuzk_ntt_config;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The FFM struct layouts jextract generated against the C compiler that builds the library:
 * {@code cuzk_layout}, built from the same cuzk.h, prints every struct's sizeof and every field's
 * offsetof, so a stale generated binding (a header changed without bindings/jextract.sh) fails here.
 */
class LayoutTest {
    static Map<String, Long> c = new LinkedHashMap<>();

    @BeforeAll
    static void runLayoutTool() throws IOException, InterruptedException {
        String tool = System.getProperty("cuzk.layout.tool", "../native/cuda/target/build/cuzk_layout");
        Path p = Path.of(tool);
        assertTrue(Files.isExecutable(p), "the layout tool " + p.toAbsolutePath() + " is missing: build native/cuda first");
        Process proc = new ProcessBuilder(p.toString()).redirectErrorStream(true).start();
        String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(proc.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, proc.exitValue(), out);
        for (String line : out.split("\n")) {
            String[] kv = line.trim().split(" ");
            c.put(kv[0], Long.parseLong(kv[1]));
        }
    }

    static void compare(GroupLayout layout) {
        String name = layout.name().orElseThrow();
        assertEquals(c.get(name), layout.byteSize(), "sizeof(" + name + ")");
        int fields = 0;
        for (MemoryLayout m : layout.memberLayouts()) {
            if (m.name().isEmpty()) {
                continue; // padding
            }
            String f = name + "." + m.name().get();
            assertTrue(c.containsKey(f), "the C struct has no field " + f);
            assertEquals(c.get(f), layout.byteOffset(MemoryLayout.PathElement.groupElement(m.name().get())), "offsetof(" + f + ")");
            fields++;
        }
        long cFields = c.keySet().stream().filter(k -> k.startsWith(name + ".")).count();
        assertEquals(cFields, fields, name + ": the Java layout and the C struct have different field counts");
    }

    @Test
    void everyStructMatchesTheHeader() {
        List<GroupLayout> all = List.of(cuzk_library_info.layout(), cuzk_curve_info.layout(), cuzk_msm_config.layout(),
                cuzk_ntt_config.layout(), cuzk_codec_config.layout(), cuzk_abc_config.layout(), cuzk_h_config.layout(),
                cuzk_host_config.layout(), cuzk_check_result.layout());
        for (GroupLayout l : all) {
            compare(l);
        }
        long cStructs = c.keySet().stream().filter(k -> !k.contains(".") && !k.startsWith("CUZK_")).count(); // not the constants
        assertEquals(cStructs, all.size(), "a struct of cuzk.h has no Java layout: " + c.keySet());
    }

    /**
     * The pointer fields the typed layer writes as 64-bit words (Structs.setAddress) read back
     * through the generated AddressLayout accessors, in place; a closed segment is refused.
     */
    @Test
    void pointerFieldsRoundTrip() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment x = a.allocate(64, 8), y = a.allocate(64, 8), z = a.allocate(32, 8);
            MemorySegment abc = cuzk_abc_config.allocate(a);
            cuzk_abc_config.domain_size(abc, 7);
            Structs.setAddress(abc, cuzk_abc_config.coeffs$offset(), x);
            Structs.setAddress(abc, cuzk_abc_config.witness$offset(), y);
            assertEquals(x.address(), cuzk_abc_config.coeffs(abc).address());
            assertEquals(y.address(), cuzk_abc_config.witness(abc).address());
            assertEquals(7, cuzk_abc_config.domain_size(abc), "the neighbouring field is untouched");
            MemorySegment ntt = cuzk_ntt_config.allocate(a);
            Structs.setAddress(ntt, cuzk_ntt_config.coset_shift$offset(), z);
            assertEquals(z.address(), cuzk_ntt_config.coset_shift(ntt).address());
            Structs.setAddress(ntt, cuzk_ntt_config.coset_shift$offset(), MemorySegment.NULL);
            assertEquals(MemorySegment.NULL, cuzk_ntt_config.coset_shift(ntt));
            Arena gone = Arena.ofConfined();
            MemorySegment closed = gone.allocate(8);
            gone.close();
            assertThrows(IllegalStateException.class, () -> Structs.setAddress(abc, cuzk_abc_config.coeffs$offset(), closed));
            for (MemoryLayout m : List.of(cuzk_abc_config.coeffs$layout(), cuzk_abc_config.witness$layout(),
                    cuzk_ntt_config.coset_shift$layout())) {
                assertEquals(8, m.byteSize(), "Structs writes pointers as 64-bit words");
            }
        }
    }

    /** The constants the bindings name have the header's values. */
    @Test
    void constantsMatchTheHeader() {
        assertEquals(c.get("CUZK_ABI_VERSION"), (long) cuzk_h.CUZK_ABI_VERSION());
        assertEquals(c.get("CUZK_H_PREPARE"), (long) cuzk_h.CUZK_H_PREPARE());
        assertEquals(c.get("CUZK_H_CANONICAL"), (long) cuzk_h.CUZK_H_CANONICAL());
    }

    /** The curve sizes Java assumes are those the library reports. */
    @Test
    void curveSizesMatchTheLibrary() {
        try (Arena a = Arena.ofConfined()) {
            for (Curve curve : Curve.values()) {
                MemorySegment info = cuzk_curve_info.allocate(a);
                Checked.check(cuzk_h.cuzk_get_curve_info(curve.id(), info), "cuzk_get_curve_info");
                assertEquals(curve.fpBytes(), cuzk_curve_info.fp_bytes(info));
                assertEquals(Curve.SCALAR_BYTES, cuzk_curve_info.fr_bytes(info));
                assertEquals(curve.pointBytes(Group.G1), cuzk_curve_info.g1_affine_bytes(info));
                assertEquals(curve.pointBytes(Group.G2), cuzk_curve_info.g2_affine_bytes(info));
                assertEquals(curve.twoAdicity(), cuzk_curve_info.fr_two_adicity(info));
                assertEquals(curve.r().bitLength(), cuzk_curve_info.fr_bits(info));
                assertEquals(curve.p().bitLength(), cuzk_curve_info.fp_bits(info));
            }
        }
    }
}
