#include "mc/containers/image_builder.h"

#include "mc/containers/container_root.h"
#include "mc/containers/definition.h"
#include "mc/containers/host_process.h"
#include "mc/containers/sif.h"

#include <algorithm>
#include <array>
#include <ctime>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace mc::containers {

namespace {

constexpr std::array<std::string_view, 4> kNetworkSources
    = {"docker://", "library://", "oras://", "shub://"};

constexpr const char *kVersionLabel = "1.2.5";

std::string buildDate()
{
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char buf[128];
    std::strftime(buf, sizeof buf, "%A_%d_%B_%Y_%H:%M:%S_UTC", &tm);
    return buf;
}

std::string quoteJson(const std::string &s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else {
            out += c;
        }
    }
    return out + "\"";
}

void setLabel(std::vector<std::pair<std::string, std::string>> &labels, const std::string &key,
    const std::string &value)
{
    for (auto &[k, v] : labels) {
        if (k == key) {
            v = value;
            return;
        }
    }
    labels.emplace_back(key, value);
}

struct Staging {
    std::string dir;
    ~Staging()
    {
        if (!dir.empty()) {
            removeTree(dir);
        }
    }
};

// Runs `script` with /bin/sh -e -x inside `rootfs`, writable, as root of a user namespace,
// without network (the nodes have none).
int runInRoot(const std::string &rootfs, const std::string &script, const std::string &section)
{
    return runProgram({"bwrap", "--unshare-user", "--uid", "0", "--gid", "0", "--unshare-ipc",
        "--unshare-net", "--bind", rootfs, "/", "--bind", "/proc", "/proc", "--dev", "/dev",
        "--tmpfs", "/tmp", "--chdir", "/", "--setenv", "PATH",
        "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "--setenv", "HOME", "/root",
        "--", "/bin/sh", "-e", "-x", "-c", script, section});
}

bool isNetworkSource(const std::string &s)
{
    return std::any_of(kNetworkSources.begin(), kNetworkSources.end(),
        [&](std::string_view p) { return s.rfind(p, 0) == 0; });
}

} // namespace

std::string labelsJson(const std::vector<std::pair<std::string, std::string>> &labels)
{
    std::string out = "{\n";
    for (std::size_t i = 0; i < labels.size(); ++i) {
        out += "\t" + quoteJson(labels[i].first) + ": " + quoteJson(labels[i].second)
            + (i + 1 < labels.size() ? ",\n" : "\n");
    }
    return out + "}\n";
}

std::vector<std::pair<std::string, std::string>> parseLabelsJson(const std::string &json)
{
    std::vector<std::pair<std::string, std::string>> out;
    std::vector<std::string> strings;
    for (std::size_t i = 0; i < json.size(); ++i) {
        if (json[i] != '"') {
            continue;
        }
        std::string s;
        for (++i; i < json.size() && json[i] != '"'; ++i) {
            if (json[i] == '\\' && i + 1 < json.size()) {
                ++i;
                s += json[i] == 'n' ? '\n' : json[i] == 't' ? '\t' : json[i];
            } else {
                s += json[i];
            }
        }
        strings.push_back(s);
        if (strings.size() == 2) {
            out.emplace_back(strings[0], strings[1]);
            strings.clear();
        }
    }
    return out;
}

int buildImage(const ApptainerCall &call, const BuildLog &log)
{
    auto fatal = [&](const std::string &text) {
        log("FATAL", text);
        return 255;
    };
    const std::string target = absolutePath(call.image);
    const std::string &source = call.args.at(0);
    if (isNetworkSource(source)) {
        return fatal("building from " + source
            + " needs the network, which minicluster's nodes do not have: start from a shipped "
              "image instead (Bootstrap: localimage, From: /opt/minicluster/software/images/...)");
    }
    if (source.find("://") != std::string::npos) {
        return fatal("building from " + source.substr(0, source.find("://") + 3)
            + " sources is not supported by minicluster: build from a definition file with "
              "Bootstrap: localimage, a SIF or a sandbox directory");
    }
    if (pathExists(target) && !call.force) {
        return fatal("Build target '" + call.image
            + "' already exists. Use --force if you want to overwrite it");
    }
    const std::string src = absolutePath(source);
    if (!pathExists(src)) {
        return fatal("While performing build: unable to get conveyorPacker: invalid build "
                     "source "
            + source + ": no such file or directory");
    }
    char tmpl[] = "/tmp/build-temp-XXXXXX";
    Staging staging;
    if (!::mkdtemp(tmpl)) {
        return fatal("could not create a build directory in /tmp");
    }
    staging.dir = tmpl;
    const std::string rootfs = staging.dir + "/rootfs";
    Definition def;
    std::string error;
    std::string fromText;
    log("INFO", "Starting build...");
    std::vector<std::pair<std::string, std::string>> labels;
    std::string sifProbe;
    const bool sourceIsSif = !isDirectory(src) && readSif(src, sifProbe).has_value();
    if (isDirectory(src) || sourceIsSif) {
        if (sourceIsSif) {
            if (!extractSif(src, rootfs, error)) {
                return fatal(error);
            }
        } else if (runProgram({"cp", "-a", "--", src, rootfs}) != 0) {
            return fatal("while copying " + src);
        }
    } else {
        def = parseDefinition(readText(src), error);
        if (!error.empty()) {
            return fatal(
                "While performing build: while parsing definition: " + source + ": " + error);
        }
        std::string bootstrap = def.header["bootstrap"];
        std::transform(bootstrap.begin(), bootstrap.end(), bootstrap.begin(),
            [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        fromText = def.header["from"];
        if (bootstrap != "localimage" && bootstrap != "scratch") {
            return fatal("Bootstrap: " + def.header["bootstrap"]
                + " downloads its base image, which needs the network; minicluster's nodes "
                  "have none. Start from a shipped image instead: Bootstrap: localimage, From: "
                  "/opt/minicluster/software/images/debian-12.sif");
        }
        for (const auto &s : def.unsupportedSections) {
            return fatal("the %" + s + " section is not supported by minicluster");
        }
        if (bootstrap == "scratch") {
            makeDirs(rootfs);
        } else {
            const std::string from = absolutePath(fromText);
            log("INFO", "Verifying bootstrap image " + fromText);
            if (isDirectory(from)) {
                if (runProgram({"cp", "-a", "--", from, rootfs}) != 0) {
                    return fatal("while copying " + from);
                }
            } else if (!extractSif(from, rootfs, error)) {
                return fatal("While performing build: conveyor failed to get: " + error);
            }
        }
        labels = parseLabelsJson(readText(rootfs + "/.singularity.d/labels.json"));
        for (const auto &[from, to] : def.files) {
            log("INFO", "Copying " + from + " to " + to);
            const std::string dest = rootfs + "/" + to;
            makeDirs(dest.substr(0, dest.rfind('/')));
            if (runProgram({"cp", "-a", "--", absolutePath(from), dest}) != 0) {
                return fatal("While performing build: while copying files: " + from
                    + ": no such file or directory");
            }
        }
        if (!def.post.empty()) {
            log("INFO", "Running post scriptlet");
            int rc = runInRoot(rootfs, def.post, "post");
            if (rc != 0) {
                return fatal("While performing build: while running engine: exit status "
                    + std::to_string(rc));
            }
        }
    }
    const std::string meta = rootfs + "/.singularity.d";
    makeDirs(meta + "/env");
    makeDirs(meta + "/actions");
    if (!def.text.empty()) {
        writeText(meta + "/Singularity", def.text);
        setLabel(labels, "org.label-schema.usage.singularity.deffile.bootstrap",
            def.header["bootstrap"]);
        if (!fromText.empty()) {
            setLabel(labels, "org.label-schema.usage.singularity.deffile.from", fromText);
        }
    }
    if (!def.help.empty()) {
        log("INFO", "Adding help info");
        writeText(meta + "/runscript.help", def.help);
        setLabel(labels, "org.label-schema.usage", "/.singularity.d/runscript.help");
    }
    setLabel(labels, "org.label-schema.build-arch", "amd64");
    setLabel(labels, "org.label-schema.build-date", buildDate());
    setLabel(labels, "org.label-schema.schema-version", "1.0");
    setLabel(labels, "org.label-schema.usage.apptainer.version", kVersionLabel);
    if (!def.labels.empty()) {
        log("INFO", "Adding labels");
        for (const auto &[k, v] : def.labels) {
            setLabel(labels, k, v);
        }
    }
    writeText(meta + "/labels.json", labelsJson(labels));
    if (!def.environment.empty()) {
        log("INFO", "Adding environment to container");
        writeText(meta + "/env/90-environment.sh",
            "#!/bin/sh\n# Custom environment shell code should follow\n\n" + def.environment, 0755);
    }
    if (!def.runscript.empty()) {
        log("INFO", "Adding runscript");
        writeText(meta + "/runscript", "#!/bin/sh\n\n" + def.runscript, 0755);
    }
    if (!def.test.empty()) {
        log("INFO", "Adding testscript");
        writeText(meta + "/test", "#!/bin/sh\n\n" + def.test, 0755);
        log("INFO", "Running testscript");
        int rc = runInRoot(rootfs, def.test, "test");
        if (rc != 0) {
            return fatal(
                "While performing build: while running engine: exit status " + std::to_string(rc));
        }
    }
    if (call.sandbox) {
        log("INFO", "Creating sandbox directory...");
        removeTree(target);
        if (std::rename(rootfs.c_str(), target.c_str()) != 0
            && runProgram({"cp", "-a", "--", rootfs, target}) != 0) {
            return fatal("while creating sandbox " + call.image);
        }
        log("INFO", "Build complete: " + call.image);
        return 0;
    }
    log("INFO", "Creating SIF file...");
    const std::string squash = staging.dir + "/fs.squashfs";
    int rc = runProgram({"mksquashfs", rootfs, squash, "-noappend", "-all-root", "-no-progress",
                            "-quiet", "-no-xattrs"},
        true);
    if (rc == 127) {
        return fatal("mksquashfs is not installed (Debian package squashfs-tools): SIF images "
                     "cannot be built");
    }
    if (rc != 0) {
        return fatal(
            "While performing build: while creating squashfs: exit status " + std::to_string(rc));
    }
    std::vector<SifObjectInput> objects;
    if (!def.text.empty()) {
        objects.push_back({SifDataType::Deffile, "", def.text, "", false});
    }
    objects.push_back({SifDataType::Labels, "", labelsJson(labels), "", false});
    objects.push_back({SifDataType::Partition, "", "", squash, true});
    if (call.force) {
        removeTree(target);
    }
    if (!writeSif(target, objects, error)) {
        return fatal("While performing build: " + error);
    }
    ::chmod(target.c_str(), 0755);
    log("INFO", "Build complete: " + call.image);
    return 0;
}

} // namespace mc::containers
