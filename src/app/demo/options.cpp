#include "app/demo/options.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>

namespace vfx {

namespace {

int parseInt(const std::string& flag, const std::string& text, int lo, int hi) {
    char* end = nullptr;
    long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || value < lo || value > hi)
        throw OptionsError(flag + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                           "], got '" + text + "'");
    return int(value);
}

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    size_t start = 0;
    while (start <= text.size()) {
        size_t comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        if (comma > start) items.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

}  // namespace

const std::vector<std::string>& showItemNames() {
    static const std::vector<std::string> names = {"vortons", "tracers", "arrows", "grid-arrows", "grid", "bodies",
                                                   "containers", "vorticity", "help", "ui"};
    return names;
}

std::string demoUsage() {
    return "usage: vortonfx [options]\n"
           "  --scene FILE        scene JSON to open (default scenes/dye_drop.json)\n"
           "  --set PATH=VALUE    override a scene field, e.g. --set tracers.0.count=1000000 (repeatable)\n"
           "  --frames N          run N frames (then screenshot and/or quit)\n"
           "  --screenshot FILE   save a PNG after the last frame\n"
           "  --record DIR        save every frame as DIR/frame_00001.png ...\n"
           "  --vdb DIR           bake OpenVDB frames DIR/<scene>_0001.vdb ... (and DIR/tracers/)\n"
           "  --vdb-every K       simulation steps between baked frames (default 1)\n"
           "  --vdb-frames N      stop baking after N frames (default: bake until quit)\n"
           "  --quit              quit after --frames\n"
           "  --paused            start paused\n"
           "  --hide-ui           draw the scene without panels\n"
           "  --no-vsync          do not wait for vertical sync\n"
           "  --width W --height H  window size in screen units (default 1280x800)\n"
           "  --threads N         simulation threads (0 = all)\n"
           "  --shaders DIR       directory with the GLSL sources\n"
           "  --show LIST         what to draw, e.g. vortons,-tracers,arrows (also grid-arrows, grid,\n"
           "                      bodies, containers, vorticity = colour vortons by |omega|, help, ui)\n"
           "  --version           print the version and exit\n"
           "  -h, --help          this text\n";
}

DemoOptions parseDemoOptions(const std::vector<std::string>& args) {
    DemoOptions o;
    using Setter = std::function<void(const std::string&)>;
    const std::map<std::string, Setter> withValue = {
        {"--scene", [&](const std::string& v) { o.scenePath = v; }},
        {"--set", [&](const std::string& v) { o.overrides.push_back(v); }},
        {"--frames", [&](const std::string& v) { o.frames = parseInt("--frames", v, 1, 100000000); }},
        {"--screenshot", [&](const std::string& v) { o.screenshotPath = v; }},
        {"--record", [&](const std::string& v) { o.recordDir = v; }},
        {"--vdb", [&](const std::string& v) { o.vdbDir = v; }},
        {"--vdb-every", [&](const std::string& v) { o.vdbEvery = parseInt("--vdb-every", v, 1, 100000000); }},
        {"--vdb-frames", [&](const std::string& v) { o.vdbFrames = parseInt("--vdb-frames", v, 1, 100000000); }},
        {"--shaders", [&](const std::string& v) { o.shaderDir = v; }},
        {"--show", [&](const std::string& v) {
             for (const std::string& item : splitList(v)) {
                 std::string name = item[0] == '-' ? item.substr(1) : item;
                 const auto& names = showItemNames();
                 if (std::find(names.begin(), names.end(), name) == names.end()) {
                     std::string known;
                     for (const std::string& n : names) known += " " + n;
                     throw OptionsError("--show: unknown item '" + name + "', expected one of:" + known);
                 }
                 o.show.push_back(item);
             }
         }},
        {"--width", [&](const std::string& v) { o.width = parseInt("--width", v, 64, 16384); }},
        {"--height", [&](const std::string& v) { o.height = parseInt("--height", v, 64, 16384); }},
        {"--threads", [&](const std::string& v) { o.threads = parseInt("--threads", v, 0, 1024); }},
    };
    const std::map<std::string, Setter> switches = {
        {"--quit", [&](const std::string&) { o.quit = true; }},
        {"--paused", [&](const std::string&) { o.paused = true; }},
        {"--hide-ui", [&](const std::string&) { o.hideUi = true; }},
        {"--no-vsync", [&](const std::string&) { o.vsync = false; }},
        {"--help", [&](const std::string&) { o.showHelp = true; }},
        {"--version", [&](const std::string&) { o.showVersion = true; }},
        {"-h", [&](const std::string&) { o.showHelp = true; }},
    };
    for (size_t i = 0; i < args.size(); ++i) {
        std::string flag = args[i], value;
        bool inlineValue = false;
        if (size_t eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = flag.substr(eq + 1);
            flag = flag.substr(0, eq);
            inlineValue = true;
        }
        if (auto it = withValue.find(flag); it != withValue.end()) {
            if (!inlineValue) {
                if (i + 1 >= args.size()) throw OptionsError(flag + ": expected a value after it");
                value = args[++i];
            }
            it->second(value);
        } else if (auto sw = switches.find(flag); sw != switches.end() && !inlineValue) {
            sw->second("");
        } else {
            throw OptionsError(args[i] + ": unknown option (see --help)");
        }
    }
    if ((o.vdbEvery != 1 || o.vdbFrames != 0) && o.vdbDir.empty())
        throw OptionsError(std::string(o.vdbFrames ? "--vdb-frames" : "--vdb-every") + ": needs --vdb DIR");
    if (o.quit && o.frames == 0 && o.screenshotPath.empty())
        throw OptionsError("--quit: needs --frames N (how many frames to run before quitting)");
    return o;
}

}  // namespace vfx
