#include "mc/containers/container_root.h"

#include "mc/containers/host_process.h"
#include "mc/containers/sif.h"

#include <cstdio>
#include <unistd.h>

namespace mc::containers {

bool extractSif(const std::string &sif, const std::string &dest, std::string &error)
{
    std::string why;
    auto image = readSif(sif, why);
    if (!image) {
        error = "could not open image " + sif + ": " + why;
        return false;
    }
    const SifDescriptor *part = image->primaryPartition();
    if (!part || part->fsType != kSifFsSquash) {
        error = "could not open image " + sif + ": no squashfs primary partition found";
        return false;
    }
    const int rc = runProgram({"unsquashfs", "-no-progress", "-quiet", "-no-xattrs", "-offset",
                                  std::to_string(part->offset), "-dest", dest, sif},
        true);
    if (rc == 127) {
        error = "unsquashfs is not installed (Debian package squashfs-tools): SIF images cannot "
                "be extracted";
        return false;
    }
    if (rc != 0) {
        removeTree(dest);
        error = "while extracting " + sif + ": unsquashfs failed (exit status " + std::to_string(rc)
            + ")";
        return false;
    }
    return true;
}

bool resolveImage(
    const std::string &image, const std::string &cacheDir, ImageRoot &root, std::string &error)
{
    root.image = absolutePath(image);
    if (!pathExists(root.image)) {
        error = "could not open image " + root.image + ": failed to retrieve path for " + image
            + ": lstat " + image + ": no such file or directory";
        return false;
    }
    if (isDirectory(root.image)) {
        root.rootfs = root.image;
        return true;
    }
    std::string why;
    auto sif = readSif(root.image, why);
    if (!sif) {
        error = "could not open image " + root.image + ": " + why;
        return false;
    }
    root.sif = true;
    const std::string dir = cacheDir + "/rootfs";
    root.rootfs = dir + "/" + sif->id + "-" + std::to_string(sif->modifiedAt);
    if (isDirectory(root.rootfs)) {
        return true;
    }
    if (!makeDirs(dir)) {
        error = "could not create the cache directory " + dir;
        return false;
    }
    const std::string tmp = root.rootfs + ".tmp" + std::to_string(::getpid());
    removeTree(tmp);
    if (!extractSif(root.image, tmp, error)) {
        return false;
    }
    if (std::rename(tmp.c_str(), root.rootfs.c_str()) != 0) {
        removeTree(tmp); // another process extracted it first
    }
    root.extractedNow = true;
    return true;
}

} // namespace mc::containers
