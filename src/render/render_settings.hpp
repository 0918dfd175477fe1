#pragma once
// What the renderer draws and how; edited by the Render panel. Plain data, no OpenGL.
#include <glm/glm.hpp>

namespace vfx {

enum class ColorMode { Density = 0, Vorticity = 1 };
enum class ArrowSite { Vortons = 0, GridPoints = 1 };
enum class TracerBlend { Alpha = 0, Additive = 1 };

struct RenderSettings {
    bool drawVortons = false;
    bool drawTracers = true;
    bool drawArrows = false;
    bool drawBodies = true;
    bool drawContainers = true;
    bool drawGridBounds = false;
    // Each body's wall sample points as short ticks along the wall normal, coloured by the flow
    // through the wall there (sim/wall_flow.hpp, render/wall_flow_colour.hpp).
    bool drawWallFlow = false;

    float vortonScale = 0.5f;  // sphere radius as a multiple of the core radius sigma
    // Shrink each vorton with its colour value (|omega| or |deviation| over the colour range), so
    // calm fluid filling a tank does not hide the vortices moving in it.
    bool sizeVortonsByValue = false;
    ColorMode vortonColor = ColorMode::Density;
    bool perspectiveTracers = true;  // dots sized in world units (tracerWorldSize), else pixels
    float tracerWorldSize = 0.03f;   // dot diameter, m
    float tracerPointSize = 2.0f;    // pixels at a UI scale of 1
    float tracerAlpha = 0.35f;
    TracerBlend tracerBlend = TracerBlend::Alpha;
    bool softTracers = true;

    ArrowSite arrowSite = ArrowSite::Vortons;
    float arrowLength = 0.1f;  // world length of the longest arrow, m
    int arrowStride = 1;       // draw every n-th site

    bool autoRange = true;         // colour ranges follow the data
    float densityRange = 1.0f;     // |deviation| drawn fully blue/red
    float vorticityRange = 10.0f;  // |omega| drawn at the top of the ramp, 1/s

    float containerOpacity = 0.06f;
    glm::vec3 backgroundTop{0.16f, 0.19f, 0.25f};
    glm::vec3 backgroundBottom{0.03f, 0.035f, 0.05f};

    float sceneRadius = 1.0f;  // for the depth cue
    int highlightBody = -1;    // body under the mouse or being dragged
    float pixelScale = 1.0f;   // framebuffer pixels per screen unit (high-DPI)
};

// Milliseconds spent on the CPU per frame, and on the GPU when timer queries report back.
struct RenderTimings {
    double uploadMs = 0.0;
    double drawCpuMs = 0.0;
    double drawGpuMs = 0.0;  // from a query a frame or two old; 0 until one is available
};

}  // namespace vfx
