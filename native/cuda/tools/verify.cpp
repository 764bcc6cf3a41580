// cuzk_verify <verification_key.json> <public.json> <proof.json>: the answer of
// `snarkjs groth16 verify` for the files snarkjs and cuzk write, as a native program over the C ABI,
// so that bin/cuzk's verify answers without starting a JVM (whose start and first FFM call alone
// take longer than a tenth of snarkjs's command; see docs/benchmarks.md).
//
// It answers only for input it reads completely, and declines everything else, so that the Java
// command (io.cuzk.cli.VerifyCommand, with Groth16Verifier and SnarkjsJson), which bin/cuzk runs
// when this program declines, stays the one place that words errors:
//   exit 0, "OK!"            the proof is valid;
//   exit 1, "Invalid proof"  it is well formed (every point on its curve and in its subgroup, every
//                            signal below r, counts that fit the key) and does not verify;
//   exit 10, nothing printed declined: anything else. That includes every malformed file, and also
//                            well-formed input in the forms these files seldom take: text that is
//                            not ASCII, strings with escapes, duplicate names, numbers written as
//                            JSON numbers or in hexadecimal, points without z or at infinity, a
//                            curve named in any but snarkjs's spelling ("bn128", "bls12381").
// What it accepts is a subset of what the Java command accepts, with the same meaning: the
// tests give both the same files (snarkjs's valid and tampered proofs on both curves, malformed and
// mutated copies) and require this program's answer, when it gives one, to be the Java command's.
#include "cuzk/cuzk.h"

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int kValid = 0, kInvalid = 1, kDeclined = 10;

// Input this program does not answer for: the Java command reads it instead.
struct Declined {};

[[noreturn]] void decline() { throw Declined{}; }

void require(bool ok) {
    if (!ok) decline();
}

// A JSON value: strings and numbers keep their text (strings without escapes).
struct Value {
    enum Kind { OBJECT, ARRAY, STRING, NUMBER, LITERAL } kind = LITERAL;
    std::string text;
    std::vector<Value> items;
    std::vector<std::pair<std::string, Value>> fields;

    const Value* get(const char* name) const {
        for (const auto& f : fields)
            if (f.first == name) return &f.second;
        return nullptr;
    }
};

// RFC 8259 as JavaScript's JSON.parse reads it (nothing after the value, no comments, no trailing
// commas), declining what it does not need to read: escapes, control characters, nesting past 64,
// a name given twice.
class Parser {
public:
    explicit Parser(const std::string& s) : s_(s) {}

    Value document() {
        space();
        Value v = value(0);
        space();
        require(pos_ == s_.size());
        return v;
    }

private:
    const std::string& s_;
    size_t pos_ = 0;

    bool at(char c) const { return pos_ < s_.size() && s_[pos_] == c; }

    void space() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) pos_++;
    }

    Value value(int depth) {
        require(depth < 64 && pos_ < s_.size());
        char c = s_[pos_];
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        Value v;
        if (c == '"') {
            v.kind = Value::STRING;
            v.text = string();
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            v.kind = Value::NUMBER;
            v.text = number();
        } else {
            v.kind = Value::LITERAL;
            for (const char* word : {"true", "false", "null"}) {
                if (s_.compare(pos_, std::strlen(word), word) == 0) {
                    v.text = word;
                    pos_ += v.text.size();
                    return v;
                }
            }
            decline();
        }
        return v;
    }

    Value object(int depth) {
        Value v;
        v.kind = Value::OBJECT;
        pos_++;
        space();
        if (at('}')) {
            pos_++;
            return v;
        }
        while (true) {
            space();
            require(at('"'));
            std::string name = string();
            require(v.get(name.c_str()) == nullptr);
            space();
            require(at(':'));
            pos_++;
            space();
            v.fields.emplace_back(std::move(name), value(depth + 1));
            space();
            if (at(',')) {
                pos_++;
            } else {
                require(at('}'));
                pos_++;
                return v;
            }
        }
    }

    Value array(int depth) {
        Value v;
        v.kind = Value::ARRAY;
        pos_++;
        space();
        if (at(']')) {
            pos_++;
            return v;
        }
        while (true) {
            space();
            v.items.push_back(value(depth + 1));
            space();
            if (at(',')) {
                pos_++;
            } else {
                require(at(']'));
                pos_++;
                return v;
            }
        }
    }

    std::string string() {
        size_t start = ++pos_;
        while (pos_ < s_.size() && s_[pos_] != '"') {
            unsigned char c = static_cast<unsigned char>(s_[pos_]);
            require(c >= 0x20 && c != '\\');
            pos_++;
        }
        require(pos_ < s_.size());
        return s_.substr(start, pos_++ - start);
    }

    bool digits() {
        size_t start = pos_;
        while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') pos_++;
        return pos_ > start;
    }

    std::string number() {
        size_t start = pos_;
        if (at('-')) pos_++;
        if (at('0')) {
            pos_++;
        } else {
            require(digits());
        }
        if (at('.')) {
            pos_++;
            require(digits());
        }
        if (at('e') || at('E')) {
            pos_++;
            if (at('+') || at('-')) pos_++;
            require(digits());
        }
        return s_.substr(start, pos_ - start);
    }
};

// A file's text: a regular file of ASCII text, at most 64 MiB (the Java command words every other case).
std::string read_text(const char* path) {
    struct stat st;
    require(stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= (64 << 20));
    FILE* f = std::fopen(path, "rb");
    require(f != nullptr);
    std::string text(static_cast<size_t>(st.st_size), '\0');
    size_t got = text.empty() ? 0 : std::fread(&text[0], 1, text.size(), f);
    bool more = std::fgetc(f) != EOF;
    std::fclose(f);
    require(got == text.size() && !more);
    for (char c : text) require(static_cast<unsigned char>(c) < 0x80);
    return text;
}

// A curve's sizes and its encoding for the decoders (big-endian coordinates, as SnarkjsJson hands them over).
struct Curve {
    uint32_t id;
    size_t slot;  // bytes of one big-endian coordinate in the encoding
    uint32_t encoding;
    cuzk_curve_info info;
};

Curve curve_named(const Value* v) {
    require(v != nullptr && v->kind == Value::STRING);
    Curve c{};
    if (v->text == "bn128") {
        c.id = CUZK_CURVE_BN254;
        c.slot = 32;
        c.encoding = CUZK_ENCODING_EIP196;
    } else if (v->text == "bls12381") {
        c.id = CUZK_CURVE_BLS12_381;
        c.slot = 64;
        c.encoding = CUZK_ENCODING_EIP2537;
    } else {
        decline();
    }
    require(cuzk_get_curve_info(c.id, &c.info) == CUZK_OK);
    return c;
}

// A string of decimal digits as big-endian bytes of width bytes; declines a value that does not fit.
void decimal(const Value& v, uint8_t* out, size_t width) {
    require(v.kind == Value::STRING && !v.text.empty() && v.text.size() <= 200);
    std::memset(out, 0, width);
    for (char ch : v.text) {
        require(ch >= '0' && ch <= '9');
        unsigned carry = static_cast<unsigned>(ch - '0');  // out = out * 10 + digit
        for (size_t i = width; i-- > 0;) {
            unsigned t = out[i] * 10u + carry;
            out[i] = static_cast<uint8_t>(t);
            carry = t >> 8;
        }
        require(carry == 0);
    }
}

bool is_one(const uint8_t* b, size_t width) {
    for (size_t i = 0; i + 1 < width; i++)
        if (b[i] != 0) return false;
    return b[width - 1] == 1;
}

bool is_zero(const uint8_t* b, size_t width) {
    for (size_t i = 0; i < width; i++)
        if (b[i] != 0) return false;
    return true;
}

// Finite points in snarkjs's projective form with z = 1, gathered in the curve's encoding and
// decoded together with every check (canonical, on the curve, in the subgroup).
class Points {
public:
    Points(const Curve& c, uint32_t group) : c_(c), group_(group) {}

    size_t add(const Value* v) {
        require(v != nullptr && v->kind == Value::ARRAY && v->items.size() == 3);
        std::vector<uint8_t> z(c_.slot);
        if (group_ == CUZK_G1) {
            put(v->items[0]);
            put(v->items[1]);
            decimal(v->items[2], z.data(), z.size());
            require(is_one(z.data(), z.size()));
        } else {
            for (const Value& pair : v->items) require(pair.kind == Value::ARRAY && pair.items.size() == 2);
            // EIP-197 puts each coordinate's imaginary part first, EIP-2537 its real part
            int first = c_.encoding == CUZK_ENCODING_EIP196 ? 1 : 0;
            for (int i = 0; i < 2; i++) {
                put(v->items[i].items[first]);
                put(v->items[i].items[1 - first]);
            }
            std::vector<uint8_t> z1(c_.slot);
            decimal(v->items[2].items[0], z.data(), z.size());
            decimal(v->items[2].items[1], z1.data(), z1.size());
            require(is_one(z.data(), z.size()) && is_zero(z1.data(), z1.size()));
        }
        return count_++;
    }

    // The decoded points, native layout; declines unless every one passes every check.
    std::vector<uint64_t> decode() const {
        cuzk_codec_config config{};
        config.curve = c_.id;
        config.group = group_;
        config.encoding = c_.encoding;
        config.checks = CUZK_CHECK_ALL;
        config.threads = 1;
        config.count = count_;
        std::vector<uint64_t> out((count_ * bytes() + 7) / 8);
        require(cuzk_points_decode(&config, encoded_.data(), out.data(), nullptr) == CUZK_OK);
        return out;
    }

    size_t bytes() const { return group_ == CUZK_G1 ? c_.info.g1_affine_bytes : c_.info.g2_affine_bytes; }

private:
    const Curve& c_;
    uint32_t group_;
    size_t count_ = 0;
    std::vector<uint8_t> encoded_;

    void put(const Value& coordinate) {
        size_t at = encoded_.size();
        encoded_.resize(at + c_.slot);
        decimal(coordinate, encoded_.data() + at, c_.slot);
    }
};

// "protocol" absent or "groth16".
void require_groth16(const Value& root) {
    const Value* p = root.get("protocol");
    require(p == nullptr || (p->kind == Value::STRING && p->text == "groth16"));
}

// A pointer to point i of a native-layout array.
const uint8_t* at(const std::vector<uint64_t>& points, size_t bytes, size_t i) {
    return reinterpret_cast<const uint8_t*>(points.data()) + i * bytes;
}

int verify(const char* vk_path, const char* public_path, const char* proof_path) {
    std::string vk_text = read_text(vk_path), public_text = read_text(public_path), proof_text = read_text(proof_path);
    Value vk = Parser(vk_text).document(), pub = Parser(public_text).document(), proof = Parser(proof_text).document();

    // the key
    require(vk.kind == Value::OBJECT);
    require_groth16(vk);
    Curve c = curve_named(vk.get("curve"));
    const Value* ic = vk.get("IC");
    require(ic != nullptr && ic->kind == Value::ARRAY && !ic->items.empty() && ic->items.size() <= 100000);
    size_t n_public = ic->items.size() - 1;
    if (const Value* np = vk.get("nPublic")) {
        require(np->kind == Value::NUMBER && np->text == std::to_string(n_public));
    }
    Points g1(c, CUZK_G1), g2(c, CUZK_G2);
    for (const Value& p : ic->items) g1.add(&p);  // 0 .. n_public
    size_t alpha = g1.add(vk.get("vk_alpha_1"));
    size_t beta = g2.add(vk.get("vk_beta_2")), gamma = g2.add(vk.get("vk_gamma_2")), delta = g2.add(vk.get("vk_delta_2"));

    // the proof: on the key's curve; a "curve" field, if any, spelt as snarkjs spells that curve
    require(proof.kind == Value::OBJECT);
    require_groth16(proof);
    if (const Value* named = proof.get("curve")) require(named->kind == Value::STRING && named->text == vk.get("curve")->text);
    size_t a = g1.add(proof.get("pi_a")), b = g2.add(proof.get("pi_b")), cc = g1.add(proof.get("pi_c"));

    // the public signals: as many as the key has, each below r
    require(pub.kind == Value::ARRAY && pub.items.size() == n_public);
    std::vector<uint8_t> signals_be(32 * (n_public ? n_public : 1));
    for (size_t i = 0; i < n_public; i++) decimal(pub.items[i], signals_be.data() + 32 * i, 32);
    std::vector<uint64_t> signals(4 * (n_public ? n_public : 1));
    if (n_public > 0) {
        cuzk_codec_config sc{};
        sc.curve = c.id;
        sc.encoding = c.encoding;
        sc.checks = CUZK_CHECK_CANONICAL;
        sc.threads = 1;
        sc.count = n_public;
        require(cuzk_scalars_decode(&sc, signals_be.data(), signals.data(), nullptr) == CUZK_OK);
    }

    std::vector<uint64_t> p1 = g1.decode(), p2 = g2.decode();
    const size_t b1 = g1.bytes(), b2 = g2.bytes(), w1 = (b1 + 7) / 8;

    // L = IC[0] + sum s_i IC[i + 1]: the multiples, then their sum one addition at a time
    std::vector<uint64_t> l(w1), term(w1 * (n_public ? n_public : 1));
    std::memcpy(l.data(), at(p1, b1, 0), b1);
    if (n_public > 0) {
        std::vector<uint64_t> bases(w1 * n_public);
        for (size_t i = 0; i < n_public; i++) std::memcpy(reinterpret_cast<uint8_t*>(bases.data()) + i * b1, at(p1, b1, i + 1), b1);
        require(cuzk_point_op(c.id, CUZK_G1, CUZK_POINT_MUL_SUBGROUP, bases.data(), signals.data(), term.data(), n_public) == CUZK_OK);
        for (size_t i = 0; i < n_public; i++) {
            require(cuzk_point_op(c.id, CUZK_G1, CUZK_POINT_ADD, l.data(), reinterpret_cast<uint8_t*>(term.data()) + i * b1, l.data(), 1) ==
                    CUZK_OK);
        }
    }

    // e(A, B) = e(alpha, beta) e(L, gamma) e(C, delta), as one product of four pairings against one
    std::vector<uint64_t> left(4 * w1), right(4 * ((b2 + 7) / 8));
    uint8_t* g1s = reinterpret_cast<uint8_t*>(left.data());
    uint8_t* g2s = reinterpret_cast<uint8_t*>(right.data());
    std::memcpy(g1s, at(p1, b1, a), b1);
    std::memcpy(g1s + b1, at(p1, b1, alpha), b1);
    std::memcpy(g1s + 2 * b1, l.data(), b1);
    std::memcpy(g1s + 3 * b1, at(p1, b1, cc), b1);
    require(cuzk_point_op(c.id, CUZK_G1, CUZK_POINT_NEG, g1s + b1, nullptr, g1s + b1, 3) == CUZK_OK);
    std::memcpy(g2s, at(p2, b2, b), b2);
    std::memcpy(g2s + b2, at(p2, b2, beta), b2);
    std::memcpy(g2s + 2 * b2, at(p2, b2, gamma), b2);
    std::memcpy(g2s + 3 * b2, at(p2, b2, delta), b2);
    uint32_t one = 0;
    require(cuzk_pairing_check(c.id, g1s, g2s, 4, nullptr, nullptr, 0, nullptr, &one) == CUZK_OK);
    return one ? kValid : kInvalid;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) return kDeclined;
    try {
        int answer = verify(argv[1], argv[2], argv[3]);
        // the answer counts only once it is written: a failed write declines (the Java command says why)
        if (std::fputs(answer == kValid ? "OK!\n" : "Invalid proof\n", stdout) == EOF || std::fflush(stdout) != 0) return kDeclined;
        return answer;
    } catch (const Declined&) {
        return kDeclined;
    } catch (...) {  // std::bad_alloc and the like: the Java command answers
        return kDeclined;
    }
}
