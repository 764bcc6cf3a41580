package io.cuzk.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.commons.lang3.StringUtils;

/**
 * A folder another local user cannot write into, nor swap for one of their own: what a folder must
 * be before code is written into it. Every component of its path is checked without following
 * links, from the root down: each must be a real folder (a link is refused), owned by root or by
 * this process's user, and not writable by others unless sticky (like /tmp, where others may add
 * entries but not replace ours). The folder itself, created owner-only if missing, must be ours and
 * writable by us alone. A component that another user controls could be swapped between a check
 * and a use; none of these can. The native library's cache and the witness module's cache of
 * compiled circuits (classes this process runs) are kept only in such folders.
 */
public final class TrustedDirectory {
    private TrustedDirectory() {}

    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

    /**
     * A cache's folder: the one the system property names ({@code none} or blank: no cache, null),
     * else {@code $XDG_CACHE_HOME/cuzk/<name>}, else {@code ~/.cache/cuzk/<name>}; null where no
     * home is known. The rule of every cuzk cache (the native library's, the compiled circuits').
     */
    public static Path cacheFolder(String property, String name) {
        String prop = System.getProperty(property);
        if (prop != null) {
            return StringUtils.isBlank(prop) || prop.equalsIgnoreCase("none") ? null : Path.of(prop);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (StringUtils.isNotBlank(xdg) && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "cuzk", name);
        }
        // user.home itself, not commons-lang3's SystemUtils: its class initialiser reads every
        // system property the JDK has and costs a command that needs nothing else from it (wtns)
        // 35-50 ms of its start
        String home = System.getProperty("user.home");
        return StringUtils.isBlank(home) || home.equals("?") ? null : Path.of(home, ".cache", "cuzk", name);
    }

    /** The ending of the temporary file {@link #replaceFile} writes before renaming it into place. */
    private static final String PART = ".part";

    /**
     * Whether a file name is one of {@link #replaceFile}'s temporary files for a cache file whose
     * name ends with suffix: what a writer that died left behind, once old enough.
     */
    public static boolean isPartOf(String name, String suffix) {
        return name.endsWith(PART) && name.contains(suffix + ".");
    }

    /**
     * Marks a cache file as used now (its modification time, which a cache's pruning reads to
     * keep the files used last); a file that cannot be marked is left as it is.
     */
    public static void markUsed(Path file) {
        try {
            Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException | RuntimeException e) {
            // still usable; at worst pruned before a file used less lately
        }
    }

    /**
     * Writes a cache file: a new owner-only file of our own beside it (never an existing one, never
     * through a link), then renamed over it, so that a reader sees the old file or the whole new
     * one. Any failure (another process writing it, a full disk, a removed folder) leaves no file
     * and is not an error: a cache only saves work. True when the file was written.
     */
    public static boolean replaceFile(Path file, byte[] bytes) {
        Path tmp = file.resolveSibling(file.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + PART);
        try {
            try (SeekableByteChannel ch = Files.newByteChannel(tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    NOFOLLOW), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                // nothing more to do: the name ends in .part, never read as a cache file
            }
        }
    }

    /**
     * The bytes of a cache file, or null when there is none, it is a link (not followed), it holds
     * more than maxBytes, it belongs to another user or another user may write to it, or it cannot
     * be read: what a cache then makes again.
     */
    public static byte[] readFile(Path file, long maxBytes) {
        try (SeekableByteChannel ch = Files.newByteChannel(file, Set.of(StandardOpenOption.READ, NOFOLLOW))) {
            int mode = (Integer) Files.getAttribute(file, "unix:mode", NOFOLLOW);
            int owner = (Integer) Files.getAttribute(file, "unix:uid", NOFOLLOW);
            long size = ch.size();
            if ((mode & 0022) != 0 || owner != myUid() || size > maxBytes || size > Integer.MAX_VALUE - 16) {
                return null;
            }
            ByteBuffer b = ByteBuffer.allocate((int) size);
            while (b.hasRemaining() && ch.read(b) > 0) {
                // keep reading
            }
            return b.hasRemaining() ? null : b.array();
        } catch (IOException | RuntimeException e) { // missing, a link (ELOOP), unreadable, no POSIX owner
            return null;
        }
    }

    /** This process's user id (from /proc, the only portable way without a native call). */
    public static int myUid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    /**
     * Makes dir (creating the missing components owner-only) and checks every component; returns
     * null when it can be trusted, else the reason it cannot.
     */
    public static String make(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        int me = myUid();
        Path at = abs.getRoot();
        for (Path name : abs) {
            at = at.resolve(name);
            boolean last = at.equals(abs);
            PosixFileAttributes a;
            try {
                a = Files.readAttributes(at, PosixFileAttributes.class, NOFOLLOW);
            } catch (NoSuchFileException missing) {
                try {
                    Files.createDirectory(at, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                } catch (FileAlreadyExistsException raced) {
                    // someone made it meanwhile: the checks below decide
                }
                a = Files.readAttributes(at, PosixFileAttributes.class, NOFOLLOW);
            }
            String why = problem(at, a, last, me);
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    private static String problem(Path at, PosixFileAttributes a, boolean last, int me) throws IOException {
        if (a.isSymbolicLink()) {
            return at + " is a symbolic link";
        }
        if (!a.isDirectory()) {
            return at + " is not a folder";
        }
        int owner = (Integer) Files.getAttribute(at, "unix:uid", NOFOLLOW);
        int mode = (Integer) Files.getAttribute(at, "unix:mode", NOFOLLOW);
        boolean othersWrite = (mode & 0022) != 0;
        boolean sticky = (mode & 01000) != 0;
        if (last) {
            if (owner != me) {
                return at + " belongs to user " + owner + ", not to this process's user " + me;
            }
            if (othersWrite) {
                return at + " is writable by other users (mode " + Integer.toOctalString(mode & 07777) + ")";
            }
            return null;
        }
        if (owner != 0 && owner != me) {
            return at + " belongs to user " + owner + ", who could replace what lies below it";
        }
        if (othersWrite && !sticky) {
            return at + " is writable by other users (mode " + Integer.toOctalString(mode & 07777) + ")";
        }
        return null;
    }
}
