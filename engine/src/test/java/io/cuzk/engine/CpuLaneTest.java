package io.cuzk.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Backend;
import io.cuzk.Curve;
import io.cuzk.Groth16Inputs;
import io.cuzk.Groth16Msms;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Synthesis;
import io.cuzk.groth16.Witness;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/**
 * The CPU backend's lanes share one queue: a proof's end (its ended event, its waiter's wake-up)
 * is told once the next queued proof has started, so that no wake-up lies between two proofs. The
 * events must still come in the order a timeline needs (each ended before the next started, with
 * their own times), every waiter must get its own result, and a proof that fails must fail its own
 * waiter only, also when its end is told by the next.
 */
class CpuLaneTest {
    record Event(int proof, String what, long nanos) {}

    static Backend.Events recording(int proof, ConcurrentLinkedQueue<Event> log) {
        return new Backend.Events() {
            @Override
            public void started(long nanos) {
                log.add(new Event(proof, "started", nanos));
            }

            @Override
            public void hComputed(long nanos) {
                log.add(new Event(proof, "h", nanos));
            }

            @Override
            public void ended(long nanos) {
                log.add(new Event(proof, "ended", nanos));
            }
        };
    }

    /** An arena that refuses to allocate: the lane's copy of h fails, after H ran. */
    static final class Refusing implements Arena {
        @Override
        public MemorySegment allocate(long bytes, long alignment) {
            throw new IllegalStateException("scratch refused");
        }

        @Override
        public MemorySegment.Scope scope() {
            return Arena.global().scope();
        }

        @Override
        public void close() {}
    }

    @Test
    void proofsQueuedOnTwoLanesEndInOrderWithTheirOwnResults() throws Exception {
        Backend cpu = Backend.cpu(0);
        ProvingKey key = ProvingKey.read(EngineShutdownTest.ZKEY);
        Witness w = Witness.read(EngineShutdownTest.WTNS);
        int n = key.domainSize();
        int proofs = 8;
        ConcurrentLinkedQueue<Event> log = new ConcurrentLinkedQueue<>();
        try (Arena arena = Arena.ofShared(); Backend.Resident bases = cpu.resident(key.bases())) {
            ScalarVector a = ScalarVector.allocate(arena, Curve.BN254, n, ScalarForm.MONTGOMERY);
            ScalarVector b = ScalarVector.allocate(arena, Curve.BN254, n, ScalarForm.MONTGOMERY);
            ScalarVector c = ScalarVector.allocate(arena, Curve.BN254, n, ScalarForm.MONTGOMERY);
            Synthesis.abc(key, w.values(), a, b, c, 1);
            Groth16Msms expected;
            try (Arena scratch = Arena.ofConfined()) {
                expected = cpu.groth16(bases, new Groth16Inputs(w.values(), copy(arena, a), copy(arena, b), copy(arena, c), scratch));
            }
            Backend.Lane[] lanes = {cpu.openLane(), cpu.openLane()};
            List<Backend.Pending> pending = new ArrayList<>();
            List<Arena> scratches = new ArrayList<>();
            for (int i = 0; i < proofs; i++) {
                // every third proof fails after H; the others are whole proofs of the sample
                Arena scratch = i % 3 == 1 ? new Refusing() : Arena.ofShared();
                scratches.add(scratch);
                pending.add(lanes[i % 2].start(bases, new Groth16Inputs(w.values(), copy(arena, a), copy(arena, b), copy(arena, c), scratch),
                        recording(i, log)));
            }
            for (int i = 0; i < proofs; i++) {
                Backend.Pending p = pending.get(i);
                if (i % 3 == 1) {
                    IllegalStateException e = assertThrows(IllegalStateException.class, p::finish, "proof " + i);
                    assertEquals("scratch refused", e.getMessage());
                } else {
                    Groth16Msms m = p.finish();
                    assertEquals(expected.a(), m.a(), "proof " + i);
                    assertEquals(expected.b2(), m.b2(), "proof " + i);
                    assertEquals(expected.h(), m.h(), "proof " + i);
                }
            }
            for (Arena s : scratches) {
                s.close();
            }
            for (Backend.Lane l : lanes) {
                l.close();
            }
        }
        // one queue: started, h, ended per proof in submission order, the next started after the
        // previous ended (times and calls), each ended told before the next proof's started
        List<Event> events = new ArrayList<>(log);
        assertEquals(proofs * 3, events.size(), events.toString());
        long lastEnd = Long.MIN_VALUE;
        for (int i = 0; i < proofs; i++) {
            Event s = events.get(3 * i), h = events.get(3 * i + 1), e = events.get(3 * i + 2);
            assertEquals(List.of(i, i, i), List.of(s.proof(), h.proof(), e.proof()), events.toString());
            assertEquals(List.of("started", "h", "ended"), List.of(s.what(), h.what(), e.what()));
            assertTrue(lastEnd <= s.nanos() && s.nanos() <= h.nanos() && h.nanos() <= e.nanos(), events.toString());
            lastEnd = e.nanos();
        }
    }

    static ScalarVector copy(Arena arena, ScalarVector v) {
        ScalarVector out = ScalarVector.allocate(arena, v.curve(), v.size(), v.form());
        MemorySegment.copy(v.segment(), 0, out.segment(), 0, v.segment().byteSize());
        return out;
    }
}
