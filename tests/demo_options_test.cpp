// The demo's command line (app/demo/options.hpp): a scripted run, bad flags and numbers named with
// their ranges, repeatable and listed options, switches and defaults. These and the other demo
// tests build with the demo (VFX_BUILD_DEMO); the full window is tested end to end by
// scripts/check_demo_screens.py (ctest demo_screenshots, under Xvfb).
#include <gtest/gtest.h>

#ifdef VFX_HAVE_DEMO_CORE

#include "app/demo/options.hpp"

#include <string>
#include <vector>

namespace vfx {
namespace {

TEST(DemoOptions, ParsesAScriptedRun) {
    DemoOptions o = parseDemoOptions({"--scene", "scenes/x.json", "--frames", "60", "--screenshot", "out.png", "--quit",
                                      "--set", "tracers.0.count=1000", "--set=fluid.viscosity=0", "--threads", "2",
                                      "--width", "800", "--height", "600", "--paused", "--show", "vortons,-tracers"});
    EXPECT_EQ(o.scenePath, "scenes/x.json");
    EXPECT_EQ(o.frames, 60);
    EXPECT_EQ(o.screenshotPath, "out.png");
    EXPECT_TRUE(o.quit);
    EXPECT_TRUE(o.paused);
    EXPECT_EQ(o.threads, 2);
    EXPECT_EQ(o.width, 800);
    EXPECT_EQ(o.height, 600);
    EXPECT_EQ(o.overrides, (std::vector<std::string>{"tracers.0.count=1000", "fluid.viscosity=0"}));
    const DemoOptions bake = parseDemoOptions({"--vdb", "bake", "--vdb-every", "3", "--vdb-frames", "40"});
    EXPECT_EQ(bake.vdbDir, "bake");
    EXPECT_EQ(bake.vdbEvery, 3);
    EXPECT_EQ(bake.vdbFrames, 40);
    EXPECT_EQ(o.show, (std::vector<std::string>{"vortons", "-tracers"}));
}

// The message parseDemoOptions throws for args, or "no error".
std::string optionsErrorOf(const std::vector<std::string>& args) {
    try {
        parseDemoOptions(args);
    } catch (const OptionsError& e) {
        return e.what();
    }
    return "no error";
}

bool contains(const std::string& text, const std::string& fragment) { return text.find(fragment) != std::string::npos; }

TEST(DemoOptions, BadFlagsNameTheFlag) {
    EXPECT_PRED2(contains, optionsErrorOf({"--frames", "ten"}), "--frames");
    EXPECT_EQ(optionsErrorOf({"--frames"}), "--frames: expected a value after it");
    EXPECT_EQ(optionsErrorOf({"--paused", "--scene="}), "--scene: expected a value after it");
    EXPECT_PRED2(contains, optionsErrorOf({"--quit=maybe"}), "maybe");
    EXPECT_PRED2(contains, optionsErrorOf({"--vdb-frames", "3"}), "--vdb-frames requires --vdb");
    EXPECT_PRED2(contains, optionsErrorOf({"--vdb-every", "2"}), "--vdb-every requires --vdb");
    EXPECT_PRED2(contains, optionsErrorOf({"--quit"}), "--frames");
    // A path flag given an empty path is refused, not taken as "none".
    for (const char* flag : {"--scene", "--screenshot", "--record", "--vdb", "--shaders"})
        EXPECT_PRED2(contains, optionsErrorOf({flag, ""}), std::string(flag) + ": expected a path, got an empty one");
}

TEST(DemoOptions, EveryNumberFlagStatesItsRangeAndTheBadValue) {
    struct Range {
        const char* flag;
        int lo, hi;
    };
    for (const Range& r :
         {Range{"--frames", 1, 100000000}, Range{"--vdb-every", 1, 100000000}, Range{"--vdb-frames", 1, 100000000},
          Range{"--width", 64, 16384}, Range{"--height", 64, 16384}, Range{"--threads", 0, 1024}}) {
        const std::string range = "from " + std::to_string(r.lo) + " to " + std::to_string(r.hi);
        for (const std::string& bad : {std::to_string(r.lo - 1), std::to_string(r.hi + 1), std::string("ten"),
                                       std::string("1.5"), std::string("0x10"), std::string("")}) {
            SCOPED_TRACE(std::string(r.flag) + " " + bad);
            const std::string message = optionsErrorOf({"--vdb", "bake", r.flag, bad});
            EXPECT_PRED2(contains, message, std::string(r.flag) + ": expected a whole number " + range);
            EXPECT_PRED2(contains, message, "got \"" + bad + "\"");
        }
        SCOPED_TRACE(r.flag);
        EXPECT_EQ(optionsErrorOf({"--vdb", "bake", r.flag, std::to_string(r.lo)}), "no error");
        EXPECT_EQ(optionsErrorOf({"--vdb", "bake", r.flag, std::to_string(r.hi)}), "no error");
    }
}

TEST(DemoOptions, NumbersAreDecimal) {
    // A leading zero does not make a number octal.
    EXPECT_EQ(parseDemoOptions({"--frames", "010"}).frames, 10);
    EXPECT_EQ(parseDemoOptions({"--width=0800"}).width, 800);
}

TEST(DemoOptions, UnknownArgumentsAreNamed) {
    EXPECT_PRED2(contains, optionsErrorOf({"--bogus"}), "--bogus");
    EXPECT_PRED2(contains, optionsErrorOf({"--frames", "3", "stray.json"}), "stray.json");
    EXPECT_PRED2(contains, optionsErrorOf({"--vdb-every=2", "--vdb", "d", "-x"}), "-x");
}

TEST(DemoOptions, ShowTakesAListOfKnownItems) {
    const DemoOptions o = parseDemoOptions({"--show", "vortons,-tracers,,arrows", "--show=-ui", "--show", "-grid"});
    EXPECT_EQ(o.show, (std::vector<std::string>{"vortons", "-tracers", "arrows", "-ui", "-grid"}));
    for (const std::string& name : showItemNames()) {
        EXPECT_EQ(optionsErrorOf({"--show", name}), "no error");
        EXPECT_EQ(optionsErrorOf({"--show", "-" + name}), "no error");
    }
    const std::string message = optionsErrorOf({"--show", "vortons,sparkles"});
    EXPECT_PRED2(contains, message, "--show: unknown item \"sparkles\"");
    EXPECT_PRED2(contains, message, "grid-arrows");  // the names it knows
    EXPECT_PRED2(contains, optionsErrorOf({"--show", "-sparkles"}), "\"-sparkles\"");
}

TEST(DemoOptions, SetIsRepeatableAndKeepsItsOrder) {
    const DemoOptions o = parseDemoOptions({"--set", "a.b=1", "--set=c=x=y", "--frames", "2", "--set", "a.b=3"});
    EXPECT_EQ(o.overrides, (std::vector<std::string>{"a.b=1", "c=x=y", "a.b=3"}));
    EXPECT_TRUE(parseDemoOptions({}).overrides.empty());
}

TEST(DemoOptions, HelpAndVersionWinOverOtherFlags) {
    EXPECT_TRUE(parseDemoOptions({"--help"}).showHelp);
    EXPECT_TRUE(parseDemoOptions({"-h"}).showHelp);
    EXPECT_TRUE(parseDemoOptions({"--quit", "--help"}).showHelp);  // --quit alone would be an error
    EXPECT_TRUE(parseDemoOptions({"--version"}).showVersion);
    EXPECT_FALSE(parseDemoOptions({}).showHelp);
    const std::string usage = demoUsage();
    for (const char* flag : {"-h,--help", "--scene", "--set", "--frames", "--screenshot", "--record", "--vdb",
                             "--vdb-every", "--vdb-frames", "--quit", "--paused", "--hide-ui", "--no-vsync", "--width",
                             "--height", "--threads", "--shaders", "--show", "--version"})
        EXPECT_PRED2(contains, usage, flag);
}

TEST(DemoOptions, SwitchesAndDefaults) {
    const DemoOptions defaults = parseDemoOptions({});
    EXPECT_TRUE(defaults.vsync);
    EXPECT_FALSE(defaults.hideUi);
    EXPECT_EQ(defaults.width, 1280);
    EXPECT_EQ(defaults.height, 800);
    EXPECT_EQ(defaults.vdbEvery, 1);
    EXPECT_EQ(defaults.frames, 0);
    const DemoOptions o = parseDemoOptions({"--no-vsync", "--hide-ui", "--screenshot", "s.png", "--quit"});
    EXPECT_FALSE(o.vsync);
    EXPECT_TRUE(o.hideUi);
    EXPECT_TRUE(o.quit);  // a screenshot alone is reason enough to quit after the first frame
    EXPECT_EQ(parseDemoOptions({"--width", "640", "--width", "800"}).width, 800);  // the last one counts
}

}  // namespace
}  // namespace vfx

#else

TEST(Demo, NotBuilt) { GTEST_SKIP() << "configured with VFX_BUILD_DEMO=OFF"; }

#endif
