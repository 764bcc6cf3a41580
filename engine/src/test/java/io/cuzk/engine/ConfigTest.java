package io.cuzk.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.cuzk.Backend;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Settings that cannot work are refused when the configuration is built, each named with its value; nulls named too. */
class ConfigTest {
    @Test
    void badSettingsAreNamed() {
        assertEquals("devices", assertThrows(NullPointerException.class, () -> Config.builder().devices(null).build()).getMessage());
        assertEquals("device 0 is null", assertThrows(IllegalArgumentException.class,
                () -> Config.builder().devices(Arrays.asList((Backend) null)).build()).getMessage());
        assertEquals("poolIdleRelease", assertThrows(NullPointerException.class, () -> Config.builder().poolIdleRelease(null).build())
                .getMessage());
        assertEquals("shutdownTimeout", assertThrows(NullPointerException.class, () -> Config.builder().shutdownTimeout(null).build())
                .getMessage());
        assertEquals("the shutdown timeout must not be negative: PT-1S", assertThrows(IllegalArgumentException.class,
                () -> Config.builder().shutdownTimeout(Duration.ofSeconds(-1)).build()).getMessage());
        assertEquals("synthesis threads must be 0..4096 (0 = all): -1", assertThrows(IllegalArgumentException.class,
                () -> Config.builder().synthesisThreads(-1).build()).getMessage());
        // counts of threads past what any machine uses are refused before a thread starts
        assertEquals("workers per device must be 1..64: 1000000", assertThrows(IllegalArgumentException.class,
                () -> Config.builder().workersPerDevice(1_000_000).build()).getMessage());
        assertEquals("workers per device must be 1..64: 0", assertThrows(IllegalArgumentException.class,
                () -> Config.builder().workersPerDevice(0).build()).getMessage());
        assertEquals("synthesis workers must be 1..4096: 4097", assertThrows(IllegalArgumentException.class,
                () -> Config.builder().synthesisWorkers(4097).build()).getMessage());
        assertEquals("finalizers must be 1..4096: 100000", assertThrows(IllegalArgumentException.class,
                () -> Config.builder().finalizers(100_000).build()).getMessage());
        assertEquals("ready partitions per worker must be 0..4096 (0 = derived): 5000", assertThrows(IllegalArgumentException.class,
                () -> Config.builder().readyPerWorker(5000).build()).getMessage());
        assertEquals("at most 1024 devices: 1025", assertThrows(IllegalArgumentException.class,
                () -> Config.builder().devices(java.util.Collections.nCopies(1025, Backend.cpu())).build()).getMessage());
        assertEquals(64, Config.builder().workersPerDevice(64).build().workersPerDevice());
        // a negative idle pool size is refused, not read as "the budget" (what an unset one means)
        assertEquals("the pool's idle bytes must not be negative: -5", assertThrows(IllegalArgumentException.class,
                () -> Config.builder().maxIdlePoolBytes(-5).build()).getMessage());
        Config unset = Config.builder().memoryBudgetBytes(1 << 20).build();
        assertEquals(1 << 20, unset.maxIdlePoolBytes(), "unset: the whole budget");
    }
}
