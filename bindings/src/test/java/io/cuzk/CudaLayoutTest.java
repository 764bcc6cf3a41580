package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cuzk.internal.ffi.cudaDeviceProp;
import java.io.IOException;
import java.lang.foreign.MemoryLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The hand-written layout of struct cudaDeviceProp against the installed CUDA 13 header: a C
 * program compiled with it (built where nvcc is) prints sizeof and every field's offsetof.
 */
class CudaLayoutTest {
    @Test
    void cudaDevicePropMatchesTheHeader() throws IOException, InterruptedException {
        Path tool = Path.of(System.getProperty("cuzk.cuda.layout.tool", "../native/cuda/target/build/cuzk_cuda_layout"));
        assumeTrue(Files.isExecutable(tool), "the CUDA headers were not found at build time (no nvcc): " + tool + " was not built");
        Process p = new ProcessBuilder(tool.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        Map<String, Long> c = new LinkedHashMap<>();
        for (String line : out.strip().split("\n")) {
            String[] kv = line.split(" ");
            c.put(kv[0], Long.parseLong(kv[1]));
        }
        assertEquals(c.get("cudaDeviceProp"), cudaDeviceProp.layout().byteSize(), "sizeof(cudaDeviceProp)");
        int fields = 0;
        for (MemoryLayout m : cudaDeviceProp.layout().memberLayouts()) {
            if (m.name().isEmpty()) {
                continue;
            }
            String f = "cudaDeviceProp." + m.name().get();
            assertTrue(c.containsKey(f), "the header has no field " + f);
            assertEquals(c.get(f), cudaDeviceProp.layout().byteOffset(MemoryLayout.PathElement.groupElement(m.name().get())), f);
            fields++;
        }
        assertEquals(c.size() - 1, fields, "fields of the header missing from the Java layout");
    }
}
