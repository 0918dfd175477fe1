#include "scene/scene_json.hpp"

#include "scene/scene.hpp"
#include "scene/scene_document.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace vfx {
namespace {

using json = nlohmann::json;

// nlohmann reports "... parse error at line L, column C: detail"; rephrase it in our format.
std::string describeParseError(const json::parse_error& e) {
    const std::string what = e.what();
    const size_t at = what.find("at line ");
    const size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
    if (colon == std::string::npos) return "byte " + std::to_string(e.byte) + ": malformed JSON: " + what;
    return what.substr(at + 3, colon - at - 3) + ": malformed JSON: " + what.substr(colon + 2);
}

// Follows the parser through nested objects and arrays so a duplicate key can be named by its
// JSON pointer.
class DuplicateKeyCheck {
public:
    explicit DuplicateKeyCheck(const std::string& source) : source_(source) {}

    bool operator()(int, json::parse_event_t event, json& parsed) {
        switch (event) {
            case json::parse_event_t::object_start:
                stack_.push_back(Frame{false, 0, "", {}});
                break;
            case json::parse_event_t::array_start:
                stack_.push_back(Frame{true, 0, "", {}});
                break;
            case json::parse_event_t::key:
                enterKey(parsed.get<std::string>());
                break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                stack_.pop_back();
                advance();
                break;
            case json::parse_event_t::value:
                advance();
                break;
        }
        return true;
    }

private:
    struct Frame {
        bool isArray = false;
        size_t index = 0;
        std::string key;
        std::set<std::string> keys;
    };

    void enterKey(const std::string& key) {
        Frame& top = stack_.back();
        top.key = key;
        if (!top.keys.insert(top.key).second)
            throw SceneError(source_ + ": " + currentPointer() +
                             ": duplicate key, each key may appear once per object");
    }
    void advance() {
        if (!stack_.empty() && stack_.back().isArray) ++stack_.back().index;
    }
    std::string currentPointer() const {
        std::string pointer;
        for (const Frame& frame : stack_)
            pointer = frame.isArray ? childPointer(pointer, frame.index) : childPointer(pointer, frame.key);
        return pointer;
    }

    const std::string& source_;
    std::vector<Frame> stack_;
};

}  // namespace

std::string readSceneText(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw SceneError(path + ": is a directory, expected a JSON scene file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SceneError(path + ": cannot open the scene file: " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw SceneError(path + ": cannot read the scene file: " + std::strerror(errno));
    return text.str();
}

json parseSceneJson(const std::string& text, const std::string& source) {
    DuplicateKeyCheck check(source);
    try {
        return json::parse(text, std::ref(check));
    } catch (const json::parse_error& e) {
        throw SceneError(source + ": " + describeParseError(e));
    }
}

}  // namespace vfx
