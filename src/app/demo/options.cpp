#include "app/demo/options.hpp"

#include <CLI/CLI.hpp>
#include <vortonfx/version.hpp>

#include <algorithm>
#include <charconv>

namespace vfx {

namespace {

constexpr int kMostFrames = 100000000;

// Base 10 only, with the range and the bad value in the message: CLI11's own integer conversion
// would read "010" as octal and "0x10" as hexadecimal. The text is rewritten in canonical form so
// that conversion, which runs after this check, sees plain decimal digits (hence transform, not
// check: CLI11 hands a check a copy of the text).
CLI::Validator wholeNumberFrom(int lo, int hi) {
    auto checkAndCanonicalise = [lo, hi](std::string& text) -> std::string {
        long value = 0;
        const char* end = text.data() + text.size();
        const auto result = std::from_chars(text.data(), end, value);
        if (text.empty() || result.ec != std::errc() || result.ptr != end || value < lo || value > hi)
            return "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got \"" +
                   text + "\"";
        text = std::to_string(value);
        return "";
    };
    return CLI::Validator(checkAndCanonicalise, "");  // the range is in the option's help text
}

// An integer flag whose help text states its range.
CLI::Option* addWholeNumber(CLI::App& cli, const std::string& flag, int& value, const std::string& typeName, int lo,
                            int hi, const std::string& help) {
    const std::string range = " [" + std::to_string(lo) + ".." + std::to_string(hi) + "]";
    return cli.add_option(flag, value, help + range)->type_name(typeName)->transform(wholeNumberFrom(lo, hi));
}

// A path flag given an empty value names nothing: an error, not "none".
CLI::Validator nonEmptyPath() {
    return CLI::Validator([](std::string& text) { return text.empty() ? "expected a path, got an empty one" : ""; },
                          "");
}

// One --show item; CLI11 has already split the list at its commas.
std::string checkShowItem(const std::string& item) {
    if (item.empty()) return "";  // "--show ''" names nothing: dropped after parsing
    const std::string name = item[0] == '-' ? item.substr(1) : item;
    const std::vector<std::string>& names = showItemNames();
    if (std::find(names.begin(), names.end(), name) != names.end()) return "";
    return "unknown item \"" + item + "\", expected one of: " + CLI::detail::join(names, ", ");
}

void addSceneOptions(CLI::App& cli, DemoOptions& o) {
    cli.add_option("--scene", o.scenePath, "Scene JSON to open (default scenes/dye_drop.json)")
        ->type_name("FILE")
        ->check(nonEmptyPath());
    cli.add_option("--set", o.overrides, "Override a scene field, e.g. --set tracers.0.count=1000000 (repeatable)")
        ->type_name("PATH=VALUE")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    addWholeNumber(cli, "--threads", o.threads, "N", 0, 1024, "Simulation threads (0 = all)");
}

void addRunOptions(CLI::App& cli, DemoOptions& o) {
    addWholeNumber(cli, "--frames", o.frames, "N", 1, kMostFrames, "Run N frames (then screenshot and/or quit)");
    cli.add_option("--screenshot", o.screenshotPath, "Save a PNG after the last frame")
        ->type_name("FILE")
        ->check(nonEmptyPath());
    cli.add_option("--record", o.recordDir, "Save every frame as DIR/frame_00001.png ...")
        ->type_name("DIR")
        ->check(nonEmptyPath());
    cli.add_flag("--quit", o.quit, "Quit after --frames");
    cli.add_flag("--paused", o.paused, "Start paused");
}

void addBakeOptions(CLI::App& cli, DemoOptions& o) {
    CLI::Option* vdb =
        cli.add_option("--vdb", o.vdbDir, "Bake OpenVDB frames DIR/<scene>_0001.vdb ... (and DIR/tracers/)")
            ->type_name("DIR")
            ->check(nonEmptyPath());
    addWholeNumber(cli, "--vdb-every", o.vdbEvery, "K", 1, kMostFrames,
                   "Simulation steps between baked frames (default 1)")
        ->needs(vdb);
    addWholeNumber(cli, "--vdb-frames", o.vdbFrames, "N", 1, kMostFrames,
                   "Stop baking after N frames (default: until quit)")
        ->needs(vdb);
}

void addWindowOptions(CLI::App& cli, DemoOptions& o) {
    cli.add_flag("--hide-ui", o.hideUi, "Draw the scene without panels");
    cli.add_flag_callback(
        "--no-vsync", [&o] { o.vsync = false; }, "Do not wait for vertical sync");
    addWholeNumber(cli, "--width", o.width, "W", 64, 16384, "Window width in screen units (default 1280)");
    addWholeNumber(cli, "--height", o.height, "H", 64, 16384, "Window height in screen units (default 800)");
    cli.add_option("--shaders", o.shaderDir, "Directory with the GLSL sources")
        ->type_name("DIR")
        ->check(nonEmptyPath());
    cli.add_option("--show", o.show,
                   "What to draw, e.g. vortons,-tracers,arrows ('-' turns an item off); items:\n" +
                       CLI::detail::join(showItemNames(), ", ") +
                       " (vorticity: colour vortons by |omega|; sized: shrink calm vortons)")
        ->type_name("LIST")
        ->expected(1)
        ->delimiter(',')
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->check(CLI::Validator([](std::string& item) { return checkShowItem(item); }, ""));
}

// The whole command line, writing into o. --help and --version are CLI11's own flags.
void describeDemoOptions(CLI::App& cli, DemoOptions& o) {
    // A flag given twice: its last value counts (a later --width overrides an earlier one).
    cli.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    addSceneOptions(cli, o);
    addRunOptions(cli, o);
    addBakeOptions(cli, o);
    addWindowOptions(cli, o);
    cli.set_version_flag("--version", "vortonfx " VORTONFX_VERSION);
}

// Rules that join flags together, checked once every flag is read.
void checkCombinations(const DemoOptions& o) {
    if (o.quit && o.frames == 0 && o.screenshotPath.empty())
        throw OptionsError("--quit: needs --frames N (how many frames to run before quitting)");
}

// CLI11 reports a value missing at the end of the line as "--frames: 1 required N missing".
// Only the last argument can lack its value, so the message can say so plainly.
std::string missingValueMessage(const std::vector<std::string>& args, const CLI::ArgumentMismatch& e) {
    const std::string what = e.what();
    const std::string flag = args.empty() ? "" : args.back().substr(0, args.back().find('='));
    const bool aboutLastFlag = !flag.empty() && what.rfind(flag + ": ", 0) == 0;
    const bool missing = what.size() >= 8 && what.compare(what.size() - 8, 8, " missing") == 0;
    return aboutLastFlag && missing ? flag + ": expected a value after it" : what;
}

}  // namespace

const std::vector<std::string>& showItemNames() {
    static const std::vector<std::string> names = {"vortons",   "tracers", "arrows",     "grid-arrows",
                                                   "grid",      "bodies",  "containers", "wall-flow",
                                                   "vorticity", "sized",   "help",       "ui"};
    return names;
}

std::string demoUsage() {
    CLI::App cli{"vortonfx: the interactive vortex-particle fluid demo.", "vortonfx"};
    DemoOptions unused;
    describeDemoOptions(cli, unused);
    return cli.help();
}

DemoOptions parseDemoOptions(const std::vector<std::string>& args) {
    DemoOptions o;
    CLI::App cli{"vortonfx", "vortonfx"};
    describeDemoOptions(cli, o);
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
    try {
        cli.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        o.showHelp = true;
        return o;
    } catch (const CLI::CallForVersion&) {
        o.showVersion = true;
        return o;
    } catch (const CLI::ArgumentMismatch& e) {
        throw OptionsError(missingValueMessage(args, e));
    } catch (const CLI::Error& e) {  // every other parse error already names the flag and value
        throw OptionsError(e.what());
    }
    o.show.erase(std::remove(o.show.begin(), o.show.end(), std::string()), o.show.end());
    checkCombinations(o);
    return o;
}

}  // namespace vfx
