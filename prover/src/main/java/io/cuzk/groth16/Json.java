package io.cuzk.groth16;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON value as the snarkjs files' readers need it (RFC 8259, strict like JavaScript's
 * JSON.parse: nothing may follow the value, no comments, no trailing commas), read without
 * Jackson: Jackson's class initialisers cost a {@code bin/cuzk verify} about 20-30 ms of its
 * 0.2 s (ObjectMapper's date format builds a Calendar, which loads the locale data; its parser's
 * base class initialises BigDecimal), more than the reading itself. The accessors are named as
 * Jackson's JsonNode's, with the same answers for what the readers ask.
 */
final class Json {
    /** Nesting deeper than this is refused (Jackson's default limit), not a stack overflow. */
    static final int MAX_DEPTH = 1000;

    private enum Kind { OBJECT, ARRAY, STRING, NUMBER, TRUE, FALSE, NULL }

    private final Kind kind;
    private final String text; // a string's value, a number's literal
    private final List<Json> items;
    private final Map<String, Json> fields;

    private Json(Kind kind, String text, List<Json> items, Map<String, Json> fields) {
        this.kind = kind;
        this.text = text;
        this.items = items;
        this.fields = fields;
    }

    /** Malformed JSON: what is wrong and on which line (1-based). */
    static final class ParseException extends Exception {
        private static final long serialVersionUID = 1L;
        private final int line;

        ParseException(String message, int line) {
            super(message);
            this.line = line;
        }

        int line() {
            return line;
        }
    }

    /** The value the text holds, or null when it holds only white space. */
    static Json parse(String s) throws ParseException {
        Reader r = new Reader(s);
        r.skipSpace();
        if (r.pos == s.length()) {
            return null;
        }
        Json v = r.value(0);
        r.skipSpace();
        if (r.pos != s.length()) {
            throw r.error("unexpected " + r.describe() + " after the JSON value");
        }
        return v;
    }

    /** An object's member, or null (absent, or this is not an object). */
    Json get(String name) {
        return fields != null ? fields.get(name) : null;
    }

    /** An array's element, or null (out of range, or this is not an array). */
    Json get(int index) {
        return items != null && index >= 0 && index < items.size() ? items.get(index) : null;
    }

    boolean isArray() {
        return kind == Kind.ARRAY;
    }

    boolean isObject() {
        return kind == Kind.OBJECT;
    }

    boolean isTextual() {
        return kind == Kind.STRING;
    }

    /** A number, as written. */
    boolean isNumber() {
        return kind == Kind.NUMBER;
    }

    /** A number without a fraction or an exponent. */
    boolean isIntegralNumber() {
        return kind == Kind.NUMBER && text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
    }

    /** The elements of an array, the members of an object; 0 for anything else. */
    int size() {
        return items != null ? items.size() : fields != null ? fields.size() : 0;
    }

    boolean isEmpty() {
        return size() == 0;
    }

    /** A string's value, a number's literal, true, false or null; "" for an array or object. */
    String asText() {
        return switch (kind) {
            case STRING, NUMBER -> text;
            case TRUE -> "true";
            case FALSE -> "false";
            case NULL -> "null";
            default -> "";
        };
    }

    /** An integral number that fits an int. */
    boolean canConvertToInt() {
        if (!isIntegralNumber()) {
            return false;
        }
        try {
            Integer.parseInt(text);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The int of {@link #canConvertToInt()}, else 0. */
    int asInt() {
        return canConvertToInt() ? Integer.parseInt(text) : 0;
    }

    /** The value as compact JSON (for messages). */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        write(sb);
        return sb.toString();
    }

    /**
     * The value as compact JSON for a message, cut to at most max characters ("..." where it
     * stops): only what is shown is written, however large the value.
     */
    String preview(int max) {
        StringBuilder sb = new StringBuilder();
        write(sb, max + 1);
        return sb.length() > max ? sb.substring(0, max - 3) + "..." : sb.toString();
    }

    private void write(StringBuilder sb) {
        write(sb, Integer.MAX_VALUE);
    }

    /** Writes the value, stopping once sb holds more than limit characters. */
    private void write(StringBuilder sb, int limit) {
        if (sb.length() > limit) {
            return;
        }
        switch (kind) {
            case STRING -> quote(sb, text.length() > limit ? text.substring(0, limit) : text);
            case ARRAY -> {
                sb.append('[');
                for (int i = 0; i < items.size() && sb.length() <= limit; i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    items.get(i).write(sb, limit);
                }
                sb.append(']');
            }
            case OBJECT -> {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<String, Json> e : fields.entrySet()) {
                    if (sb.length() > limit) {
                        break;
                    }
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    quote(sb, e.getKey().length() > limit ? e.getKey().substring(0, limit) : e.getKey());
                    sb.append(':');
                    e.getValue().write(sb, limit);
                }
                sb.append('}');
            }
            default -> sb.append(asText());
        }
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** A recursive-descent reader over the text, counting lines for its messages. */
    private static final class Reader {
        private final String s;
        private int pos;
        private int line = 1;

        Reader(String s) {
            this.s = s;
        }

        ParseException error(String message) {
            return new ParseException(message, line);
        }

        String describe() {
            if (pos >= s.length()) {
                return "end of input";
            }
            char c = s.charAt(pos);
            return c >= 0x20 && c < 0x7f ? "'" + c + "'" : String.format("character U+%04X", (int) c);
        }

        void skipSpace() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == '\n') {
                    line++;
                } else if (c != ' ' && c != '\t' && c != '\r') {
                    return;
                }
                pos++;
            }
        }

        Json value(int depth) throws ParseException {
            if (depth >= MAX_DEPTH) {
                throw error("nested more than " + MAX_DEPTH + " deep");
            }
            if (pos >= s.length()) {
                throw error("unexpected end of input: expected a value");
            }
            char c = s.charAt(pos);
            return switch (c) {
                case '{' -> object(depth);
                case '[' -> array(depth);
                case '"' -> new Json(Kind.STRING, string(), null, null);
                case 't' -> literal("true", Kind.TRUE);
                case 'f' -> literal("false", Kind.FALSE);
                case 'n' -> literal("null", Kind.NULL);
                default -> {
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        yield number();
                    }
                    throw error("unexpected " + describe() + ": expected a value");
                }
            };
        }

        private Json literal(String word, Kind kind) throws ParseException {
            if (!s.startsWith(word, pos)) {
                throw error("unexpected " + describe() + ": expected a value");
            }
            pos += word.length();
            return new Json(kind, null, null, null);
        }

        private Json object(int depth) throws ParseException {
            pos++; // {
            Map<String, Json> fields = new LinkedHashMap<>();
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == '}') {
                pos++;
                return new Json(Kind.OBJECT, null, null, Collections.unmodifiableMap(fields));
            }
            while (true) {
                skipSpace();
                if (pos >= s.length() || s.charAt(pos) != '"') {
                    throw error("unexpected " + describe() + ": expected a member name in double quotes");
                }
                String name = string();
                skipSpace();
                if (pos >= s.length() || s.charAt(pos) != ':') {
                    throw error("unexpected " + describe() + ": expected ':' after a member name");
                }
                pos++;
                skipSpace();
                fields.put(name, value(depth + 1)); // a repeated name keeps its last value, as JSON.parse does
                skipSpace();
                if (pos < s.length() && s.charAt(pos) == ',') {
                    pos++;
                } else if (pos < s.length() && s.charAt(pos) == '}') {
                    pos++;
                    return new Json(Kind.OBJECT, null, null, Collections.unmodifiableMap(fields));
                } else {
                    throw error("unexpected " + describe() + ": expected ',' or '}' in an object");
                }
            }
        }

        private Json array(int depth) throws ParseException {
            pos++; // [
            List<Json> items = new ArrayList<>();
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == ']') {
                pos++;
                return new Json(Kind.ARRAY, null, Collections.unmodifiableList(items), null);
            }
            while (true) {
                skipSpace();
                items.add(value(depth + 1));
                skipSpace();
                if (pos < s.length() && s.charAt(pos) == ',') {
                    pos++;
                } else if (pos < s.length() && s.charAt(pos) == ']') {
                    pos++;
                    return new Json(Kind.ARRAY, null, Collections.unmodifiableList(items), null);
                } else {
                    throw error("unexpected " + describe() + ": expected ',' or ']' in an array");
                }
            }
        }

        private String string() throws ParseException {
            pos++; // "
            int start = pos;
            while (pos < s.length()) { // the common case: no escapes
                char c = s.charAt(pos);
                if (c == '"') {
                    return s.substring(start, pos++);
                }
                if (c == '\\' || c < 0x20) {
                    break;
                }
                pos++;
            }
            StringBuilder sb = new StringBuilder(s.substring(start, pos));
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == '"') {
                    pos++;
                    return sb.toString();
                }
                if (c < 0x20) {
                    throw error("unescaped control character U+" + String.format("%04X", (int) c) + " in a string");
                }
                if (c != '\\') {
                    sb.append(c);
                    pos++;
                    continue;
                }
                if (pos + 1 >= s.length()) {
                    break;
                }
                char e = s.charAt(pos + 1);
                pos += 2;
                switch (e) {
                    case '"' -> sb.append('"');
                    case '\\' -> sb.append('\\');
                    case '/' -> sb.append('/');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("a \\u escape needs four hex digits");
                        }
                        int v = 0;
                        for (int k = 0; k < 4; k++) {
                            int d = Character.digit(s.charAt(pos + k), 16);
                            if (d < 0) {
                                throw error("a \\u escape needs four hex digits");
                            }
                            v = v * 16 + d;
                        }
                        pos += 4;
                        sb.append((char) v);
                    }
                    default -> throw error("unknown escape \\" + e + " in a string");
                }
            }
            throw error("unexpected end of input in a string");
        }

        private Json number() throws ParseException {
            int start = pos;
            if (s.charAt(pos) == '-') {
                pos++;
            }
            if (pos < s.length() && s.charAt(pos) == '0') {
                pos++;
            } else if (!digits()) {
                throw error("a number needs digits");
            }
            if (pos < s.length() && s.charAt(pos) == '.') {
                pos++;
                if (!digits()) {
                    throw error("a number needs digits after its decimal point");
                }
            }
            if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
                pos++;
                if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                    pos++;
                }
                if (!digits()) {
                    throw error("a number needs digits in its exponent");
                }
            }
            return new Json(Kind.NUMBER, s.substring(start, pos), null, null);
        }

        private boolean digits() {
            int start = pos;
            while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
                pos++;
            }
            return pos > start;
        }
    }
}
