#include "render/renderer.hpp"

#include "render/mesh_builder.hpp"
#include "render/wall_flow_colour.hpp"
#include "sim/simulation.hpp"
#include "sim/wall_flow.hpp"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace vfx {

static_assert(sizeof(glm::vec3) == 3 * sizeof(float), "particle arrays are uploaded as tightly packed vec3");

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// A key light fixed to the camera (upper left, in front) keeps every view readable.
const glm::vec3 kLightDirView = glm::normalize(glm::vec3(-0.45f, 0.7f, 0.55f));
const glm::vec4 kArrowColor{0.25f, 0.95f, 1.0f, 0.9f};
const glm::vec4 kGridColor{0.55f, 0.6f, 0.7f, 0.45f};
const glm::vec4 kContainerEdgeColor{0.6f, 0.82f, 1.0f, 0.4f};

template <typename T>
void uploadArray(GLuint vbo, const std::vector<T>& data) {
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    // Re-specifying the store each frame lets the driver orphan the old one instead of stalling.
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(data.size() * sizeof(T)), data.empty() ? nullptr : data.data(),
                 GL_STREAM_DRAW);
}

void floatAttribute(GLuint vbo, GLuint location, int components, GLuint divisor) {
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glEnableVertexAttribArray(location);
    glVertexAttribPointer(location, components, GL_FLOAT, GL_FALSE, 0, nullptr);
    glVertexAttribDivisor(location, divisor);
}

glm::mat4 bodyModel(const RigidBody& b) {
    return glm::translate(glm::mat4(1.0f), b.position) * glm::mat4_cast(b.orientation);
}

glm::vec3 bodyColor(const RigidBody& b, bool highlighted) {
    glm::vec3 c = b.isHole()                        ? glm::vec3(0.55f, 0.75f, 0.95f)
                  : b.motion == MotionKind::Dynamic ? glm::vec3(0.92f, 0.88f, 0.80f)
                                                    : glm::vec3(0.62f, 0.64f, 0.70f);
    return highlighted ? glm::min(c * 1.35f + glm::vec3(0.08f), glm::vec3(1.0f)) : c;
}

}  // namespace

Renderer::~Renderer() {
    releaseBodyMeshes();
    GLuint vaos[] = {emptyVao_, vortonVao_, tracerVao_, lineVao_};
    GLuint vbos[] = {quadVbo_,      vortonPosVbo_,     vortonRadiusVbo_, vortonScalarVbo_,
                     tracerPosVbo_, tracerDensityVbo_, lineVbo_};
    glDeleteVertexArrays(4, vaos);
    glDeleteBuffers(7, vbos);
    if (timerQueries_[0]) glDeleteQueries(3, timerQueries_);
}

void Renderer::init(const std::string& shaderDir) {
    background_.load(shaderDir, "background");
    vorton_.load(shaderDir, "vorton");
    tracer_.load(shaderDir, "tracer");
    line_.load(shaderDir, "line");
    body_.load(shaderDir, "body");
    createParticleBuffers();
    glGenQueries(3, timerQueries_);
}

void Renderer::createParticleBuffers() {
    glGenVertexArrays(1, &emptyVao_);

    const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    glGenVertexArrays(1, &vortonVao_);
    glGenBuffers(1, &quadVbo_);
    glGenBuffers(1, &vortonPosVbo_);
    glGenBuffers(1, &vortonRadiusVbo_);
    glGenBuffers(1, &vortonScalarVbo_);
    glBindVertexArray(vortonVao_);
    glBindBuffer(GL_ARRAY_BUFFER, quadVbo_);
    glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
    floatAttribute(quadVbo_, 0, 2, 0);
    floatAttribute(vortonPosVbo_, 1, 3, 1);
    floatAttribute(vortonRadiusVbo_, 2, 1, 1);
    floatAttribute(vortonScalarVbo_, 3, 1, 1);

    glGenVertexArrays(1, &tracerVao_);
    glGenBuffers(1, &tracerPosVbo_);
    glGenBuffers(1, &tracerDensityVbo_);
    glBindVertexArray(tracerVao_);
    floatAttribute(tracerPosVbo_, 0, 3, 0);
    floatAttribute(tracerDensityVbo_, 1, 1, 0);

    glGenVertexArrays(1, &lineVao_);
    glGenBuffers(1, &lineVbo_);
    glBindVertexArray(lineVao_);
    glBindBuffer(GL_ARRAY_BUFFER, lineVbo_);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex), reinterpret_cast<void*>(sizeof(glm::vec3)));
    glBindVertexArray(0);
}

void Renderer::releaseBodyMeshes() {
    for (BodyMesh& m : bodyMeshes_) {
        GLuint vaos[] = {m.vao, m.edgeVao};
        GLuint vbos[] = {m.vbo, m.edgeVbo};
        glDeleteVertexArrays(2, vaos);
        glDeleteBuffers(2, vbos);
    }
    bodyMeshes_.clear();
}

void Renderer::setBodies(const std::vector<RigidBody>& bodies) {
    releaseBodyMeshes();
    for (const RigidBody& body : bodies) {
        TriangleMesh mesh = makeShapeMesh(body.shape);
        BodyMesh gpu;
        glGenVertexArrays(1, &gpu.vao);
        glGenBuffers(1, &gpu.vbo);
        glBindVertexArray(gpu.vao);
        glBindBuffer(GL_ARRAY_BUFFER, gpu.vbo);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(mesh.vertices.size() * sizeof(MeshVertex)), mesh.vertices.data(),
                     GL_STATIC_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex), nullptr);
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex), reinterpret_cast<void*>(sizeof(glm::vec3)));
        gpu.triangleVertices = GLsizei(mesh.vertices.size());

        std::vector<LineVertex> edges;
        for (const glm::vec3& p : mesh.edgeLines) edges.push_back({p, kContainerEdgeColor});
        glGenVertexArrays(1, &gpu.edgeVao);
        glGenBuffers(1, &gpu.edgeVbo);
        glBindVertexArray(gpu.edgeVao);
        glBindBuffer(GL_ARRAY_BUFFER, gpu.edgeVbo);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(edges.size() * sizeof(LineVertex)), edges.data(), GL_STATIC_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex), nullptr);
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex), reinterpret_cast<void*>(sizeof(glm::vec3)));
        gpu.edgeVertices = GLsizei(edges.size());
        bodyMeshes_.push_back(gpu);
    }
    glBindVertexArray(0);
}

void Renderer::upload(const Simulation& sim, RenderSettings& s) {
    auto t0 = Clock::now();
    const Vortons& v = sim.vortons();
    const Tracers& t = sim.tracers();
    if (s.autoRange) {
        float maxDeviation = 0.0f;
        for (float d : v.density) maxDeviation = std::max(maxDeviation, std::abs(d));
        if (v.size() == 0)
            for (float d : t.density) maxDeviation = std::max(maxDeviation, std::abs(d));
        s.densityRange = maxDeviation > 1e-6f ? maxDeviation : 1.0f;
    }
    if (s.drawVortons) {
        uploadArray(vortonPosVbo_, v.position);
        uploadArray(vortonRadiusVbo_, v.radius);
        if (s.vortonColor == ColorMode::Density) {
            uploadArray(vortonScalarVbo_, v.density);
        } else {
            scalarScratch_.resize(v.size());
            float maxOmega = 0.0f;
            for (size_t i = 0; i < v.size(); ++i) {
                scalarScratch_[i] = glm::length(v.vorticity[i]);
                maxOmega = std::max(maxOmega, scalarScratch_[i]);
            }
            // Smoothed so the colours do not flicker; a negative range means "not set yet".
            if (s.autoRange && maxOmega > 0.0f)
                s.vorticityRange = s.vorticityRange < 0.0f ? maxOmega : 0.9f * s.vorticityRange + 0.1f * maxOmega;
            uploadArray(vortonScalarVbo_, scalarScratch_);
        }
        vortonCount_ = GLsizei(v.size());
    }
    if (s.drawTracers) {
        uploadArray(tracerPosVbo_, t.position);
        uploadArray(tracerDensityVbo_, t.density);
        tracerCount_ = GLsizei(t.size());
    }
    timings_.uploadMs = msSince(t0);
}

void Renderer::draw(const OrbitCamera& camera, const Simulation& sim, const RenderSettings& s) {
    auto t0 = Clock::now();
    readGpuTimer();
    GLuint query = timerQueries_[timerFrame_ % 3];
    glBeginQuery(GL_TIME_ELAPSED, query);

    glViewport(0, 0, camera.viewportWidth(), camera.viewportHeight());
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    drawBackground(s);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glClear(GL_DEPTH_BUFFER_BIT);

    if (s.drawBodies) drawBodies(camera, sim, s, false);
    if (s.drawVortons) drawVortons(camera, s);
    lineScratch_.clear();
    if (s.drawArrows) buildArrows(sim, camera, s);
    if (s.drawGridBounds) buildGridBounds(sim);
    if (s.drawWallFlow) buildWallFlowTicks(sim, s);
    if (!lineScratch_.empty()) drawLines(camera, lineScratch_);
    if (s.drawTracers) drawTracers(camera, s);
    if (s.drawContainers) drawBodies(camera, sim, s, true);

    glDepthMask(GL_TRUE);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glBindVertexArray(0);
    glEndQuery(GL_TIME_ELAPSED);
    ++timerFrame_;
    timings_.drawCpuMs = msSince(t0);
}

void Renderer::readGpuTimer() {
    if (timerFrame_ < 2) return;
    GLuint oldest = timerQueries_[(timerFrame_ - 2) % 3];
    GLint available = 0;
    glGetQueryObjectiv(oldest, GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available) return;
    GLuint64 ns = 0;
    glGetQueryObjectui64v(oldest, GL_QUERY_RESULT, &ns);
    timings_.drawGpuMs = double(ns) * 1e-6;
}

void Renderer::drawBackground(const RenderSettings& s) {
    glDisable(GL_DEPTH_TEST);
    background_.use();
    background_.set("topColor", s.backgroundTop);
    background_.set("bottomColor", s.backgroundBottom);
    glBindVertexArray(emptyVao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

void Renderer::drawBodies(const OrbitCamera& camera, const Simulation& sim, const RenderSettings& s, bool containers) {
    const std::vector<RigidBody>& bodies = sim.bodies();
    if (bodies.size() != bodyMeshes_.size()) return;  // meshes are rebuilt on the next setBodies
    body_.use();
    body_.set("view", camera.view());
    body_.set("projection", camera.projection());
    body_.set("lightDirView", kLightDirView);
    body_.set("opacity", s.containerOpacity);
    for (size_t i = 0; i < bodies.size(); ++i) {
        const RigidBody& b = bodies[i];
        if (b.isHole() != containers) continue;
        const BodyMesh& m = bodyMeshes_[i];
        body_.use();
        body_.set("model", bodyModel(b));
        body_.set("baseColor", bodyColor(b, int(i) == s.highlightBody));
        body_.set("glass", containers ? 1 : 0);
        glBindVertexArray(m.vao);
        if (!containers) {
            glDrawArrays(GL_TRIANGLES, 0, m.triangleVertices);
            continue;
        }
        // Glass: far walls first, then near walls, blended and without depth writes so the
        // fluid drawn before stays visible through them.
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
        glEnable(GL_CULL_FACE);
        glCullFace(GL_FRONT);
        glDrawArrays(GL_TRIANGLES, 0, m.triangleVertices);
        glCullFace(GL_BACK);
        glDrawArrays(GL_TRIANGLES, 0, m.triangleVertices);
        glDisable(GL_CULL_FACE);
        line_.use();
        line_.set("viewProjection", camera.projection() * camera.view());
        line_.set("model", bodyModel(b));
        line_.set("tint", glm::vec4(1.0f));
        glBindVertexArray(m.edgeVao);
        glDrawArrays(GL_LINES, 0, m.edgeVertices);
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
    }
}

void Renderer::drawVortons(const OrbitCamera& camera, const RenderSettings& s) {
    if (vortonCount_ == 0) return;
    vorton_.use();
    vorton_.set("view", camera.view());
    vorton_.set("projection", camera.projection());
    vorton_.set("radiusScale", s.vortonScale);
    vorton_.set("sizeByValue", s.sizeVortonsByValue ? 1 : 0);
    vorton_.set("colorMode", int(s.vortonColor));
    vorton_.set("colorRange", s.vortonColor == ColorMode::Density ? s.densityRange : s.vorticityRange);
    vorton_.set("lightDirView", kLightDirView);
    glBindVertexArray(vortonVao_);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, vortonCount_);
}

void Renderer::drawTracers(const OrbitCamera& camera, const RenderSettings& s) {
    if (tracerCount_ == 0) return;
    tracer_.use();
    tracer_.set("view", camera.view());
    tracer_.set("projection", camera.projection());
    tracer_.set("perspective", s.perspectiveTracers ? 1 : 0);
    tracer_.set("pointSize",
                s.perspectiveTracers ? s.tracerWorldSize : std::max(1.0f, s.tracerPointSize * s.pixelScale));
    tracer_.set("viewportHeight", float(camera.viewportHeight()));
    tracer_.set("minPointSize", 1.5f * s.pixelScale);
    tracer_.set("focusDistance", camera.pose().distance);
    tracer_.set("depthRange", s.sceneRadius);
    tracer_.set("colorRange", s.densityRange);
    tracer_.set("alpha", s.tracerAlpha);
    tracer_.set("softPoints", s.softTracers ? 1 : 0);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glEnable(GL_BLEND);
    if (s.tracerBlend == TracerBlend::Additive)
        glBlendFunc(GL_SRC_ALPHA, GL_ONE);
    else
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);  // dye is a volume: dots must not hide each other by depth
    glBindVertexArray(tracerVao_);
    glDrawArrays(GL_POINTS, 0, tracerCount_);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

void Renderer::drawLines(const OrbitCamera& camera, const std::vector<LineVertex>& lines) {
    line_.use();
    line_.set("viewProjection", camera.projection() * camera.view());
    line_.set("model", glm::mat4(1.0f));
    line_.set("tint", glm::vec4(1.0f));
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glBindVertexArray(lineVao_);
    uploadArray(lineVbo_, lines);
    glDrawArrays(GL_LINES, 0, GLsizei(lines.size()));
    glDisable(GL_BLEND);
}

void Renderer::buildArrows(const Simulation& sim, const OrbitCamera& camera, const RenderSettings& s) {
    // Sites and gradients, from the vortons or from the grid the last step computed.
    std::vector<std::pair<glm::vec3, glm::vec3>> sites;
    int stride = std::max(1, s.arrowStride);
    if (s.arrowSite == ArrowSite::Vortons) {
        const Vortons& v = sim.vortons();
        for (size_t i = 0; i < v.size(); i += size_t(stride)) sites.emplace_back(v.position[i], v.densityGradient[i]);
    } else {
        const UniformGrid<vec3>& grid = sim.densityGradientGrid();
        const GridShape& g = grid.shape();
        if (grid.size() != g.pointCount()) return;
        for (int z = 0; z < g.points.z; z += stride)
            for (int y = 0; y < g.points.y; y += stride)
                for (int x = 0; x < g.points.x; x += stride)
                    sites.emplace_back(g.pointPosition(x, y, z), grid.at(x, y, z));
    }
    float maxMagnitude = 0.0f;
    for (const auto& site : sites) maxMagnitude = std::max(maxMagnitude, glm::length(site.second));
    if (maxMagnitude <= 0.0f) return;
    glm::vec3 viewDir = camera.forward();
    for (const auto& [p, g] : sites) {
        float m = glm::length(g) / maxMagnitude;
        if (m < 0.02f) continue;  // skip the many sites where the fluid is uniform
        glm::vec3 dir = g / glm::length(g);
        glm::vec3 tip = p + dir * (s.arrowLength * m);
        glm::vec3 side = glm::cross(dir, viewDir);
        side = glm::length(side) > 1e-4f ? glm::normalize(side) : glm::vec3(0.0f);
        float head = 0.3f * s.arrowLength * m;
        glm::vec4 c = kArrowColor;
        c.w *= 0.35f + 0.65f * m;  // weak gradients stay faint
        lineScratch_.push_back({p, c});
        lineScratch_.push_back({tip, c});
        lineScratch_.push_back({tip, c});
        lineScratch_.push_back({tip - dir * head + side * head * 0.5f, c});
        lineScratch_.push_back({tip, c});
        lineScratch_.push_back({tip - dir * head - side * head * 0.5f, c});
    }
}

void Renderer::buildWallFlowTicks(const Simulation& sim, const RenderSettings& s) {
    const std::vector<WallFlowSample> samples = measureWallFlow(sim);
    float fastest = 0.0f;
    for (const vec3& u : sim.vortons().velocity) fastest = std::max(fastest, glm::length(u));
    for (const WallFlowSample& w : samples) fastest = std::max(fastest, w.normalSpeed);
    const float length = 0.03f * s.sceneRadius;
    for (const WallFlowSample& w : samples) {
        const glm::vec4 c = wallFlowColour(w.normalSpeed, fastest);
        lineScratch_.push_back({w.position, c});
        lineScratch_.push_back({w.position + w.normal * length, c});
    }
}

void Renderer::buildGridBounds(const Simulation& sim) {
    const GridShape& g = sim.velocityGrid().shape();
    glm::vec3 lo = g.minCorner, hi = g.maxCorner();
    for (int axis = 0; axis < 3; ++axis) {
        int a = (axis + 1) % 3, b = (axis + 2) % 3;
        for (int corner = 0; corner < 4; ++corner) {
            glm::vec3 p = lo, q;
            p[a] = (corner & 1) ? hi[a] : lo[a];
            p[b] = (corner & 2) ? hi[b] : lo[b];
            q = p;
            q[axis] = hi[axis];
            lineScratch_.push_back({p, kGridColor});
            lineScratch_.push_back({q, kGridColor});
        }
    }
}

}  // namespace vfx
