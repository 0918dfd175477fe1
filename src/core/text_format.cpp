#include "core/text_format.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace vfx {

namespace {

std::string nonFiniteText(double value) {
    if (std::isnan(value)) return "nan";
    return value > 0 ? "inf" : "-inf";
}

}  // namespace

std::string formatNumber(double value, int significantDigits) {
    if (!std::isfinite(value)) return nonFiniteText(value);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", significantDigits, value);
    return buf;
}

std::string formatFloat(float value) {
    if (!std::isfinite(value)) return nonFiniteText(value);
    char buf[32];
    const auto result = std::to_chars(buf, buf + sizeof buf, value);
    return std::string(buf, result.ptr);
}

std::string formatVec(const vec3& v) {
    return "[" + formatNumber(v.x) + ", " + formatNumber(v.y) + ", " + formatNumber(v.z) + "]";
}

std::string oneLine(const std::string& text, bool asciiOnly) {
    std::string out;
    for (unsigned char c : text) {
        char escape[8];
        if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20 || c == 0x7f) {
            std::snprintf(escape, sizeof escape, "\\u%04x", unsigned(c));
            out += escape;
        } else if (asciiOnly && c >= 0x80) {
            std::snprintf(escape, sizeof escape, "\\x%02X", unsigned(c));
            out += escape;
        } else {
            out += char(c);
        }
    }
    return out;
}

namespace {

// Length of the UTF-8 sequence starting at text[i], or 0 when it is not well formed
// (RFC 3629, table 3-7 of the Unicode standard).
size_t utf8SequenceLength(const std::string& text, size_t i) {
    const auto byte = [&](size_t k) { return i + k < text.size() ? unsigned((unsigned char)text[i + k]) : 0u; };
    const unsigned lead = byte(0);
    if (lead < 0x80) return 1;
    if (lead < 0xC2 || lead > 0xF4) return 0;
    const size_t length = lead <= 0xDF ? 2 : lead <= 0xEF ? 3 : 4;
    // The second byte's range excludes overlong forms (E0, F0), surrogates (ED) and > U+10FFFF (F4).
    const unsigned low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
    const unsigned high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
    if (byte(1) < low || byte(1) > high) return 0;
    for (size_t k = 2; k < length; ++k)
        if (byte(k) < 0x80 || byte(k) > 0xBF) return 0;
    return length;
}

}  // namespace

size_t firstInvalidUtf8(const std::string& text) {
    for (size_t i = 0; i < text.size();) {
        const size_t length = utf8SequenceLength(text, i);
        if (length == 0) return i;
        i += length;
    }
    return text.size();
}

std::string columnName(const std::string& text) {
    std::string out;
    for (unsigned char c : text) out += std::isalnum(c) ? char(std::tolower(c)) : '_';
    return out;
}

}  // namespace vfx
