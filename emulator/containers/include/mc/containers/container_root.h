#pragma once
// Where an image's root filesystem is on disk. A sandbox directory is used in place. A SIF's
// squashfs partition is extracted once with unsquashfs (no FUSE in the node sandbox, so no
// squashfuse) into the user's cache, `<cache>/rootfs/<image id>-<modified time>`: the SIF's own
// UUID and modification time identify its contents without reading the whole file, and a
// rebuilt image gets a new UUID. Concurrent first uses extract into private directories and the
// first rename wins.

#include <string>

namespace mc::containers {

struct ImageRoot {
    std::string image; // absolute path of the image
    std::string rootfs; // absolute path of its root filesystem
    bool sif = false;
    bool extractedNow = false; // this call filled the cache
};

// `cacheDir`: $APPTAINER_CACHEDIR, else ~/.apptainer/cache. On failure `error` is Apptainer's
// message without its "FATAL:" prefix ("could not open image X: image format not recognized").
bool resolveImage(
    const std::string &image, const std::string &cacheDir, ImageRoot &root, std::string &error);

// Extracts a SIF's primary partition into `dest` (which must not exist). False with `error`.
bool extractSif(const std::string &sif, const std::string &dest, std::string &error);

} // namespace mc::containers
