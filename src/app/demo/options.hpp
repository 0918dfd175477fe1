#pragma once
// Command line of the demo, read with CLI11 like the runner's. Parsing is separate from main()
// so tests can feed it arguments.
#include <stdexcept>
#include <string>
#include <vector>

namespace vfx {

struct DemoOptions {
    std::string scenePath;               // "" = the default preset (scenes/dye_drop.json)
    std::vector<std::string> overrides;  // --set path=value, applied in order
    int frames = 0;                      // 0 = run until the window closes
    std::string screenshotPath;          // saved after the last of --frames (or on quit)
    std::string recordDir;               // frame_00001.png ... every frame
    std::string vdbDir;                  // OpenVDB bake <scene>_0001.vdb ... from the start
    int vdbEvery = 1;                    // steps between baked frames
    int vdbFrames = 0;                   // stop baking after this many frames; 0 = until quit
    std::string shaderDir;               // "" = search next to the executable and the sources
    bool quit = false;                   // quit after --frames
    bool paused = false;
    bool hideUi = false;  // draw the scene only (clean screenshots, tests)
    bool vsync = true;
    int width = 1280;
    int height = 800;
    int threads = 0;           // 0 = all hardware threads
    bool showHelp = false;     // -h/--help: print demoUsage() and exit
    bool showVersion = false;  // --version: print the version and exit
    // --show: render toggles applied after the scene loads, e.g. "vortons,-tracers,arrows".
    std::vector<std::string> show;
};

// Names --show accepts (each may be prefixed with '-' to turn it off).
const std::vector<std::string>& showItemNames();

class OptionsError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// args as in argv after the program name. Throws OptionsError with one line naming the flag
// and the bad value (or the unexpected argument).
DemoOptions parseDemoOptions(const std::vector<std::string>& args);
// CLI11's help text for the flags above.
std::string demoUsage();

}  // namespace vfx
