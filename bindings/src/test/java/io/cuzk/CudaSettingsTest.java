package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The CUDA backend's pool settings read from system properties (no GPU needed). */
class CudaSettingsTest {
    static final String NAME = "cuzk.test.size-property";

    @Test
    void aSizePropertyIsAWholeNumberOrTheDefault() {
        try {
            System.clearProperty(NAME);
            assertEquals(-1, CudaBackend.sizeProperty(NAME, -1), "unset: the default");
            System.setProperty(NAME, " 512 ");
            assertEquals(512, CudaBackend.sizeProperty(NAME, -1));
            System.setProperty(NAME, "0");
            assertEquals(0, CudaBackend.sizeProperty(NAME, 7));
            for (String bad : new String[] {"12k", "-3", "1.5", "99999999999999999999"}) {
                System.setProperty(NAME, bad);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CudaBackend.sizeProperty(NAME, -1), bad);
                assertEquals(NAME + " must be a whole number of 0 or more, not '" + bad + "'", e.getMessage());
            }
        } finally {
            System.clearProperty(NAME);
        }
    }
}
