// Capture: screenshots (P / F12, --screenshot), PNG frame recording and the OpenVDB bake of
// the Record control (--record, --vdb).
#include "app/demo/app.hpp"

#include "render/gl.hpp"  // before GLFW

#include <GLFW/glfw3.h>

#include <ctime>
#include <filesystem>
#include <iostream>

namespace vfx {

namespace {

std::string timestampedScreenshotName() {
    std::time_t now = std::time(nullptr);
    char name[64];
    std::strftime(name, sizeof name, "vortonfx_%Y%m%d_%H%M%S.png", std::localtime(&now));
    return name;
}

}  // namespace

// After drawing, before the buffers swap: the recorder's PNG frame, a requested screenshot and
// the --screenshot one at the last scripted frame.
void DemoApp::captureFrame() {
    if (recorder_.active()) {
        if (std::string error = recorder_.capture(camera_.viewportWidth(), camera_.viewportHeight()); !error.empty()) {
            model_.errorMessage = error;
            std::cerr << "vortonfx: " << error << "\n";
        }
    }
    if (requests_.screenshot) {
        takeScreenshot(timestampedScreenshotName());
        requests_.screenshot = false;
    }
    int lastFrame = options_.frames > 0 ? options_.frames : 1;
    if (!options_.screenshotPath.empty() && frameIndex_ == lastFrame) takeScreenshot(options_.screenshotPath);
}

void DemoApp::takeScreenshot(const std::string& path) {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    std::string error = saveFramebufferPng(path, w, h);
    if (error.empty()) {
        model_.statusMessage = "Screenshot " + path;
    } else {
        model_.errorMessage = error;
        std::cerr << "vortonfx: " << error << "\n";
        exitCode_ = kExitRuntime;
    }
}

std::string DemoApp::startRecording(const RecordRequest& request) {
    if (request.pngFrames) {
        if (std::string error = recorder_.start(request.directory); !error.empty()) return error;
    }
    if (request.vdbFrames) {
        if (std::string error = startBake(request.directory, request.vdbEvery, request.vdbFrameCount); !error.empty()) {
            recorder_.stop();
            return error;
        }
    }
    return "";
}

std::string DemoApp::startBake(const std::string& directory, int every, int frameCount) {
    VdbBakeSettings settings;
    settings.directory = directory;
    settings.name = std::filesystem::path(scene_.path).stem().string();
    if (settings.name.empty()) settings.name = "scene";
    settings.every = every;
    // Recording again into the same directory replaces the earlier bake (the status line says
    // so): its frames would otherwise mix with the new ones.
    settings.staleFrames = StaleFrames::Clear;
    try {
        baker_.emplace(settings);
    } catch (const BakeError& e) {
        return std::string("OpenVDB bake: ") + e.what();
    }
    if (baker_->framesCleared() > 0)
        model_.statusMessage = "Deleted " + std::to_string(baker_->framesCleared()) +
                               " frame file(s) of an earlier bake of this scene in " + directory;
    bakeFrameTarget_ = frameCount;
    return "";
}

void DemoApp::stopRecording(const std::string& reason) {
    std::string what;
    if (recorder_.active()) what += std::to_string(recorder_.framesWritten()) + " PNG frames";
    if (baker_)
        what += std::string(what.empty() ? "" : " and ") + std::to_string(baker_->framesWritten()) + " VDB frames";
    const std::string directory = baker_ ? baker_->settings().directory : recorder_.directory();
    if (!what.empty()) model_.statusMessage = reason + ": " + what + " in " + directory;
    recorder_.stop();
    baker_.reset();
    bakeFrameTarget_ = 0;
}

// Called after every simulation step: a bake follows simulation steps, not drawn frames.
void DemoApp::bakeIfDue() {
    if (!baker_ || !baker_->due(sim_.stepCount())) return;
    try {
        baker_->writeFrame(sim_);
    } catch (const BakeError& e) {
        model_.errorMessage = std::string("OpenVDB bake stopped: ") + e.what();
        std::cerr << "vortonfx: " << model_.errorMessage << "\n";
        stopRecording("Bake failed");
        return;
    }
    if (bakeFrameTarget_ > 0 && baker_->framesWritten() >= bakeFrameTarget_) stopRecording("Bake finished");
}

RecordingStatus DemoApp::recordingStatus() const {
    RecordingStatus s;
    s.active = recorder_.active() || baker_.has_value();
    if (recorder_.active()) {
        s.pngFrames = recorder_.framesWritten();
        s.directory = recorder_.directory();
    }
    if (baker_) {
        s.vdbFrames = baker_->framesWritten();
        s.vdbFrameCount = bakeFrameTarget_;
        s.directory = baker_->settings().directory;
    }
    return s;
}

}  // namespace vfx
