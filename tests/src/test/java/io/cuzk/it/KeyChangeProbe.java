package io.cuzk.it;

import io.cuzk.groth16.Groth16Prover;
import io.cuzk.groth16.KeyStore;
import io.cuzk.groth16.ProvingKey;
import io.cuzk.groth16.Witness;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A child JVM for {@link KeyChangeTest}: opens a key (read, mapped, or leased from a KeyStore),
 * truncates its file to nothing, then proves with the key it holds and writes the proof.
 * Arguments: mode (read|map|store), zkey, wtns, proof.json, public.json.
 */
public final class KeyChangeProbe {
    private KeyChangeProbe() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path zkey = Path.of(args[1]);
        try (KeyStore store = new KeyStore(Long.MAX_VALUE); Witness w = Witness.read(Path.of(args[2]))) {
            KeyStore.Lease lease = mode.equals("store") ? store.acquire(zkey) : null;
            ProvingKey key = switch (mode) {
                case "read" -> ProvingKey.read(zkey);
                case "map" -> ProvingKey.map(zkey);
                default -> lease.key();
            };
            try (FileChannel ch = FileChannel.open(zkey, StandardOpenOption.WRITE)) {
                ch.truncate(0); // another process rewriting the key file: its old pages are gone
            }
            System.out.println("truncated");
            new Groth16Prover().prove(key, w).write(Path.of(args[3]), Path.of(args[4]));
            System.out.println("proved");
            if (lease != null) {
                lease.close();
                try {
                    store.acquire(zkey).close();
                    System.out.println("the truncated file was accepted");
                    System.exit(4);
                } catch (io.cuzk.groth16.FormatException e) {
                    System.out.println("next acquire: " + e.getMessage());
                }
            } else {
                key.close();
            }
        }
    }
}
