package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.cuzk.internal.cuzk_cuda_h;
import io.cuzk.internal.cuzk_h;
import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The hand-written function bindings against cuzk.h, as jextract would check them: every
 * function the header exports has a binding whose descriptor has the C signature's shape (a
 * 32-bit integer for uint32_t, int32_t and cuzk_status_t, a 64-bit one for uint64_t, an address
 * for every pointer). A binding with its arguments in another order or of another width would
 * pass garbage to the library without any error; this is what catches it.
 */
class SignatureTest {
    static final Pattern DECLARATION = Pattern.compile("CUZK_API\\s+([^;{]*?)\\b(cuzk_\\w+)\\s*\\(([^)]*)\\)\\s*;");

    @Test
    void everyExportedFunctionIsBoundWithItsCSignature() throws IOException {
        String header = Files.readString(Path.of(System.getProperty("cuzk.header", "../native/cuda/include/cuzk/cuzk.h")));
        Matcher m = DECLARATION.matcher(header.replaceAll("/\\*.*?\\*/", " ").replaceAll("\\s+", " "));
        int checked = 0;
        while (m.find()) {
            String name = m.group(2);
            FunctionDescriptor bound = descriptor(name);
            List<MemoryLayout> args = new ArrayList<>();
            String params = m.group(3).trim();
            if (!params.equals("void") && !params.isEmpty()) {
                for (String p : params.split(",")) {
                    args.add(layoutOf(p.trim().replaceAll("\\s*\\b\\w+$", ""), name));
                }
            }
            String ret = m.group(1).trim();
            FunctionDescriptor expected = ret.equals("void") ? FunctionDescriptor.ofVoid(args.toArray(MemoryLayout[]::new))
                    : FunctionDescriptor.of(layoutOf(ret, name), args.toArray(MemoryLayout[]::new));
            assertEquals(shape(expected), shape(bound), name + ": the binding's descriptor differs from the header's " + m.group());
            checked++;
        }
        assertTrue(checked >= 25, "found only " + checked + " declarations in the header (it has about 30)");
    }

    /** The carrier types: what decides how an argument travels. */
    static List<String> shape(FunctionDescriptor d) {
        List<String> s = new ArrayList<>();
        s.add(d.returnLayout().map(SignatureTest::carrier).orElse("void"));
        d.argumentLayouts().forEach(l -> s.add(carrier(l)));
        return s;
    }

    static String carrier(MemoryLayout l) {
        return ((ValueLayout) l).carrier().getSimpleName() + "/" + l.byteSize();
    }

    static MemoryLayout layoutOf(String cType, String function) {
        String t = cType.replace("const ", "").trim();
        if (t.endsWith("*")) {
            return ValueLayout.ADDRESS;
        }
        return switch (t) {
            case "uint32_t", "int32_t", "cuzk_status_t" -> ValueLayout.JAVA_INT;
            case "uint64_t", "int64_t" -> ValueLayout.JAVA_LONG;
            default -> throw new AssertionError(function + ": no rule for the C type '" + t + "'");
        };
    }

    static FunctionDescriptor descriptor(String name) {
        for (Class<?> holder : new Class<?>[] {cuzk_h.class, cuzk_cuda_h.class}) {
            try {
                Method m = holder.getMethod(name + "$descriptor");
                return (FunctionDescriptor) m.invoke(null);
            } catch (NoSuchMethodException e) {
                // try the next holder
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new AssertionError(name + "$descriptor could not be called", e);
            }
        }
        return fail("cuzk.h exports " + name + " but neither cuzk_h nor cuzk_cuda_h binds it");
    }
}
