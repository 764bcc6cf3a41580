package io.cuzk.engine;

import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.lang3.Validate;

/**
 * A proving job: one proving key, 1..n witnesses (its partitions, each proved separately, as a
 * Filecoin proof holds 10 partitions) and a priority.
 *
 * <p>Keys and witnesses named by path are read by the engine (keys once, kept resident and shared
 * by jobs); those passed as objects stay owned by the caller, who must keep them open until the
 * job is released ({@link JobHandle#released()}), which for a cancelled job can be later than its
 * future's completion.
 */
public final class Job {
    private final Path keyPath;
    private final ProvingKey key;
    private final List<Path> witnessPaths;
    private final List<Witness> witnesses;
    private final Priority priority;

    private Job(Path keyPath, ProvingKey key, List<Path> witnessPaths, List<Witness> witnesses, Priority priority) {
        this.keyPath = keyPath;
        this.key = key;
        this.witnessPaths = witnessPaths;
        this.witnesses = witnesses;
        this.priority = Validate.notNull(priority, "priority");
    }

    /** A job of files: the key is loaded once per engine and shared; each witness is read when its partition is synthesized. */
    public static Job ofFiles(Path zkey, List<Path> witnesses, Priority priority) {
        Validate.notNull(zkey, "zkey");
        Validate.notEmpty(witnesses, "a job needs at least one witness");
        return new Job(zkey, null, List.copyOf(witnesses), null, priority);
    }

    /** A job of objects the caller owns and keeps open until the job is released ({@link JobHandle#released()}). */
    public static Job of(ProvingKey key, List<Witness> witnesses, Priority priority) {
        Validate.notNull(key, "key");
        Validate.notEmpty(witnesses, "a job needs at least one witness");
        return new Job(null, key, null, List.copyOf(witnesses), priority);
    }

    public Priority priority() {
        return priority;
    }

    public int partitions() {
        return witnessPaths != null ? witnessPaths.size() : witnesses.size();
    }

    Path keyPath() {
        return keyPath;
    }

    ProvingKey key() {
        return key;
    }

    /** Partition i's witness: opened by the caller of this method (from a path) or lent (an object). */
    Witness openWitness(int i) throws IOException {
        return witnessPaths != null ? Witness.read(witnessPaths.get(i)) : witnesses.get(i);
    }

    boolean ownsWitnesses() {
        return witnessPaths != null;
    }
}
