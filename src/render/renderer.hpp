#pragma once
// OpenGL 3.3 core renderer: background, bodies, vortons (sphere impostors), density-gradient
// arrows, grid bounds, tracers (blended points) and containers (glass), in that order.
// It reads the simulation's arrays and uploads each one in bulk once per frame.
#include "render/camera.hpp"
#include "render/gl.hpp"
#include "render/render_settings.hpp"
#include "render/shader.hpp"

#include <string>
#include <vector>

namespace vfx {

class Simulation;
struct RigidBody;

class Renderer {
public:
    Renderer() = default;
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    // Compiles every program in shaderDir; throws ShaderError naming the file.
    void init(const std::string& shaderDir);
    // Rebuilds the meshes of the bodies (after a scene is built or reset).
    void setBodies(const std::vector<RigidBody>& bodies);
    // Copies particle data to the GPU; also updates automatic colour ranges in settings.
    void upload(const Simulation& sim, RenderSettings& settings);
    void draw(const OrbitCamera& camera, const Simulation& sim, const RenderSettings& settings);
    const RenderTimings& timings() const { return timings_; }

private:
    struct BodyMesh {
        GLuint vao = 0, vbo = 0, edgeVao = 0, edgeVbo = 0;
        GLsizei triangleVertices = 0, edgeVertices = 0;
    };
    struct LineVertex {
        glm::vec3 position;
        glm::vec4 color;
    };

    void createParticleBuffers();
    void releaseBodyMeshes();
    void drawBackground(const RenderSettings& s);
    void drawBodies(const OrbitCamera& camera, const Simulation& sim, const RenderSettings& s, bool containers);
    void drawVortons(const OrbitCamera& camera, const RenderSettings& s);
    void drawTracers(const OrbitCamera& camera, const RenderSettings& s);
    void drawLines(const OrbitCamera& camera, const std::vector<LineVertex>& lines);
    void buildArrows(const Simulation& sim, const OrbitCamera& camera, const RenderSettings& s);
    void buildGridBounds(const Simulation& sim);
    void buildWallFlowTicks(const Simulation& sim, const RenderSettings& s);
    void readGpuTimer();

    ShaderProgram background_, vorton_, tracer_, line_, body_;
    GLuint emptyVao_ = 0;
    GLuint vortonVao_ = 0, quadVbo_ = 0, vortonPosVbo_ = 0, vortonRadiusVbo_ = 0, vortonScalarVbo_ = 0;
    GLuint tracerVao_ = 0, tracerPosVbo_ = 0, tracerDensityVbo_ = 0;
    GLuint lineVao_ = 0, lineVbo_ = 0;
    GLsizei vortonCount_ = 0, tracerCount_ = 0;
    std::vector<float> scalarScratch_;
    std::vector<LineVertex> lineScratch_;
    std::vector<BodyMesh> bodyMeshes_;
    GLuint timerQueries_[3] = {0, 0, 0};
    int timerFrame_ = 0;
    RenderTimings timings_;
};

}  // namespace vfx
