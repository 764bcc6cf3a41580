package io.cuzk.internal;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

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

    /** This process's user id (from /proc, the only portable way without a native call). */
    static int myUid() throws IOException {
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
