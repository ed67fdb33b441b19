#include "json_out.h"

#include "json_commands.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/slurm_version.h"

#include <cstdio>
#include <grp.h>
#include <map>
#include <memory>

namespace mc::cmd {
namespace {

using proto::Json;

void indent(std::string &out, int level)
{
    out.append(static_cast<std::size_t>(level) * 2, ' ');
}

void writeString(std::string &out, std::string_view text)
{
    proto::appendQuoted(out, text, true); // Slurm writes '/' as "\/"
}

void writeDouble(std::string &out, double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    const std::string_view text(buffer);
    out += text;
    if (text.find_first_of(".eEni") == std::string_view::npos) {
        out += ".0";
    }
}

void write(std::string &out, const Json &value, int level)
{
    if (value.isNull()) {
        out += "null";
    } else if (value.isBool()) {
        out += value.toBool() ? "true" : "false";
    } else if (value.isInt()) {
        out += std::to_string(value.toInt());
    } else if (value.isNumber()) {
        writeDouble(out, value.toDouble());
    } else if (value.isString()) {
        writeString(out, value.toString());
    } else if (value.isArray()) {
        out += "[\n";
        bool first = true;
        for (const auto &item : value.items()) {
            if (!first) {
                out += ",\n";
            }
            first = false;
            indent(out, level + 1);
            write(out, item, level + 1);
        }
        if (!first) {
            out += '\n';
        }
        indent(out, level);
        out += ']';
    } else if (value.isObject()) {
        out += "{\n";
        bool first = true;
        for (const auto &[key, member] : value.members()) {
            if (!first) {
                out += ",\n";
            }
            first = false;
            indent(out, level + 1);
            writeString(out, key);
            out += ": ";
            write(out, member, level + 1);
        }
        if (!first) {
            out += '\n';
        }
        indent(out, level);
        out += '}';
    } else {
        out += "null";
    }
}

} // namespace

std::string slurmJsonText(const Json &value)
{
    std::string out;
    write(out, value, 0);
    return out;
}

Json openapiResponse(std::string_view pluginType, std::string_view pluginName)
{
    Json plugin = Json::object();
    plugin.add("type", pluginType);
    plugin.add("name", pluginName);
    Json version = Json::object();
    version.add("major", sched::kSlurmMajor);
    version.add("micro", sched::kSlurmMicro);
    version.add("minor", sched::kSlurmMinor);
    Json slurm = Json::object();
    slurm.add("version", std::move(version));
    slurm.add("release", sched::kSlurmRelease);
    Json meta = Json::object();
    meta.add("plugin", std::move(plugin));
    meta.add("Slurm", std::move(slurm));
    Json response = Json::object();
    response.add("meta", std::move(meta));
    response.add("errors", Json::array());
    return response;
}

std::string tresMemory(std::int64_t mebibytes)
{
    static constexpr char kUnits[] = "MGTP";
    std::size_t unit = 0;
    while (mebibytes != 0 && mebibytes % 1024 == 0 && unit + 1 < sizeof kUnits - 1) {
        mebibytes /= 1024;
        ++unit;
    }
    return std::to_string(mebibytes) + kUnits[unit];
}

std::string hostlistText(const Json &names)
{
    return sched::compressHostlist(names.toStringList());
}

bool hasOption(const ParseResult &cli, int id)
{
    for (const auto &option : cli.options) {
        if (option.def->id == id) {
            return true;
        }
    }
    return false;
}

std::optional<std::string> clusterName(Context &ctx)
{
    Json request = Json::object();
    request.add("op", "ping");
    auto reply = ctx.controller ? ctx.controller(request) : std::nullopt;
    if (!reply || !(*reply)["ok"].toBool()) {
        return std::nullopt;
    }
    return (*reply)["cluster_name"].toString();
}

Json groupName(const Context &ctx, const std::string &user, std::int64_t gid)
{
    if (auto info = ctx.lookupUser ? ctx.lookupUser(user) : std::nullopt;
        info && static_cast<std::int64_t>(info->gid) == gid) {
        return Json(info->name);
    }
    group entry{};
    group *found = nullptr;
    char buffer[4096];
    if (::getgrgid_r(static_cast<gid_t>(gid), &entry, buffer, sizeof buffer, &found) == 0
        && found) {
        return Json(std::string(found->gr_name));
    }
    return Json();
}

JobSite jobSite(Context &ctx, bool withCluster)
{
    JobSite site;
    if (withCluster) {
        site.clusterName = clusterName(ctx).value_or("");
    }
    auto groups = std::make_shared<std::map<std::int64_t, std::string>>();
    site.groupName = [&ctx, groups](const record::JobObject &job) {
        const std::int64_t gid = job.gid.value_or(0);
        auto [it, added] = groups->try_emplace(gid);
        if (added) {
            const Json name = groupName(ctx, job.user, gid);
            it->second = name.isString() ? name.toString() : std::string();
        }
        return it->second;
    };
    return site;
}

} // namespace mc::cmd
