// vortonfx: the interactive demo. Opens a window that draws the simulation live while the
// TBB-threaded core steps each frame; see --help and the in-app help (H).
#include "app/demo/app.hpp"
#include "app/demo/options.hpp"
#include "ui/panels.hpp"

#include <vortonfx/version.hpp>

#include <cstdio>
#include <iostream>

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    vfx::DemoOptions options;
    try {
        options = vfx::parseDemoOptions(args);
    } catch (const vfx::OptionsError& e) {
        std::cerr << "vortonfx: " << e.what() << "\nRun vortonfx --help for usage.\n";
        return vfx::kExitBadInput;
    }
    if (options.showVersion) {
        std::cout << "vortonfx " << VORTONFX_VERSION << "\n";
        return vfx::kExitOk;
    }
    if (options.showHelp) {
        std::cout << vfx::demoUsage() << "\nIn the window:\n";
        int rows = 0;
        const char* const* keys = vfx::shortcutTable(&rows);
        for (int i = 0; i < rows; ++i) std::printf("  %-34s %s\n", keys[2 * i], keys[2 * i + 1]);
        return vfx::kExitOk;
    }
    vfx::DemoApp app(std::move(options), argc > 0 ? argv[0] : "");
    return app.run();
}
