#include "mc/lessons/facts.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <glob.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace mc::lessons {

namespace fs = std::filesystem;

FileView::FileView(emu::ClusterLayout layout, std::string user, std::string account)
    : m_layout(std::move(layout))
    , m_user(std::move(user))
    , m_account(std::move(account))
    , m_mounts(emu::nodeMounts(m_layout, "login1", "/nonexistent"))
{ }

std::string FileView::laptopHome() const
{
    return m_layout.dir + "/workstation/home/" + m_user;
}

std::string FileView::expand(const std::string &pattern) const
{
    std::string p = pattern;
    std::string prefix;
    if (p.rfind("laptop:", 0) == 0) {
        prefix = "laptop:";
        p = p.substr(7);
    }
    std::string home = "/home/" + m_user;
    auto replaceLead = [&](const std::string &var, const std::string &value) {
        if (p == var || p.rfind(var + "/", 0) == 0) {
            p = value + p.substr(var.size());
        }
    };
    replaceLead("~", home);
    replaceLead("$HOME", home);
    replaceLead("$SCRATCH", "/scratch/" + m_user);
    replaceLead("$PROJECT", "/project/" + m_account + "/" + m_user);
    if (!p.empty() && p[0] != '/') {
        p = home + "/" + p;
    }
    return prefix + p;
}

std::string FileView::hostPath(const std::string &userPath) const
{
    std::string p = expand(userPath);
    if (p.rfind("laptop:", 0) == 0) {
        p = p.substr(7);
        std::string home = "/home/" + m_user;
        if (p == home || p.rfind(home + "/", 0) == 0) {
            return laptopHome() + p.substr(home.size());
        }
        return laptopHome() + "/.outside" + p; // nothing else of the laptop is modelled
    }
    // Walk the components, following links whose targets are paths inside the cluster.
    std::vector<std::string> parts;
    {
        std::stringstream ss(p);
        for (std::string part; std::getline(ss, part, '/');) {
            if (!part.empty() && part != ".") {
                parts.push_back(part);
            }
        }
    }
    std::string sandbox;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (parts[i] == "..") {
            auto slash = sandbox.rfind('/');
            sandbox = slash == std::string::npos ? "" : sandbox.substr(0, slash);
            continue;
        }
        std::string next = sandbox + "/" + parts[i];
        bool glob = parts[i].find_first_of("*?[") != std::string::npos;
        for (int hops = 0; !glob && hops < 8; ++hops) {
            std::string host = emu::hostPathFor(m_mounts, next);
            struct stat st { };
            if (::lstat(host.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
                break;
            }
            std::error_code ec;
            std::string target = fs::read_symlink(host, ec).string();
            if (ec || target.empty()) {
                break;
            }
            next = target[0] == '/' ? target : sandbox + "/" + target;
            next = fs::path(next).lexically_normal().string();
            if (next.size() > 1 && next.back() == '/') {
                next.pop_back();
            }
        }
        sandbox = next;
    }
    return emu::hostPathFor(m_mounts, sandbox.empty() ? "/" : sandbox);
}

std::vector<FileInfo> FileView::match(const std::string &pattern) const
{
    std::vector<FileInfo> out;
    std::string shown = expand(pattern);
    std::string host = hostPath(pattern);
    glob_t g{};
    if (::glob(host.c_str(), 0, nullptr, &g) == 0) {
        for (std::size_t i = 0; i < g.gl_pathc; ++i) {
            struct stat st { };
            if (::stat(g.gl_pathv[i], &st) != 0) {
                continue;
            }
            FileInfo f;
            f.hostPath = g.gl_pathv[i];
            f.isDir = S_ISDIR(st.st_mode);
            f.mtime = st.st_mtime;
            f.size = st.st_size;
            // Shown path: the user's pattern with its glob part replaced by what matched.
            f.path = shown;
            if (shown.find_first_of("*?[") != std::string::npos) {
                std::string name = fs::path(f.hostPath).filename().string();
                auto slash = shown.rfind('/');
                f.path = shown.substr(0, slash + 1) + name;
            }
            out.push_back(std::move(f));
        }
    }
    ::globfree(&g);
    return out;
}

std::string FileView::read(const std::string &hostPath, std::size_t maxBytes)
{
    std::ifstream in(hostPath, std::ios::binary);
    std::string out(maxBytes, '\0');
    in.read(out.data(), static_cast<std::streamsize>(maxBytes));
    out.resize(static_cast<std::size_t>(in.gcount()));
    return out;
}

} // namespace mc::lessons
