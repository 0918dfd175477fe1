#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

namespace vfx {
namespace {

namespace fs = std::filesystem;

std::string reason(int error) {
    std::string text = std::strerror(error ? error : EIO);
    if (error == ENOSPC || error == EDQUOT || error == EFBIG) text += " (is the disk full?)";
    return text;
}

// The mode the file would have had if written in place: the target's own, or the default for a
// new file (mkstemp makes it private).
mode_t modeFor(const std::string& target) {
    struct stat info {};
    if (::stat(target.c_str(), &info) == 0) return info.st_mode & 07777;
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

}  // namespace

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {
    const fs::path path(target_);
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    std::string pattern = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) throw FileWriteError("cannot create a file in \"" + dir.string() + "\": " + reason(errno));
    ::fchmod(fd, modeFor(target_));
    ::close(fd);
    temporary_ = name.data();
    out_.open(temporary_, std::ios::binary | std::ios::trunc);
    if (!out_) {
        const int error = errno;
        std::remove(temporary_.c_str());
        throw FileWriteError("cannot create a file in \"" + dir.string() + "\": " + reason(error));
    }
}

AtomicFile::~AtomicFile() {
    if (done_) return;
    out_.close();
    std::remove(temporary_.c_str());
}

void AtomicFile::fail(const std::string& why) {
    out_.close();
    std::remove(temporary_.c_str());
    done_ = true;
    throw FileWriteError("writing \"" + target_ + "\" failed: " + why + "; \"" + target_ + "\" is unchanged");
}

void AtomicFile::check() {
    if (done_ || written_) throw FileWriteError("writing \"" + target_ + "\" failed: the file was already closed");
    if (!out_) fail(reason(errno));
}

void AtomicFile::finishWriting() {
    if (written_) return;
    check();
    out_.flush();
    if (!out_) fail(reason(errno));
    out_.close();
    if (!out_) fail(reason(errno));
    // Sync before the rename, so a crash cannot leave the new name on an empty file.
    const int fd = ::open(temporary_.c_str(), O_RDONLY);
    if (fd < 0 || ::fsync(fd) != 0) {
        const int error = errno;
        if (fd >= 0) ::close(fd);
        fail(reason(error));
    }
    ::close(fd);
    written_ = true;
}

void AtomicFile::commitAs(const std::string& path) {
    finishWriting();
    if (std::rename(temporary_.c_str(), path.c_str()) != 0) fail(reason(errno));
    done_ = true;
}

}  // namespace vfx
