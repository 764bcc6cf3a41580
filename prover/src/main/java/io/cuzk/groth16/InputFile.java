package io.cuzk.groth16;

import io.cuzk.HostMemory;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * Opening the files a proof reads. Each is checked to be a regular file before it is opened (a
 * FIFO would block the open forever, a folder or a device has no fixed content), and either read
 * into memory this process owns, which no later change to the file can alter, or mapped, whose
 * pages stay the file's: truncating a mapped file under a reader ends the process with SIGBUS.
 */
final class InputFile {
    private InputFile() {}

    /** Largest single read: a ByteBuffer holds at most 2 GiB. */
    private static final int CHUNK = 1 << 30;

    /**
     * Throws a {@link FormatException} unless file is a regular file (links are followed): the check
     * that keeps a FIFO from blocking the open that follows it.
     */
    static long requireRegular(Path file) throws IOException {
        return attributes(file).size();
    }

    /** The file's attributes, refusing what is not a regular file (see {@link #requireRegular}). */
    private static BasicFileAttributes attributes(Path file) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            throw reasoned(e);
        }
        if (a.isDirectory()) {
            throw new FormatException(file.toString(), null, "is a folder, not a file");
        }
        if (!a.isRegularFile()) {
            throw new FormatException(file.toString(), null, "is not a regular file (a pipe, a device or a socket): it cannot be read as "
                    + "a whole");
        }
        return a;
    }

    /**
     * The whole file, read into memory of the arena ({@link HostMemory}'s: aligned, in huge pages
     * where the system allows, which the MSMs' reads of the points profit from). A file that
     * changes while it is read (shrinks, grows, is rewritten or replaced, as its size, modification
     * time and file key tell) fails with a message saying so: the bytes might mix two versions.
     */
    static MemorySegment read(Path file, Arena arena) throws IOException {
        BasicFileAttributes before = attributes(file);
        try (FileChannel ch = open(file)) {
            long size = ch.size();
            MemorySegment data = HostMemory.allocate(arena, size);
            long done = 0;
            while (done < size) {
                ByteBuffer buf = data.asSlice(done, Math.min(CHUNK, size - done)).asByteBuffer();
                while (buf.hasRemaining()) {
                    int n = ch.read(buf, done + buf.position());
                    if (n < 0) {
                        throw new FormatException(file.toString(), null, "changed while it was read: it ended after "
                                + (done + buf.position()) + " of its " + size + " bytes");
                    }
                }
                done += buf.capacity();
            }
            BasicFileAttributes after = attributes(file);
            if (after.size() != size || !after.lastModifiedTime().equals(before.lastModifiedTime())
                    || !Objects.equals(after.fileKey(), before.fileKey())) {
                throw new FormatException(file.toString(), null, "changed while it was read (its size, time or identity moved): "
                        + "what was read may mix two versions; read it again once it is complete");
            }
            return data;
        }
    }

    static FileChannel open(Path file) throws IOException {
        try {
            return FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            throw reasoned(e);
        }
    }

    /**
     * The JDK's NoSuchFileException and AccessDeniedException carry the bare path as their message;
     * the same exceptions with the reason in words, so that whoever prints the message (a command,
     * an engine's job failure) says what is wrong.
     */
    static IOException reasoned(IOException e) {
        IOException r = e;
        if (e instanceof NoSuchFileException x && x.getReason() == null) {
            r = new NoSuchFileException(x.getFile(), x.getOtherFile(), "no such file");
        } else if (e instanceof AccessDeniedException x && x.getReason() == null) {
            r = new AccessDeniedException(x.getFile(), x.getOtherFile(), "permission denied");
        }
        if (r != e) {
            r.initCause(e);
        }
        return r;
    }

    /** The whole file, mapped read-only into the arena (see the class comment for the risk). */
    static MemorySegment map(Path file, Arena arena) throws IOException {
        requireRegular(file);
        try (FileChannel ch = open(file)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
        }
    }
}
