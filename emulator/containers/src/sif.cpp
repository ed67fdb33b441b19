#include "mc/containers/sif.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>

namespace mc::containers {

namespace {

constexpr std::string_view kLaunch = "#!/usr/bin/env run-singularity\n";
constexpr std::string_view kMagic = "SIF_MAGIC";
constexpr std::int64_t kDescriptorsOffset = 4096;
constexpr std::int64_t kDescriptorCapacity = 48;
constexpr std::uint32_t kDefaultGroup = 0xf0000001U;
constexpr std::int64_t kPartitionAlignment = 4096;

// The header's architecture codes (only the ones a laptop may have).
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kArches
    = {{{"02", "amd64"}, {"04", "arm64"}, {"01", "386"}, {"06", "ppc64le"}}};

std::int64_t getInt(const unsigned char *p, int bytes)
{
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) {
        v = (v << 8) | p[i];
    }
    if (bytes == 4) {
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
    }
    return static_cast<std::int64_t>(v);
}

void putInt(unsigned char *p, std::int64_t value, int bytes)
{
    auto v = static_cast<std::uint64_t>(value);
    for (int i = 0; i < bytes; ++i) {
        p[i] = static_cast<unsigned char>(v & 0xffU);
        v >>= 8;
    }
}

std::string fixedString(const unsigned char *p, std::size_t n)
{
    std::size_t len = 0;
    while (len < n && p[len] != 0) {
        ++len;
    }
    return std::string(reinterpret_cast<const char *>(p), len);
}

std::string uuidText(const unsigned char *p)
{
    std::string s;
    constexpr const char *kHex = "0123456789abcdef";
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            s += '-';
        }
        s += kHex[p[i] >> 4];
        s += kHex[p[i] & 0xf];
    }
    return s;
}

std::array<unsigned char, 16> randomUuid()
{
    std::array<unsigned char, 16> id{};
    std::ifstream urandom("/dev/urandom", std::ios::binary);
    urandom.read(reinterpret_cast<char *>(id.data()), id.size());
    id[6] = static_cast<unsigned char>((id[6] & 0x0f) | 0x40); // version 4
    id[8] = static_cast<unsigned char>((id[8] & 0x3f) | 0x80); // RFC 4122 variant
    return id;
}

} // namespace

const SifDescriptor *SifImage::primaryPartition() const
{
    for (const auto &d : descriptors) {
        if (d.type == SifDataType::Partition && d.partType == kSifPartPrimSys) {
            return &d;
        }
    }
    return nullptr;
}

const SifDescriptor *SifImage::find(SifDataType type) const
{
    for (const auto &d : descriptors) {
        if (d.type == type) {
            return &d;
        }
    }
    return nullptr;
}

std::optional<SifImage> readSif(const std::string &path, std::string &error)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = std::strerror(errno);
        return std::nullopt;
    }
    std::array<unsigned char, kSifHeaderSize> h{};
    in.read(reinterpret_cast<char *>(h.data()), h.size());
    if (in.gcount() != static_cast<std::streamsize>(h.size())
        || fixedString(h.data() + 32, 10) != kMagic) {
        error = "image format not recognized";
        return std::nullopt;
    }
    SifImage image;
    const std::string arch = fixedString(h.data() + 45, 3);
    image.arch = "unknown";
    for (const auto &[code, name] : kArches) {
        if (arch == code) {
            image.arch = name;
        }
    }
    image.id = uuidText(h.data() + 48);
    image.createdAt = getInt(h.data() + 64, 8);
    image.modifiedAt = getInt(h.data() + 72, 8);
    const std::int64_t total = getInt(h.data() + 88, 8);
    const std::int64_t offset = getInt(h.data() + 96, 8);
    if (total < 0 || total > 4096 || offset < static_cast<std::int64_t>(kSifHeaderSize)) {
        error = "image format not recognized";
        return std::nullopt;
    }
    in.seekg(offset);
    std::vector<unsigned char> table(static_cast<std::size_t>(total) * kSifDescriptorSize);
    in.read(reinterpret_cast<char *>(table.data()), static_cast<std::streamsize>(table.size()));
    if (in.gcount() != static_cast<std::streamsize>(table.size())) {
        error = "image format not recognized";
        return std::nullopt;
    }
    for (std::int64_t i = 0; i < total; ++i) {
        const unsigned char *p = table.data() + static_cast<std::size_t>(i) * kSifDescriptorSize;
        if (p[4] == 0) { // not used
            continue;
        }
        SifDescriptor d;
        d.type = static_cast<SifDataType>(getInt(p, 4));
        d.id = static_cast<std::uint32_t>(getInt(p + 5, 4));
        d.groupId = static_cast<std::uint32_t>(getInt(p + 9, 4));
        d.offset = getInt(p + 17, 8);
        d.size = getInt(p + 25, 8);
        d.name = fixedString(p + 73, 128);
        if (d.type == SifDataType::Partition) {
            d.fsType = static_cast<std::int32_t>(getInt(p + 201, 4));
            d.partType = static_cast<std::int32_t>(getInt(p + 205, 4));
        }
        image.descriptors.push_back(d);
    }
    return image;
}

std::string readSifObject(const std::string &path, const SifDescriptor &d)
{
    std::ifstream in(path, std::ios::binary);
    std::string data(static_cast<std::size_t>(d.size), '\0');
    in.seekg(d.offset);
    in.read(data.data(), static_cast<std::streamsize>(data.size()));
    if (in.gcount() != static_cast<std::streamsize>(data.size())) {
        return {};
    }
    return data;
}

bool writeSif(
    const std::string &path, const std::vector<SifObjectInput> &objects, std::string &error)
{
    if (static_cast<std::int64_t>(objects.size()) > kDescriptorCapacity) {
        error = "insufficient descriptor capacity to add data object(s) to image";
        return false;
    }
    const std::string tmp = path + ".tmp";
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
        error = "could not open " + tmp + ": " + std::strerror(errno);
        return false;
    }
    const std::int64_t now = static_cast<std::int64_t>(std::time(nullptr));
    const std::int64_t descriptorsSize
        = kDescriptorCapacity * static_cast<std::int64_t>(kSifDescriptorSize);
    const std::int64_t dataOffset = kDescriptorsOffset + descriptorsSize;
    std::vector<unsigned char> table(static_cast<std::size_t>(descriptorsSize), 0);
    std::int64_t end = dataOffset;
    std::string arch = "00";
    out.seekp(dataOffset);
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const SifObjectInput &o = objects[i];
        std::int64_t at = end;
        if (o.primaryPartition) {
            at = (end + kPartitionAlignment - 1) / kPartitionAlignment * kPartitionAlignment;
            arch = "02";
        }
        out.seekp(at);
        std::int64_t size = 0;
        if (!o.dataFile.empty()) {
            std::ifstream in(o.dataFile, std::ios::binary);
            if (!in) {
                error = "could not read " + o.dataFile + ": " + std::strerror(errno);
                return false;
            }
            std::vector<char> buf(1 << 20);
            while (in) {
                in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
                out.write(buf.data(), in.gcount());
                size += in.gcount();
            }
        } else {
            out.write(o.data.data(), static_cast<std::streamsize>(o.data.size()));
            size = static_cast<std::int64_t>(o.data.size());
        }
        unsigned char *p = table.data() + i * kSifDescriptorSize;
        const auto type = o.primaryPartition ? SifDataType::Partition : o.type;
        putInt(p, static_cast<std::int32_t>(type), 4);
        p[4] = 1;
        putInt(p + 5, static_cast<std::int64_t>(i + 1), 4);
        putInt(p + 9, kDefaultGroup, 4);
        putInt(p + 17, at, 8);
        putInt(p + 25, size, 8);
        putInt(p + 33, at - end + size, 8);
        putInt(p + 41, now, 8);
        putInt(p + 49, now, 8);
        std::memcpy(p + 73, o.name.data(), std::min<std::size_t>(o.name.size(), 127));
        if (o.primaryPartition) {
            putInt(p + 201, kSifFsSquash, 4);
            putInt(p + 205, kSifPartPrimSys, 4);
            std::memcpy(p + 209, "02", 2);
        }
        end = at + size;
    }
    std::array<unsigned char, kSifHeaderSize> h{};
    std::memcpy(h.data(), kLaunch.data(), kLaunch.size());
    std::memcpy(h.data() + 32, kMagic.data(), kMagic.size());
    std::memcpy(h.data() + 42, "01", 2);
    std::memcpy(h.data() + 45, arch.data(), 2);
    const auto id = randomUuid();
    std::memcpy(h.data() + 48, id.data(), id.size());
    putInt(h.data() + 64, now, 8);
    putInt(h.data() + 72, now, 8);
    putInt(h.data() + 80, kDescriptorCapacity - static_cast<std::int64_t>(objects.size()), 8);
    putInt(h.data() + 88, kDescriptorCapacity, 8);
    putInt(h.data() + 96, kDescriptorsOffset, 8);
    putInt(h.data() + 104, descriptorsSize, 8);
    putInt(h.data() + 112, dataOffset, 8);
    putInt(h.data() + 120, end - dataOffset, 8);
    out.seekp(0);
    out.write(reinterpret_cast<const char *>(h.data()), h.size());
    out.seekp(kDescriptorsOffset);
    out.write(
        reinterpret_cast<const char *>(table.data()), static_cast<std::streamsize>(table.size()));
    out.close();
    if (!out || std::rename(tmp.c_str(), path.c_str()) != 0) {
        error = "could not write " + path + ": " + std::strerror(errno);
        std::remove(tmp.c_str());
        return false;
    }
    return true;
}

} // namespace mc::containers
