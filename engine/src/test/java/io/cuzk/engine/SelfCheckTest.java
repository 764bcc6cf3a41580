package io.cuzk.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Backend;
import io.cuzk.Groth16Msms;
import io.cuzk.groth16.Groth16Verifier;
import io.cuzk.groth16.Proof;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.VerificationKey;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The self-check: with it, every proof is verified in the finalizers before its job can complete;
 * a proof that does not verify fails its partition's job with a clear reason and touches no other.
 */
class SelfCheckTest {
    /** A device whose every second proof comes back with a wrong H sum (a kernel bug, silently). */
    static final class CorruptingDevice extends DelegatingDevice {
        private final AtomicInteger starts = new AtomicInteger();

        CorruptingDevice(String name, Backend b, int lanes, BooleanSupplier readyWork) {
            super(name, b, lanes, readyWork);
        }

        @Override
        public Backend.Pending start(int lane, Partition p, Runnable abcTaken) {
            Backend.Pending real = this.real.start(lane, p, abcTaken);
            if (starts.getAndIncrement() % 2 == 0) {
                return real;
            }
            return () -> {
                Groth16Msms m = real.finish();
                return new Groth16Msms(m.a(), m.b1(), m.b2(), m.c(), m.a()); // h replaced
            };
        }
    }

    @Test
    void everyProofIsVerifiedAndABadOneFailsItsJobOnly() throws Exception {
        Engine e = Engine.start(EngineShutdownTest.oneWorker().selfCheck(true).build(), StatusTracker::lockFree, CorruptingDevice::new);
        try {
            JobHandle good = e.submit(EngineShutdownTest.job(1));
            List<Proof> proofs = good.await(EngineShutdownTest.WAIT);
            try (ProvingKey key = ProvingKey.read(EngineShutdownTest.ZKEY)) {
                assertTrue(Groth16Verifier.verify(VerificationKey.of(key), proofs.get(0)));
            }
            JobHandle bad = e.submit(EngineShutdownTest.job(1));
            ExecutionException x = assertThrows(ExecutionException.class, () -> bad.await(EngineShutdownTest.WAIT));
            assertInstanceOf(PartitionFailedException.class, x.getCause());
            assertInstanceOf(SelfCheckFailedException.class, x.getCause().getCause(), "a type of its own: callers tell it from faults");
            assertTrue(x.getCause().getCause().getMessage().contains("does not verify") && x.getCause().getCause().getMessage()
                    .contains("self-check"), x.getCause().getCause().getMessage());
            JobHandle next = e.submit(EngineShutdownTest.job(1));
            assertEquals(1, next.await(EngineShutdownTest.WAIT).size(), "the engine goes on");
            EngineShutdownTest.awaitBudgetReturned(e);
            EngineStatus.Counters c = e.status().counters();
            assertEquals(3, c.selfChecks());
            assertEquals(1, c.selfCheckFailures());
            assertEquals(1, c.partitionsFailed());
            assertTrue(c.selfCheckSeconds() > 0);
        } finally {
            assertTimeoutPreemptively(EngineShutdownTest.WAIT, e::close);
        }
    }

    @Test
    void withoutItNothingIsVerified() throws Exception {
        try (Engine e = Engine.start(EngineShutdownTest.oneWorker().build())) {
            assertEquals(2, e.submit(EngineShutdownTest.job(2)).await(EngineShutdownTest.WAIT).size());
            assertEquals(0, e.status().counters().selfChecks());
        }
    }
}
