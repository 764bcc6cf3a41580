package io.cuzk.groth16;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The container shared by snarkjs's binary files (.zkey, .wtns, .r1cs, .ptau): a 4-byte magic, a
 * u32 version, a u32 section count, then sections {u32 id, u64 size, payload}, all little-endian.
 * Sections are indexed by id, since tools write them in different orders; payloads stay where they
 * are (views of the underlying segment, which may be a mapped file).
 */
final class BinFile {
    static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    record Section(int id, long offset, long size) {}

    final String name;
    final MemorySegment data;
    final int version;
    private final Map<Integer, Section> sections;
    private final Map<Integer, String> sectionNames;

    private BinFile(String name, MemorySegment data, int version, Map<Integer, Section> sections, Map<Integer, String> names) {
        this.name = name;
        this.data = data;
        this.version = version;
        this.sections = sections;
        this.sectionNames = names;
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
        int version = data.get(U32, 4);
        boolean known = false;
        for (int v : versions) {
            known |= v == version;
        }
        if (!known) {
            throw new FormatException(name, null, "unsupported version " + Integer.toUnsignedString(version) + " (supported: "
                    + Arrays.toString(versions) + ")");
        }
        long count = Integer.toUnsignedLong(data.get(U32, 8));
        Map<Integer, Section> sections = new HashMap<>();
        long pos = 12;
        for (long i = 0; i < count; i++) {
            if (pos + 12 > data.byteSize()) {
                throw new FormatException(name, null, "truncated: the header of section " + (i + 1) + " of " + count
                        + " starts at byte " + pos + " but the file ends at " + data.byteSize());
            }
            int id = data.get(U32, pos);
            long size = data.get(U64, pos + 4);
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
        return new BinFile(name, data, version, sections, names);
    }

    static String label(Map<Integer, String> names, int id) {
        String n = names.get(id);
        return "section " + id + (n == null ? "" : " (" + n + ")");
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
