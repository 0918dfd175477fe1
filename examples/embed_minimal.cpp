// Embedding vortonfx in an engine, smallest form: fill a Simulation by hand (no scene file),
// step it once per frame, read particle positions for your own renderer. Built and run by
// ctest twice: in the build tree (Example.EmbedMinimal) and as an outside project against the
// installed package (Install.ConsumerBuildsAgainstThePackage), so this file stays true.
//
//   CMake: find_package(vortonfx 0.2 CONFIG REQUIRED)
//          target_link_libraries(app PRIVATE vortonfx::vortonfx)
#include <vortonfx/sim/simulation.hpp>
#include <vortonfx/version.hpp>

#include <cmath>
#include <cstdio>

int main() {
    vfx::Simulation sim;
    sim.setThreads(0);  // 0 = all cores; results are identical for any thread count

    // Fluid parameters are plain run-time fields (docs/scene_format.md lists all of them).
    vfx::FluidParams& fluid = sim.fluid();
    fluid.gravity = vfx::vec3(0.0f, -9.8f, 0.0f);
    fluid.viscosity = 0.001f;

    // A ball of heavy dyed fluid: vortons on a lattice, each with its share of the volume.
    // Each vorton stands for a cube of fluid (its volume carries mass and circulation); its core
    // radius overlaps its neighbours' (fluid.core_overlap times the spacing).
    const float spacing = 0.05f, radius = 0.3f;
    const float volume = spacing * spacing * spacing;
    const float sigma = fluid.coreOverlap * spacing;
    for (float x = -radius; x <= radius; x += spacing)
        for (float y = -radius; y <= radius; y += spacing)
            for (float z = -radius; z <= radius; z += spacing)
                if (x * x + y * y + z * z <= radius * radius) {
                    sim.vortons().add(vfx::vec3(x, y, z), vfx::vec3(0.0f), sigma, /*density deviation*/ 0.5f, volume);
                    sim.editTracers().add(vfx::vec3(x, y, z) + 0.5f * spacing);  // what you would draw
                }

    for (int frame = 0; frame < 60; ++frame) {
        sim.step(1.0f / 60.0f);
        // Hand sim.tracers().position (and .density for colour) to your particle renderer here.
    }

    double sumY = 0.0;
    for (const vfx::vec3& p : sim.tracers().position) sumY += p.y;
    const double meanY = sumY / double(sim.tracers().size());
    std::printf(
        "vortonfx %s: %zu vortons, %zu tracers, 1 s simulated in %.2f ms per step; dyed fluid centre y = %.3f m\n",
        VORTONFX_VERSION, sim.vortons().size(), sim.tracers().size(), sim.lastStepMs(), meanY);
    // The heavy ball must have started to sink (exit code checked by ctest).
    return meanY < -0.05 && std::isfinite(meanY) ? 0 : 1;
}
