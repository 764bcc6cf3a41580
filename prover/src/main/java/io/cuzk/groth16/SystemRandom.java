package io.cuzk.groth16;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.security.SecureRandomSpi;

/**
 * A {@link SecureRandom} that reads the operating system's cryptographically secure generator
 * directly: {@code /dev/urandom}, on Linux the kernel's CRNG behind {@code getrandom(2)}, which
 * serves only once it has been seeded at boot. The JDK's default ({@code NativePRNG}) reads the same
 * device and XORs its bytes with a {@code SHA1PRNG}; setting that up first loads the security
 * provider framework, about 30 ms of CPU in a one-shot command (docs/benchmarks.md), on a core the
 * command's other threads need. Where the device cannot be read, {@link #create()} returns the
 * JDK's default instead.
 */
public final class SystemRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;

    /** The device read. */
    public static final File DEVICE = new File("/dev/urandom");

    private SystemRandom() {
        super(new DeviceSpi(), null);
    }

    /** A SystemRandom where the device can be read, else the JDK's default SecureRandom. */
    public static SecureRandom create() {
        return DEVICE.canRead() ? new SystemRandom() : new SecureRandom();
    }

    @Override
    public String getAlgorithm() {
        return "cuzk-urandom";
    }

    private static final class DeviceSpi extends SecureRandomSpi {
        private static final long serialVersionUID = 1L;

        @Override
        protected void engineSetSeed(byte[] seed) {
            // the kernel's generator is seeded by the kernel; bytes offered here add nothing it needs
        }

        @Override
        protected void engineNextBytes(byte[] bytes) {
            read(bytes);
        }

        @Override
        protected byte[] engineGenerateSeed(int numBytes) {
            byte[] seed = new byte[numBytes];
            read(seed);
            return seed;
        }

        /**
         * The device, opened at the first read and kept open for the process: one read a call,
         * where opening it for each one cost three system calls and a file descriptor every draw.
         * A stream, not a FileChannel: an interrupted thread would close a channel for every later
         * reader. Opened lazily and again after a failed open (no descriptor left, say), so that
         * one failure is not every later draw's.
         */
        private static volatile FileInputStream device;

        private static FileInputStream device() throws IOException {
            FileInputStream d = device;
            if (d == null) {
                synchronized (DeviceSpi.class) {
                    d = device;
                    if (d == null) {
                        device = d = new FileInputStream(DEVICE);
                    }
                }
            }
            return d;
        }

        private static void read(byte[] bytes) {
            try {
                FileInputStream in = device();
                synchronized (in) {
                    int n = 0;
                    while (n < bytes.length) {
                        int got = in.read(bytes, n, bytes.length - n);
                        if (got < 0) {
                            throw new IOException("end of file after " + n + " of " + bytes.length + " bytes");
                        }
                        n += got;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read random bytes from " + DEVICE, e);
            }
        }
    }
}
