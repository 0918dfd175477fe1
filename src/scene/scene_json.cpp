#include "scene/scene_json.hpp"

#include "core/param_spec.hpp"
#include "core/text_format.hpp"
#include "scene/scene.hpp"
#include "scene/scene_document.hpp"
#include "scene/schema.hpp"

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cfloat>
#include <cstring>
#include <fstream>
#include <set>
#include <vector>

namespace vfx {
namespace {

using json = nlohmann::json;

// "line L, column C" of a byte offset (columns count bytes from 1, as nlohmann's do).
std::string lineAndColumn(const std::string& text, size_t offset) {
    size_t line = 1, column = 0;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 0;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column + 1);
}

// Offset of the first '[' or '{' (outside strings) that opens level `limit` + 1.
size_t firstTooDeep(const std::string& text, int limit) {
    int depth = 0;
    bool inString = false, escaped = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return text.size();
}

// nlohmann reports "... parse error at line L, column C: detail"; rephrase it in our format.
// The text it quotes ("last read: ...") may hold bytes that are not UTF-8: they are escaped.
std::string describeSyntaxError(const std::string& what, size_t offset, const std::string& text) {
    const size_t at = what.find("at line ");
    const size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
    if (colon == std::string::npos) return lineAndColumn(text, offset) + ": malformed JSON: " + oneLine(what, true);
    return what.substr(at + 3, colon - at - 3) + ": malformed JSON: " + oneLine(what.substr(colon + 2), true);
}

std::vector<std::string> pointerTokens(const std::string& pointer) {
    std::vector<std::string> tokens;
    for (size_t start = 1; start <= pointer.size();) {
        const size_t slash = pointer.find('/', start);
        const size_t end = slash == std::string::npos ? pointer.size() : slash;
        tokens.push_back(pointer.substr(start, end - start));
        start = end + 1;
    }
    return tokens;
}

// A number double precision cannot hold, in the words of the range errors of the key it is for:
// "must be >= 0 and <= 10, got 1e400, beyond double precision (...)".
std::string unrepresentableNumber(const std::string& pointer, const std::string& token, bool overflow) {
    const ParamSpec* spec = findParamSpecAlong(pointerTokens(pointer));
    std::string mustBe = "must be a finite number";
    if (spec && hasRange(*spec)) {
        const bool tuple = spec->type == ParamType::Vec3 || spec->tupleSize > 0;
        mustBe = std::string(tuple ? "each component must be " : "must be ") + rangeText(*spec);
    }
    std::string shown = token.size() > 40 ? token.substr(0, 37) + "..." : token;
    return mustBe + ", got " + shown +
           (overflow ? ", beyond double precision (largest magnitude " + formatNumber(DBL_MAX) + ")"
                     : ", too small for double precision (it would read as 0; write 0 or a larger value)");
}

// True when a number's text has a non-zero digit before its exponent (so 0.0 is zero, 1e-400 is not).
bool writesNonZero(const std::string& token) {
    for (char c : token) {
        if (c == 'e' || c == 'E') break;
        if (c >= '1' && c <= '9') return true;
    }
    return false;
}

// SAX handler that builds the document as nlohmann's own DOM parser does, and on the way
// bounds the nesting, rejects duplicate keys and numbers double precision cannot hold, and knows
// the JSON pointer of the value being read so that each message can name it.
class BoundedJsonBuilder {
public:
    using number_integer_t = json::number_integer_t;
    using number_unsigned_t = json::number_unsigned_t;
    using number_float_t = json::number_float_t;
    using string_t = json::string_t;
    using binary_t = json::binary_t;

    enum class Stop { None, Syntax, TooDeep, Value };

    // `base` is the pointer of the value parsed (a --set value's place in the scene).
    explicit BoundedJsonBuilder(std::string base) : base_(std::move(base)) {}

    // What stopped the parse: its kind, the message without the source, and for syntax errors
    // and overflow the byte offset where the parser stood.
    Stop stopped = Stop::None;
    std::string problem;
    size_t problemOffset = std::string::npos;
    json root;

    bool null() { return add(json(nullptr)); }
    bool boolean(bool v) { return add(json(v)); }
    bool number_integer(number_integer_t v) { return add(json(v)); }
    bool number_unsigned(number_unsigned_t v) { return add(json(v)); }
    bool number_float(number_float_t v, const string_t& token) {
        if (v == 0.0 && writesNonZero(token))
            return stop(Stop::Value,
                        shownPointer(valuePointer()) + ": " + unrepresentableNumber(valuePointer(), token, false));
        return add(json(v));
    }
    bool string(string_t& v) { return add(json(std::move(v))); }
    bool binary(binary_t& v) { return add(json::binary(std::move(v))); }
    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(string_t& k) {
        Frame& top = stack_.back();
        top.key = k;
        if (!top.keys.insert(k).second)
            return stop(Stop::Value,
                        shownPointer(valuePointer()) + ": duplicate key, each key may appear once per object");
        return true;
    }
    bool parse_error(std::size_t offset, const std::string& token, const nlohmann::detail::exception& e) {
        problemOffset = offset;
        if (e.id == 406)  // out_of_range: a number beyond double precision
            return stop(Stop::Value,
                        shownPointer(valuePointer()) + ": " + unrepresentableNumber(valuePointer(), token, true));
        return stop(Stop::Syntax, e.what());
    }

private:
    struct Frame {
        json* node;
        std::string key;  // objects: the key being read
        std::set<std::string> keys;
    };

    bool stop(Stop kind, const std::string& what) {
        stopped = kind;
        problem = what;
        return false;
    }
    // Pointer of the value the parser reads next (or the key it just read).
    std::string valuePointer() const {
        std::string pointer = base_;
        for (size_t i = 0; i < stack_.size(); ++i) {
            const Frame& f = stack_[i];
            // Below the top, the open container above is already this array's last element.
            const size_t index = f.node->size() - (i + 1 < stack_.size() ? 1 : 0);
            pointer = f.node->is_array() ? childPointer(pointer, index) : childPointer(pointer, f.key);
        }
        return pointer;
    }
    json* place(json value) {
        if (stack_.empty()) {
            root = std::move(value);
            return &root;
        }
        json& parent = *stack_.back().node;
        if (parent.is_array()) {
            parent.push_back(std::move(value));
            return &parent.back();
        }
        json& slot = parent[stack_.back().key];
        slot = std::move(value);
        return &slot;
    }
    bool add(json value) {
        place(std::move(value));
        return true;
    }
    bool open(json container) {
        if (stack_.size() >= size_t(kMaxJsonNesting))
            return stop(Stop::TooDeep, "arrays and objects nest deeper than " + std::to_string(kMaxJsonNesting) +
                                           " levels (a scene needs 5)");
        stack_.push_back(Frame{place(std::move(container)), "", {}});
        return true;
    }
    bool close() {
        stack_.pop_back();
        return true;
    }

    std::string base_;
    std::vector<Frame> stack_;
};

// What stopped a parse: its kind, where in the text ("line L, column C", or "" when the
// message names the value by its pointer alone) and what is wrong.
struct ParseProblem {
    BoundedJsonBuilder::Stop kind = BoundedJsonBuilder::Stop::None;
    std::string where;
    std::string what;
    std::string message() const { return where.empty() ? what : where + ": " + what; }
};

ParseProblem parseBounded(const std::string& text, const std::string& base, json& out) {
    using Stop = BoundedJsonBuilder::Stop;
    BoundedJsonBuilder builder(base);
    if (json::sax_parse(text, &builder, json::input_format_t::json, /*strict=*/true)) {
        out = std::move(builder.root);
        return {};
    }
    ParseProblem p{builder.stopped, "", builder.problem};
    if (builder.stopped == Stop::Syntax) {
        p.what = describeSyntaxError(builder.problem, builder.problemOffset, text);
    } else if (builder.stopped == Stop::TooDeep) {
        p.where = lineAndColumn(text, firstTooDeep(text, kMaxJsonNesting));
    } else if (builder.problemOffset != std::string::npos) {
        p.where = lineAndColumn(text, builder.problemOffset);
    }
    return p;
}

std::string megabytes(double bytes) { return formatNumber(bytes / double(1 << 20), 3) + " MB"; }

}  // namespace

std::string readSceneText(const std::string& path) {
    if (path.empty()) throw SceneError("SCENE: expected a JSON scene file, got an empty path");
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        throw SceneError(path + ": cannot open the scene file: " + std::strerror(errno));
    if (S_ISDIR(info.st_mode)) throw SceneError(path + ": is a directory, expected a JSON scene file");
    if (!S_ISREG(info.st_mode))
        throw SceneError(path + ": is not a regular file (a device, pipe or socket), expected a JSON scene file");
    if (size_t(info.st_size) > kMaxSceneFileBytes)
        throw SceneError(path + ": is " + megabytes(double(info.st_size)) + ", more than the " +
                         megabytes(double(kMaxSceneFileBytes)) +
                         " a scene file may be (a scene describes regions and bodies, not particles)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SceneError(path + ": cannot open the scene file: " + std::strerror(errno));
    std::string text(size_t(info.st_size), '\0');
    in.read(text.data(), std::streamsize(text.size()));
    if (in.bad()) throw SceneError(path + ": cannot read the scene file: " + std::strerror(errno));
    text.resize(size_t(in.gcount()));
    return text;
}

json parseSceneJson(const std::string& text, const std::string& source) {
    json document;
    const ParseProblem problem = parseBounded(text, "", document);
    if (problem.kind != BoundedJsonBuilder::Stop::None) throw SceneError(source + ": " + problem.message());
    return document;
}

bool parseOverrideJson(const std::string& text, const std::string& label, const std::string& pointer, json& out) {
    const ParseProblem problem = parseBounded(text, pointer, out);
    if (problem.kind == BoundedJsonBuilder::Stop::None) return true;
    if (problem.kind == BoundedJsonBuilder::Stop::Syntax) return false;
    throw SceneError(label + ": " + problem.what);
}

}  // namespace vfx
