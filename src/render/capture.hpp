#pragma once
// Saving what was drawn: single screenshots and numbered frame sequences for video.
#include <string>

namespace vfx {

// Reads the current framebuffer (call after drawing, before swapping) and writes an RGB PNG.
// Returns "" on success, else a message naming the file.
std::string saveFramebufferPng(const std::string& path, int width, int height);

// Writes DIR/frame_00001.png, frame_00002.png ... one per call.
class FrameRecorder {
public:
    // Creates the directory if needed; returns "" or an error message.
    std::string start(const std::string& directory);
    void stop() { directory_.clear(); }
    bool active() const { return !directory_.empty(); }
    // Returns "" or an error message (recording stops on error).
    std::string capture(int width, int height);
    int framesWritten() const { return next_ - 1; }
    const std::string& directory() const { return directory_; }

private:
    std::string directory_;
    int next_ = 1;
};

}  // namespace vfx
