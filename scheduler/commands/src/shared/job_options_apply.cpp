#include "mc/cmd/job_options_apply.h"

#include "mc/sched/gres.h"
#include "mc/sched/hostlist.h"
#include "text.h"

#include <algorithm>

namespace mc::cmd {
namespace {

constexpr std::int64_t kMaxNice = 2147483645; // Slurm's NICE_OFFSET - 3

// Slurm's parse_int(): a whole number above zero, else exit 1.
std::optional<OptionError> parsePositive(
    std::optional<int> &target, const std::string &value, std::string_view option)
{
    auto number = parseInteger(value);
    if (!number || *number <= 0 || *number > 2147483647) {
        return OptionError{
            "Invalid numeric value \"" + value + "\" for " + std::string(option) + ".", 1};
    }
    target = static_cast<int>(*number);
    return std::nullopt;
}

// Slurm's verify_node_count(): "N" or "min-max"; the minimum is what the job asks for. -N 0
// alone is kept: the controller refuses it (srun and salloc say so before asking).
std::optional<OptionError> parseNodes(JobOptionValues &values, const std::string &value)
{
    const std::size_t dash = value.find('-');
    const std::string minText = value.substr(0, dash);
    auto minimum = parseInteger(minText);
    if (!minimum || *minimum < 0 || *minimum > 0x7fffffff) {
        return OptionError{"\"" + minText + "\" is not a valid node count"};
    }
    if (dash != std::string::npos) {
        const std::string maxText = value.substr(dash + 1);
        auto maximum = parseInteger(maxText);
        if (!maximum) {
            return OptionError{"\"" + maxText + "\" is not a valid node count"};
        }
        if (*maximum != 0 && *maximum < *minimum) {
            return OptionError{"Maximum node count " + std::to_string(*maximum)
                + " is less than minimum node count " + std::to_string(*minimum)};
        }
    }
    // In a range, 0 means 1.
    values.nodes = static_cast<int>(
        dash == std::string::npos ? *minimum : std::max<std::int64_t>(*minimum, 1));
    return std::nullopt;
}

// A GPU option's request: its count into `target`, its type (if any) the job's GPU type. A
// malformed value or a GRES other than gpu is marked for the command to refuse.
void applyGpus(JobOptionValues &values, std::optional<int> &target,
    const std::optional<sched::GpuRequest> &request)
{
    if (!request || !request->known) {
        values.badGres = true;
        return;
    }
    target = request->count;
    if (!request->type.empty()) {
        values.gpuType = request->type;
    }
}

// --nodelist / --exclude: a hostlist expression; a name with '/' is a file of names in Slurm,
// which minicluster does not read.
std::optional<OptionError> parseHosts(
    std::vector<std::string> &target, const std::string &value, std::string_view option)
{
    if (value.find('/') != std::string::npos) {
        return OptionError{
            std::string(option) + " with a file of node names is not supported by minicluster", 1};
    }
    auto names = sched::expandHostlist(value);
    if (!names) {
        return OptionError{"Invalid " + std::string(option) + " specification"};
    }
    target = std::move(*names);
    return std::nullopt;
}

// Slurm's parse_mail_type() and print_mail_type(): the words of --mail-type (any case) as the
// list Slurm shows, in its order; ALL is the six it stands for; NONE anywhere is none (""),
// nullopt: a word Slurm does not know.
std::optional<std::string> mailTypeText(const std::string &value)
{
    // In print_mail_type()'s order.
    static constexpr std::string_view kTypes[]
        = {"ARRAY_TASKS", "INVALID_DEPEND", "BEGIN", "END", "FAIL", "REQUEUE", "STAGE_OUT",
            "TIME_LIMIT_50", "TIME_LIMIT_80", "TIME_LIMIT_90", "TIME_LIMIT"};
    constexpr unsigned kAll = 0b1111110; // INVALID_DEPEND, BEGIN, END, FAIL, REQUEUE, STAGE_OUT
    const auto words = splitList(value);
    unsigned bits = 0;
    bool none = false;
    for (const auto &word : words) {
        bool known = false;
        if (equalsIgnoreCase(word, "NONE")) {
            none = known = true;
        } else if (equalsIgnoreCase(word, "ALL")) {
            bits |= kAll;
            known = true;
        }
        for (std::size_t i = 0; i < std::size(kTypes) && !known; ++i) {
            if (equalsIgnoreCase(word, kTypes[i])) {
                bits |= 1U << i;
                known = true;
            }
        }
        if (!known) {
            return std::nullopt;
        }
    }
    if (words.empty()) {
        return std::nullopt;
    }
    std::string text;
    for (std::size_t i = 0; i < std::size(kTypes) && !none; ++i) {
        if ((bits & (1U << i)) != 0) {
            text += (text.empty() ? "" : ",") + std::string(kTypes[i]);
        }
    }
    return text;
}

// Slurm's time_str2mins() on "-<days>" (a valid timespec to it): days below zero, rounded up
// to minutes in C's int and read by slurmctld as unsigned, so -t -5 is a limit of
// 4294960097 minutes, not a refusal. nullopt for any other text.
std::optional<sched::Seconds> negativeDaysLimit(const std::string &value)
{
    const auto days = value.size() > 1 && value[0] == '-' && value != "-1"
            && value.find_first_not_of("0123456789", 1) == std::string::npos
        ? parseInteger(value.substr(1))
        : std::nullopt;
    if (!days || *days <= 0 || *days > 1000000) {
        return std::nullopt;
    }
    const std::int64_t minutes = (-*days * 86400 + 59) / 60; // C division: towards zero
    return (minutes + (std::int64_t{1} << 32)) * 60;
}

// A --begin-like time: checked on `now`, else Slurm's two lines.
std::optional<OptionError> checkTimeSpec(
    std::string &target, const std::string &value, std::string_view option, sched::Seconds now)
{
    if (!sched::parseTimeSpec(value, now)) {
        return OptionError{
            "Invalid " + std::string(option) + " specification", 255, invalidTimeLine(value)};
    }
    target = value;
    return std::nullopt;
}

} // namespace

bool isCommonJobOption(int id)
{
    switch (id) {
    case kAccount:
    case kJobName:
    case kPartition:
    case kQos:
    case kComment:
    case kConstraint:
    case kArray:
    case kDependency:
    case kBegin:
    case kTime:
    case kTimeMin:
    case kMem:
    case kMemPerCpu:
    case kMemPerGpu:
    case kNodes:
    case kNtasks:
    case kCpusPerTask:
    case kNtasksPerNode:
    case kGres:
    case kGpus:
    case kGpusPerNode:
    case kGpusPerTask:
    case kCpusPerGpu:
    case kNodelist:
    case kExclude:
    case kExclusive:
    case kHold:
    case kNice:
    case kMailType:
    case kMailUser:
        return true;
    default:
        return false;
    }
}

std::optional<OptionError> applyJobOption(JobOptionValues &values, const OptionDef &def,
    const std::optional<std::string> &arg, sched::Seconds now)
{
    const std::string value = arg.value_or("");
    switch (def.id) {
    case kAccount:
        values.account = value;
        break;
    case kJobName:
        values.jobName = value;
        break;
    case kPartition:
        values.partition = value;
        break;
    case kQos: // checked by the controller against the QOS table
        values.qos = value;
        break;
    case kComment:
        values.comment = value;
        break;
    case kConstraint:
        values.constraint = value;
        break;
    case kArray:
        values.array = value;
        break;
    case kDependency:
        values.dependency = value;
        break;
    case kBegin:
        return checkTimeSpec(values.beginText, value, "--begin", now);
    case kTime: {
        if (auto wrapped = negativeDaysLimit(value)) {
            values.timeLimit = *wrapped;
            break;
        }
        auto limit = sched::parseTimeLimit(value);
        if (!limit) {
            return OptionError{"Invalid --time specification"};
        }
        values.timeLimit = *limit == 0 ? sched::kInfinite : *limit;
        break;
    }
    case kTimeMin: {
        auto limit = sched::parseTimeLimit(value);
        if (!limit) {
            return OptionError{"Invalid --time-min specification"};
        }
        values.timeMin = *limit;
        break;
    }
    case kMem:
    case kMemPerCpu:
    case kMemPerGpu: {
        auto mib = sched::parseMemory(value);
        if (!mib) {
            return OptionError{"Invalid --" + std::string(def.longName) + " specification"};
        }
        (def.id == kMem                ? values.mem
                : def.id == kMemPerCpu ? values.memPerCpu
                                       : values.memPerGpu)
            = *mib;
        break;
    }
    case kNodes:
        return parseNodes(values, value);
    case kNtasks:
        return parsePositive(values.ntasks, value, "--ntasks");
    case kCpusPerTask:
        return parsePositive(values.cpusPerTask, value, "--cpus-per-task");
    case kNtasksPerNode:
        return parsePositive(values.ntasksPerNode, value, "--ntasks-per-node");
    case kCpusPerGpu:
        return parsePositive(values.cpusPerGpu, value, "--cpus-per-gpu");
    case kGres:
        applyGpus(values, values.gpusPerNode, sched::parseGresOption(value));
        values.gpusPerNodeGiven = false;
        break;
    case kGpus:
        applyGpus(values, values.gpus, sched::parseGpuCount(value));
        break;
    case kGpusPerNode:
        applyGpus(values, values.gpusPerNode, sched::parseGpuCount(value));
        values.gpusPerNodeGiven = true;
        break;
    case kGpusPerTask:
        applyGpus(values, values.gpusPerTask, sched::parseGpuCount(value));
        break;
    case kNodelist:
        return parseHosts(values.nodeList, value, "--nodelist");
    case kExclude:
        return parseHosts(values.excludeNodes, value, "--exclude");
    case kExclusive:
        if (arg && (value == "user" || value == "mcs")) {
            return OptionError{"--exclusive=" + value + " is not supported by minicluster", 1};
        }
        if (arg && value != "exclusive" && value != "oversubscribe") {
            return OptionError{"Invalid --exclusive specification"};
        }
        values.exclusive = !arg || value == "exclusive";
        break;
    case kHold:
        values.hold = true;
        break;
    case kNice: {
        const std::int64_t nice = arg ? parseLeadingInteger(value) : 100;
        if (nice > kMaxNice || nice < -kMaxNice) {
            return OptionError{"Invalid --nice value, out of range (+/- 2147483645)"};
        }
        values.nice = nice;
        break;
    }
    case kMailType: {
        auto text = mailTypeText(value);
        if (!text) {
            return OptionError{"Invalid --mail-type specification"};
        }
        values.mailType = *text;
        break;
    }
    case kMailUser: // kept and shown; like Slurm without a mailer, minicluster sends no mail
        values.mailUser = value;
        break;
    default:
        break;
    }
    return std::nullopt;
}

OptionError gresError()
{
    return OptionError{"Invalid generic resource (gres) specification", 1};
}

std::optional<std::string> fitNodesToTasks(JobOptionValues &values)
{
    if (!values.nodes || !values.ntasks || *values.ntasks >= *values.nodes) {
        return std::nullopt;
    }
    std::string warning = "can't run " + std::to_string(*values.ntasks) + " processes on "
        + std::to_string(*values.nodes) + " nodes, setting nnodes to "
        + std::to_string(*values.ntasks);
    values.nodes = values.ntasks;
    return warning;
}

void fillJobSpec(const JobOptionValues &values, sched::JobSpec &spec)
{
    const auto given = [](auto &target, const auto &value) {
        if (value) {
            target = *value;
        }
    };
    const auto positive = [](const std::optional<int> &value) {
        return std::max(0, value.value_or(0));
    };
    given(spec.name, values.jobName);
    given(spec.account, values.account);
    given(spec.partition, values.partition);
    given(spec.qos, values.qos);
    if (values.comment) {
        spec.comment = values.comment;
    }
    if (!values.constraint.empty()) {
        spec.constraint = values.constraint;
    }
    if (!values.array.empty()) {
        spec.array = values.array;
    }
    if (!values.dependency.empty()) {
        spec.dependency = values.dependency;
    }
    given(spec.timeLimit, values.timeLimit);
    given(spec.timeMin, values.timeMin);
    given(spec.memPerNode, values.mem);
    given(spec.memPerCpu, values.memPerCpu);
    given(spec.nodes, values.nodes);
    if (values.ntasks) {
        spec.ntasks = *values.ntasks;
        spec.ntasksGiven = true;
    } else if (values.ntasksPerNode) {
        // As sbatch's option check does: --ntasks-per-node without -n asks for that many
        // tasks on each of the -N nodes, and the job has a task count (SLURM_NTASKS).
        spec.ntasks = *values.ntasksPerNode * values.nodes.value_or(1);
        spec.ntasksGiven = true;
    }
    if (values.cpusPerTask) {
        spec.cpusPerTask = *values.cpusPerTask;
        spec.cpusPerTaskGiven = true;
    }
    given(spec.ntasksPerNode, values.ntasksPerNode);
    // The GPU requests (issue #15), each as given: the controller resolves GPUs per node.
    spec.gpusPerNode = positive(values.gpusPerNode);
    spec.gpusPerJob = positive(values.gpus);
    spec.gpusPerTask = positive(values.gpusPerTask);
    spec.cpusPerGpu = positive(values.cpusPerGpu);
    spec.gpusPerNodeGiven = spec.gpusPerNode > 0 && values.gpusPerNodeGiven;
    given(spec.memPerGpu, values.memPerGpu);
    spec.gpuType = values.gpuType;
    if (!values.nodeList.empty()) {
        spec.nodeList = values.nodeList;
    }
    if (!values.excludeNodes.empty()) {
        spec.excludeNodes = values.excludeNodes;
    }
    spec.exclusive = spec.exclusive || values.exclusive;
    spec.hold = spec.hold || values.hold;
    if (values.nice != 0) {
        spec.nice = static_cast<int>(values.nice); // within Slurm's range when applied
    }
    spec.mailType = values.mailType;
    spec.mailUser = values.mailUser;
}

} // namespace mc::cmd
