#pragma once
// Numbers in messages, tables and files, written one way everywhere.
#include "core/math.hpp"

#include <cstddef>
#include <string>

namespace vfx {

// printf's %g with this many significant digits (6 reads well in messages, 10 keeps a
// table exact enough to reproduce); nan and inf spelled out.
std::string formatNumber(double value, int significantDigits = 6);
// The shortest decimal that reads back as the same float (0.1f prints as 0.1).
std::string formatFloat(float value);
// "[x, y, z]" with each component as formatNumber.
std::string formatVec(const vec3& v);
// Text made to fit one line of a message: control characters written as escapes (\n, \t,
// \u001b), and with `asciiOnly` every byte above 127 as \xNN (for text that may not be UTF-8).
std::string oneLine(const std::string& text, bool asciiOnly = false);
// The index of the first byte that does not belong to well-formed UTF-8 (overlong forms,
// surrogates and code points past U+10FFFF included), or text.size() when all of it is.
size_t firstInvalidUtf8(const std::string& text);
// A name as a CSV column: lower case, every character but letters and digits made '_'
// ("Ball 2" -> "ball_2"), so different names can give the same column.
std::string columnName(const std::string& text);

}  // namespace vfx
