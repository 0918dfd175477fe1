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

std::string columnName(const std::string& text) {
    std::string out;
    for (unsigned char c : text) out += std::isalnum(c) ? char(std::tolower(c)) : '_';
    return out;
}

}  // namespace vfx
