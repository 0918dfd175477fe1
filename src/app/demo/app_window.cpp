// The window and its OpenGL 3.3 core context (GLFW, glad), and Dear ImGui on top of it.
#include "app/demo/app.hpp"

#include "render/gl.hpp"  // before GLFW
#include "render/renderer.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace vfx {

namespace {

void glfwErrorPrinter(int code, const char* text) { std::fprintf(stderr, "vortonfx: GLFW error %d: %s\n", code, text); }

}  // namespace

bool DemoApp::openWindow() {
    glfwSetErrorCallback(glfwErrorPrinter);
    if (!glfwInit()) {
        std::cerr << "vortonfx: cannot initialise GLFW (is there a display? try xvfb-run)\n";
        return false;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    std::string title = "vortonfx - " + (scene_.name.empty() ? scene_.path : scene_.name);
    window_ = glfwCreateWindow(options_.width, options_.height, title.c_str(), nullptr, nullptr);
    if (!window_) {
        std::cerr << "vortonfx: cannot open an OpenGL 3.3 core window\n";
        return false;
    }
    glfwMakeContextCurrent(window_);
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
        std::cerr << "vortonfx: cannot load the OpenGL 3.3 core functions\n";
        return false;
    }
    glfwSwapInterval(vsync_ ? 1 : 0);
    float xs = 1.0f, ys = 1.0f;
    glfwGetWindowContentScale(window_, &xs, &ys);
    contentScale_ = std::max(1.0f, std::max(xs, ys));
    return true;
}

void DemoApp::setupImGui() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // do not litter the working directory with imgui.ini
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 0.0f;
    style.FrameRounding = 3.0f;
    style.GrabRounding = 3.0f;
    style.WindowBorderSize = 0.0f;
    style.Colors[ImGuiCol_WindowBg].w = 0.90f;
    style.ScaleAllSizes(contentScale_);

    std::vector<std::string> fonts;
    if (std::string assets = findResourceDir(roots_, "assets/fonts"); !assets.empty())
        fonts.push_back(assets + "/ui.ttf");
    fonts.push_back("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
    bool loaded = false;
    for (const std::string& f : fonts) {
        std::error_code ec;
        if (!std::filesystem::exists(f, ec)) continue;
        loaded = io.Fonts->AddFontFromFileTTF(f.c_str(), std::round(15.0f * contentScale_)) != nullptr;
        if (loaded) break;
    }
    if (!loaded) {
        ImFontConfig config;
        config.SizePixels = std::round(13.0f * contentScale_);
        io.Fonts->AddFontDefault(&config);
    }
    // Ours first: ImGui's backend chains to callbacks installed before it.
    glfwSetWindowUserPointer(window_, this);
    glfwSetKeyCallback(window_, keyCallback);
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
}

void DemoApp::shutdown() {
    if (!window_) return;
    renderer_.reset();  // GL objects go while the context is alive
    if (ImGui::GetCurrentContext()) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    glfwDestroyWindow(window_);
    glfwTerminate();
    window_ = nullptr;
}

}  // namespace vfx
