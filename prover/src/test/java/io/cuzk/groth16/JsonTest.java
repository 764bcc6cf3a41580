package io.cuzk.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The snarkjs files' JSON reader against Jackson's (strict: nothing after the value). */
class JsonTest {
    private static final ObjectMapper JACKSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS); // exact values to compare

    /** Jackson's tree, or null where Jackson refuses the text. */
    private static JsonNode jackson(String s) {
        try {
            JsonNode n = JACKSON.readTree(s);
            return n == null || n.isMissingNode() ? null : n;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static Json ours(String s) {
        try {
            return Json.parse(s);
        } catch (Json.ParseException e) {
            return null;
        }
    }

    private static void assertSame(JsonNode j, Json o, String where) {
        if (j.isObject()) {
            assertTrue(o.isObject(), where);
            assertEquals(j.size(), o.size(), where);
            for (Iterator<Map.Entry<String, JsonNode>> it = j.properties().iterator(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                assertSame(e.getValue(), o.get(e.getKey()), where + "." + e.getKey());
            }
        } else if (j.isArray()) {
            assertTrue(o.isArray(), where);
            assertEquals(j.size(), o.size(), where);
            for (int i = 0; i < j.size(); i++) {
                assertSame(j.get(i), o.get(i), where + "[" + i + "]");
            }
        } else if (j.isTextual()) {
            assertTrue(o.isTextual(), where);
            assertEquals(j.asText(), o.asText(), where);
        } else if (j.isNumber()) {
            assertEquals(j.isIntegralNumber(), o.isIntegralNumber(), where + " " + o.asText());
            assertEquals(0, j.decimalValue().compareTo(new BigDecimal(o.asText())), where);
            assertEquals(j.canConvertToInt() && j.isIntegralNumber(), o.canConvertToInt(), where);
            if (o.canConvertToInt()) {
                assertEquals(j.asInt(), o.asInt(), where);
            }
        } else {
            assertEquals(j.asText(), o.asText(), where); // true, false, null
            assertFalse(o.isTextual() || o.isArray() || o.isObject(), where);
        }
    }

    private static void agree(String s) {
        JsonNode j = jackson(s);
        Json o = ours(s);
        if (j == null) {
            assertNull(o, "Jackson refuses " + s);
        } else {
            assertTrue(o != null, "Jackson reads " + s);
            assertSame(j, o, s);
            assertSame(j, ours(o.toString()), "written back: " + o); // toString is JSON again
        }
    }

    @Test
    void agreesWithJacksonOnWrittenCases() {
        String[] cases = {"{}", "[]", "  [ 1 , 2 ]  ", "{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"e\"}}", "\"x\"", "0", "-0", "12.5e-3",
            "1E+9", "-12", "2147483648", "-2147483648", "[\"\\u00e9\\n\\t\\\"\\\\\\/\"]", "{\"a\":1,\"a\":2}", "\n\n{\n\"curve\": \"bn128\"\n}\n",
            // refused
            "", "   ", "{", "[1,]", "{\"a\":1,}", "{a:1}", "[1 2]", "01", "1.", ".5", "-", "1e", "[\"a\nb\"]", "tru", "nulls", "{} x", "[1]]",
            "{\"a\" 1}", "'a'", "[\"\\x\"]", "[\"\\u12\"]", "\"abc", "+1", "NaN", "[1,2", "{\"a\":}"};
        for (String s : cases) {
            agree(s);
        }
    }

    @Test
    void agreesWithJacksonOnRandomDocuments() {
        Random rnd = new Random(41);
        String alphabet = "{}[],:\"\\ 0123456789-+.eEtrufalsn\nabx";
        for (int t = 0; t < 20000; t++) {
            StringBuilder sb = new StringBuilder();
            int len = 1 + rnd.nextInt(14);
            for (int i = 0; i < len; i++) {
                sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            agree(sb.toString());
        }
    }

    @Test
    void namesTheLineAndRefusesDeepNesting() {
        Json.ParseException e = assertThrows(Json.ParseException.class, () -> Json.parse("{\n\"a\": [1,\n2,,3]}"));
        assertEquals(3, e.line());
        assertTrue(e.getMessage().contains("','"), e.getMessage());
        Json.ParseException deep = assertThrows(Json.ParseException.class, () -> Json.parse("[".repeat(5000) + "]".repeat(5000)));
        assertTrue(deep.getMessage().contains("nested more than"), deep.getMessage());
        assertEquals(Json.MAX_DEPTH - 1, depth("[".repeat(Json.MAX_DEPTH - 1) + "]".repeat(Json.MAX_DEPTH - 1)));
    }

    private static int depth(String s) {
        try {
            Json j = Json.parse(s);
            int d = 0;
            while (j != null && j.isArray()) {
                d++;
                j = j.get(0);
            }
            return d;
        } catch (Json.ParseException e) {
            return -1;
        }
    }
}
