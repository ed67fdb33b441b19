#include "mc/storage/tree_scan.h"

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mc::storage {

namespace {

struct Walk {
    TreeUsage usage;
    dev_t device = 0;
    const std::function<void(const FileEntry &)> *visit = nullptr;
};

void walkDir(Walk &w, int dirFd, const std::string &path)
{
    DIR *dir = ::fdopendir(dirFd);
    if (!dir) {
        ::close(dirFd);
        return;
    }
    while (dirent *e = ::readdir(dir)) {
        const char *name = e->d_name;
        if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) {
            continue;
        }
        struct stat st { };
        if (::fstatat(::dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            continue; // gone meanwhile
        }
        ++w.usage.entries;
        w.usage.bytes += static_cast<std::int64_t>(st.st_blocks) * 512;
        std::string child = path + "/" + name;
        if (S_ISDIR(st.st_mode)) {
            if (st.st_dev != w.device) {
                continue;
            }
            int fd = ::openat(::dirfd(dir), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (fd >= 0) {
                walkDir(w, fd, child);
            }
        } else if (w.visit && *w.visit) {
            (*w.visit)(FileEntry{child, static_cast<std::int64_t>(st.st_size),
                static_cast<std::int64_t>(st.st_atime), static_cast<std::int64_t>(st.st_ctime),
                static_cast<std::int64_t>(st.st_mtime)});
        }
    }
    ::closedir(dir);
}

} // namespace

TreeUsage scanTree(const std::string &root, const std::function<void(const FileEntry &)> &visit)
{
    Walk w;
    w.visit = &visit;
    struct stat st { };
    if (::lstat(root.c_str(), &st) != 0) {
        return w.usage;
    }
    w.usage.exists = true;
    w.usage.entries = 1;
    w.usage.bytes = static_cast<std::int64_t>(st.st_blocks) * 512;
    w.device = st.st_dev;
    if (!S_ISDIR(st.st_mode)) {
        return w.usage;
    }
    int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        walkDir(w, fd, root);
    }
    return w.usage;
}

} // namespace mc::storage
