#include "render/capture.hpp"

#include "render/gl.hpp"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <vector>

namespace vfx {

std::string saveFramebufferPng(const std::string& path, int width, int height) {
    std::vector<unsigned char> pixels(size_t(width) * size_t(height) * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    // OpenGL's first row is the bottom of the image; PNG's is the top.
    const size_t stride = size_t(width) * 3;
    std::vector<unsigned char> flipped(pixels.size());
    for (int y = 0; y < height; ++y)
        std::copy_n(&pixels[size_t(height - 1 - y) * stride], stride, &flipped[size_t(y) * stride]);
    std::error_code ec;
    std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    // Unfiltered rows: writing is faster (recording), and simple checkers decode them quickly.
    stbi_write_force_png_filter = 0;
    if (!stbi_write_png(path.c_str(), width, height, 3, flipped.data(), int(stride)))
        return path + ": cannot write the PNG (does the directory exist and is it writable?)";
    return "";
}

std::string FrameRecorder::start(const std::string& directory) {
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec) return directory + ": cannot create the recording directory: " + ec.message();
    directory_ = directory;
    next_ = 1;
    return "";
}

std::string FrameRecorder::capture(int width, int height) {
    if (!active()) return "";
    char name[32];
    std::snprintf(name, sizeof name, "frame_%05d.png", next_);
    std::string error = saveFramebufferPng((std::filesystem::path(directory_) / name).string(), width, height);
    if (!error.empty()) {
        stop();
        return error;
    }
    ++next_;
    return "";
}

}  // namespace vfx
