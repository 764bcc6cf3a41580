package io.cuzk.groth16;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The container shared by snarkjs's binary files (.zkey, .wtns, .r1cs, .ptau): a 4-byte magic, a
 * u32 version, a u32 section count, then sections {u32 id, u64 size, payload}, all little-endian.
 * Sections are indexed by id, since tools write them in different orders; payloads stay where they
 * are (views of the underlying segment, which may be a mapped file).
 */
final class BinFile {
    /**
     * The little-endian u32 at pos. Header fields are read through a small byte copy, not a
     * segment access with a value layout: the first such access makes the JDK set up its var
     * handles (about 10 ms of a one-shot proof command, in interpreted code), and a reader of a
     * few header fields has no use for them.
     */
    static int u32(MemorySegment s, long pos) {
        return ByteBuffer.wrap(s.asSlice(pos, 4).toArray(ValueLayout.JAVA_BYTE)).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    /** The little-endian u64 at pos (see {@link #u32}). */
    static long u64(MemorySegment s, long pos) {
        return ByteBuffer.wrap(s.asSlice(pos, 8).toArray(ValueLayout.JAVA_BYTE)).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    record Section(int id, long offset, long size) {}

    final String name;
    final MemorySegment data;
    final int version;
    private final Map<Integer, Section> sections;
    private final Map<Integer, String> sectionNames;
    private final List<String> warnings;

    private BinFile(String name, MemorySegment data, int version, Map<Integer, Section> sections, Map<Integer, String> names,
            List<String> warnings) {
        this.name = name;
        this.data = data;
        this.version = version;
        this.sections = sections;
        this.sectionNames = names;
        this.warnings = List.copyOf(warnings);
    }

    /**
     * What was accepted but is unusual: bytes after the last section and sections of unknown ids.
     * snarkjs (binfileutils' readBinFile) reads the section table the header declares and ignores
     * both; so do these readers, and say so.
     */
    List<String> warnings() {
        return warnings;
    }

    /** Parses the container; names maps section ids to words for messages. */
    static BinFile parse(String name, MemorySegment data, String magic, int[] versions, Map<Integer, String> names) {
        if (data.byteSize() < 12) {
            throw new FormatException(name, null, "truncated: " + data.byteSize() + " bytes is shorter than the 12-byte header");
        }
        byte[] m = data.asSlice(0, 4).toArray(ValueLayout.JAVA_BYTE);
        String found = new String(m, StandardCharsets.ISO_8859_1);
        if (!found.equals(magic)) {
            throw new FormatException(name, null, "wrong magic: expected '" + magic + "', found '" + printable(found)
                    + "' (not a ." + magic + " file)");
        }
        int version = u32(data, 4);
        boolean known = false;
        for (int v : versions) {
            known |= v == version;
        }
        if (!known) {
            throw new FormatException(name, null, "unsupported version " + Integer.toUnsignedString(version) + " (supported: "
                    + Arrays.toString(versions) + ")");
        }
        long count = Integer.toUnsignedLong(u32(data, 8));
        Map<Integer, Section> sections = new HashMap<>();
        long pos = 12;
        for (long i = 0; i < count; i++) {
            if (pos + 12 > data.byteSize()) {
                throw new FormatException(name, null, "truncated: the header of section " + (i + 1) + " of " + count
                        + " starts at byte " + pos + " but the file ends at " + data.byteSize());
            }
            int id = u32(data, pos);
            long size = u64(data, pos + 4);
            long payload = pos + 12;
            String label = label(names, id);
            if (size < 0 || size > data.byteSize() - payload) {
                throw new FormatException(name, label, "truncated: declares " + Long.toUnsignedString(size) + " bytes but only "
                        + (data.byteSize() - payload) + " remain in the file");
            }
            if (sections.putIfAbsent(id, new Section(id, payload, size)) != null) {
                throw new FormatException(name, label, "appears twice");
            }
            pos = payload + size;
        }
        List<String> warnings = new ArrayList<>();
        for (int id : new TreeSet<>(sections.keySet())) {
            if (!names.containsKey(id)) {
                warnings.add(name + ": section " + Integer.toUnsignedString(id) + " (" + sections.get(id).size()
                        + " bytes) is not one a ." + magic + " file holds; ignored, as snarkjs ignores it");
            }
        }
        if (pos < data.byteSize()) {
            warnings.add(name + ": " + (data.byteSize() - pos) + " bytes after the last of its " + count
                    + " sections are ignored, as snarkjs ignores them");
        }
        return new BinFile(name, data, version, sections, names, warnings);
    }

    /**
     * Only the sections wanted, read from the channel (the section table is walked with positional
     * reads; nothing else of the file is read or mapped), with the checks and messages of
     * {@link #parse}. Unknown sections and trailing bytes pass without warnings.
     */
    static BinFile parseSections(String name, FileChannel ch, String magic, int[] versions, Map<Integer, String> names,
            int... wanted) throws IOException {
        long fileSize = ch.size();
        byte[] head = readFully(name, ch, 0, (int) Math.min(12, fileSize));
        if (head.length < 12) {
            return parse(name, MemorySegment.ofArray(head), magic, versions, names); // reports the short header
        }
        long count = Integer.toUnsignedLong(u32(MemorySegment.ofArray(head), 8));
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        copy.writeBytes(head);
        int kept = 0;
        long pos = 12;
        for (long i = 0; i < count; i++) {
            if (pos + 12 > fileSize) {
                break; // parse reports the truncation
            }
            byte[] sh = readFully(name, ch, pos, 12);
            int id = u32(MemorySegment.ofArray(sh), 0);
            long size = u64(MemorySegment.ofArray(sh), 4);
            if (size < 0 || size > fileSize - pos - 12) {
                copy.writeBytes(sh);
                kept++;
                break;
            }
            for (int w : wanted) {
                if (w == id) {
                    if (size > Integer.MAX_VALUE - 64) {
                        throw new FormatException(name, label(names, id), "declares " + size + " bytes, more than a header section holds");
                    }
                    copy.writeBytes(sh);
                    copy.writeBytes(readFully(name, ch, pos + 12, (int) size));
                    kept++;
                }
            }
            pos += 12 + size;
        }
        byte[] b = copy.toByteArray();
        ByteBuffer.wrap(b, 8, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(kept);
        return parse(name, MemorySegment.ofArray(b), magic, versions, names);
    }

    private static byte[] readFully(String name, FileChannel ch, long pos, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (ch.read(b, pos + b.position()) < 0) {
                throw new FormatException(name, null, "changed while it was read: it ended at byte " + (pos + b.position()));
            }
        }
        return b.array();
    }

    static String label(Map<Integer, String> names, int id) {
        String n = names.get(id);
        return "section " + Integer.toUnsignedString(id) + (n == null ? "" : " (" + n + ")");
    }

    String label(int id) {
        return label(sectionNames, id);
    }

    /** The payload of section id; throws when it is missing. */
    MemorySegment section(int id) {
        Section s = sections.get(id);
        if (s == null) {
            throw new FormatException(name, label(id), "missing");
        }
        return data.asSlice(s.offset, s.size);
    }

    /** The payload of section id, which must be exactly size bytes long. */
    MemorySegment section(int id, long size) {
        MemorySegment s = section(id);
        if (s.byteSize() != size) {
            throw new FormatException(name, label(id), (s.byteSize() < size ? "truncated" : "too long") + ": " + s.byteSize()
                    + " bytes where " + size + " are expected");
        }
        return s;
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c >= 32 && c < 127 ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return b.toString();
    }
}
