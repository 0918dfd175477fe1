#pragma once
// A file that appears under its name only when complete. It is written to a hidden temporary
// file in the target's directory and renamed over the target once everything is written and
// synced, so a failed or interrupted write never destroys an earlier file of that name and
// never leaves a half-written one under it. The temporary is removed unless it is committed.
#include <fstream>
#include <stdexcept>
#include <string>

namespace vfx {

// A file that could not be created or written; the message names it and says why.
class FileWriteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class AtomicFile {
public:
    // Creates the temporary file now, so that a target that cannot be written fails before any
    // work is done. Throws FileWriteError "cannot create a file in "DIR": reason".
    explicit AtomicFile(std::string target);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    const std::string& target() const { return target_; }
    std::ostream& stream() { return out_; }
    // Throws FileWriteError "writing "TARGET" failed: reason" once a write has failed; the
    // target is untouched.
    void check();
    // Flushes, closes and syncs the temporary: after it only the rename is left, so several
    // files can be finished first and then committed together. Throws FileWriteError.
    void finishWriting();
    // Finishes writing (if not yet) and renames the temporary over the target. Throws FileWriteError.
    void commit() { commitAs(target_); }
    // The same under another name (what was written is kept beside the target).
    void commitAs(const std::string& path);

private:
    [[noreturn]] void fail(const std::string& why);

    std::string target_;
    std::string temporary_;
    std::ofstream out_;
    bool written_ = false;  // finishWriting done
    bool done_ = false;     // renamed or removed
};

}  // namespace vfx
