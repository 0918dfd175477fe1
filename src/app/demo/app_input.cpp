// Input: keyboard shortcuts (queued by a GLFW callback) and the mouse (orbit, pan, zoom, drag
// a body, stir the fluid), each ignored while ImGui wants it.
#include "app/demo/app.hpp"

#include "render/gl.hpp"  // before GLFW

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

namespace vfx {

Ray DemoApp::mouseRay() const { return camera_.rayThroughPixel(float(mouseX_), float(mouseY_)); }

void DemoApp::keyCallback(GLFWwindow* window, int key, int, int action, int mods) {
    if (action != GLFW_PRESS) return;
    auto* app = static_cast<DemoApp*>(glfwGetWindowUserPointer(window));
    if (app) app->keyQueue_.push_back({key, mods});
}

void DemoApp::handleKeys() {
    std::vector<KeyPress> presses;
    presses.swap(keyQueue_);
    if (ImGui::GetIO().WantTextInput) return;  // typing in a text field
    for (const KeyPress& press : presses) {
        const int key = press.key;
        if (press.mods & GLFW_MOD_CONTROL) {
            if (key == GLFW_KEY_Q) requests_.quit = true;
            continue;  // leave the other Ctrl+key combinations to ImGui (copy, paste ...)
        }
        switch (key) {
            case GLFW_KEY_SPACE:
                playing_ = !playing_;
                break;
            case GLFW_KEY_S:
                playing_ = false;
                stepOnce_ = true;
                break;
            case GLFW_KEY_R:
                requests_.reset = true;
                break;
            case GLFW_KEY_F12:
            case GLFW_KEY_P:
                requests_.screenshot = true;
                break;
            case GLFW_KEY_H:
            case GLFW_KEY_F1:
                showHelp_ = !showHelp_;
                break;
            case GLFW_KEY_F:
                requests_.frameScene = true;
                break;
            case GLFW_KEY_HOME:
            case GLFW_KEY_C:
                requests_.resetView = true;
                break;
            case GLFW_KEY_V:
                render_.drawVortons = !render_.drawVortons;
                break;
            case GLFW_KEY_T:
                render_.drawTracers = !render_.drawTracers;
                break;
            case GLFW_KEY_G:
                render_.drawArrows = !render_.drawArrows;
                break;
            case GLFW_KEY_B:
                render_.drawGridBounds = !render_.drawGridBounds;
                break;
            case GLFW_KEY_TAB:
                showUi_ = !showUi_;
                break;
            case GLFW_KEY_ESCAPE: {
                double now = glfwGetTime();
                if (showHelp_)
                    showHelp_ = false;
                else if (now - escapeTime_ < 1.0)
                    requests_.quit = true;
                else
                    model_.statusMessage = "Press Esc again to quit.";
                escapeTime_ = now;
                break;
            }
            default:
                break;
        }
    }
}

void DemoApp::handleMouse() {
    ImGuiIO& io = ImGui::GetIO();
    int winW = 1, winH = 1, fbW = 1, fbH = 1;
    glfwGetWindowSize(window_, &winW, &winH);
    glfwGetFramebufferSize(window_, &fbW, &fbH);
    float ratio = float(fbW) / float(std::max(winW, 1));
    double cx = 0, cy = 0;
    glfwGetCursorPos(window_, &cx, &cy);
    lastMouseX_ = mouseX_;
    lastMouseY_ = mouseY_;
    mouseX_ = cx * ratio;
    mouseY_ = cy * ratio;
    float dx = float(mouseX_ - lastMouseX_), dy = float(mouseY_ - lastMouseY_);

    if (drag_ != Drag::None) {
        bool held = io.MouseDown[0] || io.MouseDown[1] || io.MouseDown[2];
        if (!held) {
            drag_ = Drag::None;
            bodyDrag_ = {};
        }
    }
    if (drag_ == Drag::None && !io.WantCaptureMouse) {
        if (io.MouseClicked[0]) {
            if (io.KeyCtrl)
                drag_ = Drag::Stir;
            else if (io.KeyShift)
                drag_ = Drag::Pan;
            else if (BodyHit hit = pickBody(mouseRay(), sim_.bodies(), io.KeyAlt); hit.body >= 0) {
                drag_ = Drag::Body;
                bodyDrag_ = beginBodyDrag(hit, mouseRay(), camera_.forward(), sim_.bodies()[size_t(hit.body)]);
            } else {
                drag_ = Drag::Orbit;
            }
        } else if (io.MouseClicked[1] || io.MouseClicked[2]) {
            drag_ = Drag::Pan;
        }
        if (io.MouseWheel != 0.0f) camera_.zoom(io.MouseWheel);
    }
    switch (drag_) {
        case Drag::Orbit:
            camera_.orbit(dx / ratio, dy / ratio);
            break;
        case Drag::Pan:
            camera_.pan(dx, dy);
            break;
        case Drag::Stir:
            if (dx != 0.0f || dy != 0.0f) {
                glm::vec3 f = camera_.forward();
                glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0, 1, 0)));
                glm::vec3 up = glm::cross(right, f);
                float scale = camera_.worldPerPixel(camera_.pose().distance);
                StirStroke stroke;
                stroke.ray = mouseRay();
                stroke.velocity = (right * dx - up * dy) * scale / float(frameSeconds_);
                stroke.radius = stir_.radius;
                stroke.strength = stir_.strength;
                stirVortons(sim_.vortons(), stroke);
            }
            break;
        default:
            break;
    }
    // Highlight what a click would grab.
    if (drag_ == Drag::Body)
        render_.highlightBody = bodyDrag_.body;
    else if (!io.WantCaptureMouse)
        render_.highlightBody = pickBody(mouseRay(), sim_.bodies(), io.KeyAlt).body;
    else
        render_.highlightBody = -1;
}

}  // namespace vfx
