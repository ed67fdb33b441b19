#pragma once
// SIF, the Singularity Image Format that Apptainer runs (sylabs/sif, format version 01): a
// 128-byte global header, a table of fixed-size descriptors at DescriptorsOffset, then the data
// objects they point to. minicluster writes and reads three kinds of objects: the definition
// file, the JSON labels and the primary system partition (a squashfs filesystem). All integers
// are little-endian; strings are NUL-padded fixed arrays.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mc::containers {

enum class SifDataType : std::int32_t {
    Deffile = 0x4001,
    EnvVar = 0x4002,
    Labels = 0x4003,
    Partition = 0x4004,
    Signature = 0x4005,
    GenericJson = 0x4006,
    Generic = 0x4007,
};

inline constexpr std::int32_t kSifFsSquash = 1;
inline constexpr std::int32_t kSifPartPrimSys = 2;
inline constexpr std::size_t kSifHeaderSize = 128;
inline constexpr std::size_t kSifDescriptorSize = 585;

struct SifDescriptor {
    SifDataType type = SifDataType::Generic;
    std::uint32_t id = 0;
    std::uint32_t groupId = 0;
    std::int64_t offset = 0; // from the start of the file, bytes
    std::int64_t size = 0; // bytes of data, without alignment padding
    std::string name;
    std::int32_t fsType = 0; // partitions only
    std::int32_t partType = 0; // partitions only
};

struct SifImage {
    std::string id; // the image's UUID, 8-4-4-4-12 lowercase hex
    std::int64_t createdAt = 0; // Unix seconds
    std::int64_t modifiedAt = 0;
    std::string arch; // "amd64", ... from the header's arch code
    std::vector<SifDescriptor> descriptors;

    // The primary system partition (squashfs), if the image has one.
    const SifDescriptor *primaryPartition() const;
    const SifDescriptor *find(SifDataType type) const;
};

// Reads the header and descriptors of `path`. nullopt with `error` set when the file cannot be
// read ("no such file or directory") or is not a SIF ("image format not recognized").
std::optional<SifImage> readSif(const std::string &path, std::string &error);

// The bytes of one data object of `path` (a definition file, labels); empty on a read error.
std::string readSifObject(const std::string &path, const SifDescriptor &d);

struct SifObjectInput {
    SifDataType type = SifDataType::Generic;
    std::string name;
    std::string data; // inline data (definition file, labels), or
    std::string dataFile; // a file copied in (the squashfs partition)
    bool primaryPartition = false; // a squashfs primary system partition, 4096-aligned
};

// Writes a new SIF at `path` (through `path`.tmp, renamed when complete, so nothing half-written
// stays): a random UUID, created and modified now, the objects in order. False with `error`.
bool writeSif(
    const std::string &path, const std::vector<SifObjectInput> &objects, std::string &error);

} // namespace mc::containers
