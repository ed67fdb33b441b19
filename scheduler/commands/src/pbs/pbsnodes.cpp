#include "../foreign/foreign_submit.h"
#include "../shared/cluster_view.h"
#include "mc/cmd/pbs.h"

#include <algorithm>
#include <ostream>

namespace mc::cmd {
namespace {

// PBS's node state for sinfo's.
std::string pbsNodeState(const NodeView &node)
{
    if (node.state.find("down") != std::string::npos || !node.responding) {
        return "down";
    }
    if (node.state.find("drain") != std::string::npos) {
        return "offline";
    }
    if (node.allocCpus >= node.cpus && node.cpus > 0) {
        return "job-busy";
    }
    return "free";
}

} // namespace

int Pbsnodes::run()
{
    std::vector<std::string> names;
    bool all = false;
    for (const std::string &word : m_ctx.args) {
        if (word == "-a") {
            all = true;
        } else if (!word.empty() && word[0] == '-') {
            *m_ctx.err << "pbsnodes: " << word << " is not supported by minicluster\n";
            return 1;
        } else {
            names.push_back(word);
        }
    }
    if (!all && names.empty()) {
        all = true; // as pbsnodes with no operand
    }
    std::string error;
    const auto cluster = loadClusterView(m_ctx, error);
    if (!cluster) {
        *m_ctx.err << "pbsnodes: cannot connect to server " << foreign::serverName(m_ctx) << '\n';
        return 1;
    }
    int code = 0;
    for (const std::string &name : names) {
        if (!cluster->node(name)) {
            *m_ctx.err << "pbsnodes: Unknown node  " << name << '\n';
            code = 1;
        }
    }
    for (const NodeView &node : cluster->nodes) {
        if (node.name.rfind("login", 0) == 0 || node.name.rfind("storage", 0) == 0) {
            continue;
        }
        if (!all && std::find(names.begin(), names.end(), node.name) == names.end()) {
            continue;
        }
        std::ostream &out = *m_ctx.out;
        out << node.name << '\n';
        auto line = [&out](const std::string &key, const std::string &value) {
            out << "     " << key << " = " << value << '\n';
        };
        line("Mom", node.name);
        line("ntype", "PBS");
        line("state", pbsNodeState(node));
        line("pcpus", std::to_string(node.cpus));
        line("resources_available.host", node.name);
        line("resources_available.mem", std::to_string(node.memory) + "mb");
        line("resources_available.ncpus", std::to_string(node.cpus));
        if (node.gpus > 0) {
            line("resources_available.ngpus", std::to_string(node.gpus));
        }
        line("resources_available.vnode", node.name);
        line("resources_assigned.mem", std::to_string(node.allocMemory) + "mb");
        line("resources_assigned.ncpus", std::to_string(node.allocCpus));
        line("sharing", "default_shared");
        if (!node.reason.empty()) {
            line("comment", node.reason);
        }
        out << '\n';
    }
    return code;
}

} // namespace mc::cmd
