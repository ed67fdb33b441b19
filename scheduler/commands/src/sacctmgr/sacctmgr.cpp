#include "mc/cmd/sacctmgr.h"

#include "../shared/outcome.h"
#include "../shared/text.h"
#include "mc/sched/site_conf.h"
#include "mc/sched/slurm_conf.h"
#include "sacctmgr_options.h"

#include <algorithm>
#include <array>
#include <map>
#include <ostream>
#include <set>

namespace mc::cmd {
namespace {

using namespace sacctmgr;

constexpr std::string_view kProgram = "sacctmgr";

// One association: the root account's, an account's (user empty), or a user's in an account.
struct Assoc {
    std::string cluster, account, user;
};

struct Field {
    std::string_view name; // as format= names it
    std::string_view header;
    int width; // > 0 right-justified, < 0 left-justified
};

// The association fields sacctmgr show assoc prints by default, in its order (limits are
// empty: minicluster sets none).
constexpr std::array kAssocFields{
    Field{"Cluster", "Cluster", 10},
    Field{"Account", "Account", 10},
    Field{"User", "User", 10},
    Field{"Partition", "Partition", 10},
    Field{"Share", "Share", 9},
    Field{"Priority", "Priority", 10},
    Field{"GrpJobs", "GrpJobs", 7},
    Field{"GrpTRES", "GrpTRES", 13},
    Field{"GrpSubmit", "GrpSubmit", 9},
    Field{"GrpWall", "GrpWall", 11},
    Field{"GrpTRESMins", "GrpTRESMins", 13},
    Field{"MaxJobs", "MaxJobs", 7},
    Field{"MaxTRES", "MaxTRES", 13},
    Field{"MaxTRESPerNode", "MaxTRESPerNode", 14},
    Field{"MaxSubmit", "MaxSubmit", 9},
    Field{"MaxWall", "MaxWall", 11},
    Field{"MaxTRESMins", "MaxTRESMins", 13},
    Field{"QOS", "QOS", 20},
    Field{"DefaultQOS", "Def QOS", 9},
    Field{"GrpTRESRunMins", "GrpTRESRunMin", 13},
};

constexpr std::array kUserFields{
    Field{"User", "User", 10},
    Field{"DefaultAccount", "Def Acct", 10},
    Field{"AdminLevel", "Admin", 9},
};

constexpr std::array kAccountFields{
    Field{"Account", "Account", 10},
    Field{"Description", "Descr", 20},
    Field{"Organization", "Org", 20},
};

// sacctmgr show qos's default format (qos_functions.c), its fields' widths (common.c).
constexpr std::array kQosFields{
    Field{"Name", "Name", 10},
    Field{"Priority", "Priority", 10},
    Field{"GraceTime", "GraceTime", 10},
    Field{"Preempt", "Preempt", 10},
    Field{"PreemptExemptTime", "PreemptExemptTime", 19},
    Field{"PreemptMode", "PreemptMode", 11},
    Field{"Flags", "Flags", 40},
    Field{"UsageThres", "UsageThres", 10},
    Field{"UsageFactor", "UsageFactor", 11},
    Field{"GrpTRES", "GrpTRES", 13},
    Field{"GrpTRESMins", "GrpTRESMins", 13},
    Field{"GrpTRESRunMins", "GrpTRESRunMin", 13},
    Field{"GrpJobs", "GrpJobs", 7},
    Field{"GrpSubmit", "GrpSubmit", 9},
    Field{"GrpWall", "GrpWall", 11},
    Field{"MaxTRES", "MaxTRES", 13},
    Field{"MaxTRESPerNode", "MaxTRESPerNode", 14},
    Field{"MaxTRESMins", "MaxTRESMins", 13},
    Field{"MaxWall", "MaxWall", 11},
    Field{"MaxTRESPU", "MaxTRESPU", 13},
    Field{"MaxJobsPU", "MaxJobsPU", 9},
    Field{"MaxSubmitPU", "MaxSubmitPU", 11},
    Field{"MaxTRESPA", "MaxTRESPA", 13},
    Field{"MaxJobsPA", "MaxJobsPA", 9},
    Field{"MaxSubmitPA", "MaxSubmitPA", 11},
    Field{"MinTRES", "MinTRES", 13},
};

struct Settings {
    bool noHeader = false;
    int parsable = 0; // 1: trailing '|', 2: none
};

template <std::size_t N>
std::optional<std::vector<const Field *>> chooseFields(
    const std::array<Field, N> &table, const std::string &format, std::string &error)
{
    std::vector<const Field *> fields;
    if (format.empty()) {
        for (const auto &f : table) {
            fields.push_back(&f);
        }
        return fields;
    }
    for (const auto &name : splitList(format)) {
        const Field *found = nullptr;
        for (const auto &f : table) {
            if (equalsIgnoreCase(name, f.name)
                || (name.size() >= 3 && equalsIgnoreCase(name, f.name.substr(0, name.size())))) {
                found = found ? found : &f;
            }
        }
        if (!found) {
            error = "Unknown field '" + name + "'\n";
            return std::nullopt;
        }
        fields.push_back(found);
    }
    return fields;
}

// sacctmgr's cells: right-justified to a positive width, left to a negative one, a value too
// long cut with '+' as sacct does.
std::string table(const std::vector<const Field *> &fields,
    const std::vector<std::vector<std::string>> &rows, const Settings &s)
{
    std::vector<TableColumn> columns;
    std::vector<std::string> headers;
    for (const Field *f : fields) {
        columns.push_back({static_cast<std::size_t>(std::abs(f->width)), f->width > 0, true});
        headers.emplace_back(f->header);
    }
    return tableText(columns, headers, rows, s.noHeader, s.parsable);
}

// Conditions and format= of a list command: "where user=alice format=User,Account".
struct Spec {
    std::vector<std::string> users, accounts;
    std::string format;
};

std::optional<Outcome> parseSpec(const std::vector<std::string> &words, Spec &spec)
{
    for (const auto &word : words) {
        if (equalsIgnoreCase(word, "where") || equalsIgnoreCase(word, "set")
            || equalsIgnoreCase(word, "withassoc") || equalsIgnoreCase(word, "withdeleted")) {
            continue;
        }
        const std::size_t eq = word.find('=');
        if (eq == std::string::npos) {
            return Outcome{
                {}, " Unknown condition: " + word + "\n Use keyword set to modify value\n", 1};
        }
        const std::string key = toLower(word.substr(0, eq));
        const std::string value = word.substr(eq + 1);
        if (key == "user" || key == "users" || key == "name" || key == "names") {
            spec.users = splitList(value);
        } else if (key == "account" || key == "accounts" || key == "acct") {
            spec.accounts = splitList(value);
        } else if (key == "format") {
            spec.format = value;
        } else if (key == "cluster" || key == "clusters") {
            continue; // one cluster
        } else {
            return notSupported(kProgram, "the condition " + word.substr(0, eq) + "=");
        }
    }
    return std::nullopt;
}

bool listed(const std::vector<std::string> &list, const std::string &value)
{
    return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
}

struct Site {
    std::string cluster;
    sched::SiteUsers users;
};

Site loadSite(const Context &ctx)
{
    Site site;
    if (auto conf = ctx.readSlurmConf ? ctx.readSlurmConf() : std::nullopt) {
        site.cluster = sched::parseSlurmConf(*conf).config.clusterName;
    }
    if (auto text = ctx.readSiteConf ? ctx.readSiteConf() : std::nullopt) {
        site.users = sched::parseSiteUsers(*text);
    }
    return site;
}

// The association tree of the site: root, root's root user, then each account and its users.
std::vector<Assoc> associations(const Site &site)
{
    std::map<std::string, std::set<std::string>> byAccount;
    for (const auto &u : site.users.users) {
        for (const auto &account : u.accounts) {
            byAccount[account].insert(u.name);
        }
        byAccount[u.defaultAccount].insert(u.name);
    }
    std::vector<Assoc> rows{{site.cluster, "root", ""}, {site.cluster, "root", "root"}};
    for (const auto &[account, users] : byAccount) {
        rows.push_back({site.cluster, account, ""});
        for (const auto &user : users) {
            rows.push_back({site.cluster, account, user});
        }
    }
    return rows;
}

Outcome showAssociations(const Context &ctx, const Spec &spec, const Settings &s)
{
    std::string error;
    auto fields = chooseFields(kAssocFields, spec.format, error);
    if (!fields) {
        return {{}, error, 1};
    }
    std::vector<std::vector<std::string>> rows;
    for (const auto &a : associations(loadSite(ctx))) {
        if (!listed(spec.accounts, a.account)
            || (!spec.users.empty() && !listed(spec.users, a.user))) {
            continue;
        }
        std::vector<std::string> row;
        for (const Field *f : *fields) {
            const std::string_view name = f->name;
            row.push_back(name == "Cluster" ? a.cluster
                    : name == "Account"     ? a.account
                    : name == "User"        ? a.user
                    : name == "Share"       ? std::string("1")
                    : name == "QOS"         ? std::string("normal")
                                            : std::string());
        }
        rows.push_back(std::move(row));
    }
    return {table(*fields, rows, s), {}, 0};
}

Outcome showUsers(const Context &ctx, const Spec &spec, const Settings &s)
{
    std::string error;
    auto fields = chooseFields(kUserFields, spec.format, error);
    if (!fields) {
        return {{}, error, 1};
    }
    const Site site = loadSite(ctx);
    std::vector<std::pair<std::string, std::string>> users{{"root", "root"}};
    for (const auto &u : site.users.users) {
        users.emplace_back(u.name, u.defaultAccount);
    }
    std::sort(users.begin(), users.end());
    std::vector<std::vector<std::string>> rows;
    for (const auto &[name, account] : users) {
        if (!listed(spec.users, name) || !listed(spec.accounts, account)) {
            continue;
        }
        std::vector<std::string> row;
        for (const Field *f : *fields) {
            row.push_back(f->name == "User" ? name
                    : f->name == "AdminLevel"
                    ? std::string(name == "root" ? "Administrator" : "None")
                    : account);
        }
        rows.push_back(std::move(row));
    }
    return {table(*fields, rows, s), {}, 0};
}

Outcome showAccounts(const Context &ctx, const Spec &spec, const Settings &s)
{
    std::string error;
    auto fields = chooseFields(kAccountFields, spec.format, error);
    if (!fields) {
        return {{}, error, 1};
    }
    std::set<std::string> accounts{"root"};
    for (const auto &a : associations(loadSite(ctx))) {
        accounts.insert(a.account);
    }
    std::vector<std::vector<std::string>> rows;
    for (const auto &account : accounts) {
        if (!listed(spec.accounts, account)) {
            continue;
        }
        std::vector<std::string> row;
        for (const Field *f : *fields) {
            const bool describes = f->name == "Description" && account == "root";
            row.push_back(describes ? std::string("default root account") : account);
        }
        rows.push_back(std::move(row));
    }
    return {table(*fields, rows, s), {}, 0};
}

// The QOS table of etc/minicluster.conf (`QOS=name Priority=N`; "normal" alone without one).
// No QOS has limits, preemption or flags here, so those cells are empty as Slurm prints unset
// ones.
Outcome showQos(const Context &ctx, const Spec &spec, const Settings &s)
{
    std::string error;
    auto fields = chooseFields(kQosFields, spec.format, error);
    if (!fields) {
        return {{}, error, 1};
    }
    std::vector<std::string> problems;
    const auto text = ctx.readSiteConf ? ctx.readSiteConf() : std::nullopt;
    std::vector<std::vector<std::string>> rows;
    for (const auto &q : sched::parseSiteQos(text.value_or(""), problems)) {
        if (!listed(spec.users, q.name)) {
            continue;
        }
        std::vector<std::string> row;
        for (const Field *f : *fields) {
            const std::string_view name = f->name;
            row.push_back(name == "Name"    ? q.name
                    : name == "Priority"    ? std::to_string(q.priority)
                    : name == "GraceTime"   ? std::string("00:00:00")
                    : name == "PreemptMode" ? std::string("cluster")
                    : name == "UsageFactor" ? std::string("1.000000")
                                            : std::string());
        }
        rows.push_back(std::move(row));
    }
    return {table(*fields, rows, s), {}, 0};
}

bool abbreviates(std::string_view word, std::string_view full, std::size_t minimum = 3)
{
    return word.size() >= std::min(minimum, full.size()) && word.size() <= full.size()
        && equalsIgnoreCase(word, full.substr(0, word.size()));
}

Outcome list(const Context &ctx, const std::vector<std::string> &words, const Settings &s)
{
    if (words.size() < 2) {
        return {{}, errorLine(kProgram, "Too few arguments for command list"), 1};
    }
    const std::string &entity = words[1];
    Spec spec;
    if (auto problem = parseSpec({words.begin() + 2, words.end()}, spec)) {
        return *problem;
    }
    if (abbreviates(entity, "associations")) {
        return showAssociations(ctx, spec, s);
    }
    if (abbreviates(entity, "users") || abbreviates(entity, "user")) {
        return showUsers(ctx, spec, s);
    }
    if (abbreviates(entity, "accounts") || abbreviates(entity, "account")) {
        return showAccounts(ctx, spec, s);
    }
    if (abbreviates(entity, "qos")) {
        return showQos(ctx, spec, s);
    }
    static constexpr std::array kOthers{"clusters", "configuration", "coordinators", "events",
        "federations", "problems", "reservations", "resources", "runawayjobs", "stats",
        "transactions", "tres", "wckeys"};
    for (const char *other : kOthers) {
        if (abbreviates(entity, other)) {
            return notSupported(kProgram, "sacctmgr show " + std::string(other));
        }
    }
    return {{},
        "No valid entity in list command\n"
        "Input line must include \"Account\", \"Association\", \"Cluster\", \"Configuration\",\n"
        "\"Event\", \"Federation\", \"Problem\", \"QOS\", \"Resource\", \"Reservation\",\n"
        "\"RunAwayJobs\", \"Stats\", \"Transaction\", \"TRES\", \"User\", or \"WCKey\"\n",
        1};
}

} // namespace

int Sacctmgr::run()
{
    Settings s;
    const ParseResult cli
        = parseOptions(optionTable(), m_ctx.args, kProgram, Ordering::StopAtOperand);
    auto apply = [&s](const ParsedOption &option) -> std::optional<Outcome> {
        switch (option.def->id) {
        case kHelp:
        case kUsage:
            return Outcome{std::string(sacctmgr::help()), {}, 0};
        case kVersion:
            return Outcome{std::string(kSlurmVersion), {}, 0};
        case kNoHeader:
            s.noHeader = true;
            break;
        case kParsable:
            s.parsable = 1;
            break;
        case kParsable2:
            s.parsable = 2;
            break;
        default:
            break; // --immediate, --quiet, --readonly, --verbose: read-only here anyway
        }
        return std::nullopt;
    };
    if (auto end = applyOptions(cli, kProgram, apply)) {
        return deliver(m_ctx, *end);
    }
    const auto &words = cli.operands;
    if (words.empty()) {
        return deliver(m_ctx, notSupported(kProgram, "Interactive mode"));
    }
    const std::string &command = words.front();
    if (abbreviates(command, "list") || abbreviates(command, "show")) {
        return deliver(m_ctx, list(m_ctx, words, s));
    }
    if (abbreviates(command, "help")) {
        return deliver(m_ctx, {std::string(sacctmgr::help()), {}, 0});
    }
    if (abbreviates(command, "version")) {
        return deliver(m_ctx, {std::string(kSlurmVersion), {}, 0});
    }
    static constexpr std::array kChanging{"add", "create", "modify", "update", "delete", "remove",
        "archive", "dump", "load", "reconfigure", "shutdown", "clear"};
    for (const char *changing : kChanging) {
        if (abbreviates(command, changing)) {
            return deliver(m_ctx,
                notSupported(kProgram,
                    "sacctmgr " + std::string(changing)
                        + " (its accounts and users are read-only: they come from "
                          "etc/minicluster.conf)"));
        }
    }
    return deliver(m_ctx, {{}, "Invalid keyword: " + command + "\n", 1});
}

namespace sacctmgr {
namespace {

constexpr ArgKind kNo = ArgKind::None;
constexpr ArgKind kReq = ArgKind::Required;
constexpr bool kRefused = false;

// Slurm 22.05 sacctmgr's long_options[].
constexpr std::array kOptions{
    OptionDef{"help", 'h', kNo, kHelp},
    OptionDef{"usage", 0, kNo, kUsage},
    OptionDef{"immediate", 'i', kNo, kImmediate},
    OptionDef{"noheader", 'n', kNo, kNoHeader},
    OptionDef{"oneliner", 'o', kNo, kOneLiner, kRefused},
    OptionDef{"parsable", 'p', kNo, kParsable},
    OptionDef{"parsable2", 'P', kNo, kParsable2},
    OptionDef{"quiet", 'Q', kNo, kQuiet},
    OptionDef{"readonly", 'r', kNo, kReadOnly},
    OptionDef{"associations", 's', kNo, kWithAssoc, kRefused},
    OptionDef{"verbose", 'v', kNo, kVerbose},
    OptionDef{"version", 'V', kNo, kVersion},
};

} // namespace

std::span<const OptionDef> optionTable()
{
    return kOptions;
}

std::string_view help()
{
    return "sacctmgr [<OPTION>] [<COMMAND>]                                            \n"
           "    Valid <OPTION> values are:                                             \n"
           "     -h or --help: equivalent to \"help\" command                          \n"
           "     -i or --immediate: commit changes immediately                         \n"
           "     -n or --noheader: no header will be added to the beginning of output  \n"
           "     -o or --oneliner: equivalent to \"oneliner\" command                  \n"
           "     -p or --parsable: output will be '|' delimited with a '|' at the end  \n"
           "     -P or --parsable2: output will be '|' delimited without a '|' at the end\n"
           "     -Q or --quiet: equivalent to \"quiet\" command                        \n"
           "     -r or --readonly: equivalent to \"readonly\" command                  \n"
           "     -s or --associations: equivalent to \"associations\" command          \n"
           "     -v or --verbose: equivalent to \"verbose\" command                    \n"
           "     -V or --version: equivalent to \"version\" command                    \n"
           "                                                                           \n"
           "  <keyword> may be omitted from the execute line and sacctmgr will execute \n"
           "  in interactive mode. It will process commands as entered until explicitly\n"
           "  terminated.                                                              \n"
           "                                                                           \n"
           "  Valid <COMMAND> values are:                                              \n"
           "     add <ENTITY> <SPECS>     add entity                                   \n"
           "     archive <DUMP/LOAD> <SPECS>                                           \n"
           "                              Archive past jobs and/or steps, or load them \n"
           "                              back into the databse.                       \n"
           "     associations             when using show/list will list the           \n"
           "                              associations associated with the entity.     \n"
           "     clear stats              clear server statistics                      \n"
           "     delete <ENTITY> <SPECS>  delete the specified entity(s)               \n"
           "     dump <CLUSTER> [File=<FILENAME>]                                      \n"
           "                              dump database information of the             \n"
           "                              specified cluster to the flat file.          \n"
           "                              Will default to clustername.cfg if no file   \n"
           "                              is given.                                    \n"
           "     exit                     terminate sacctmgr                           \n"
           "     help                     print this description of use.               \n"
           "     list <ENTITY> [<SPECS>]  display info of identified entity, default   \n"
           "                              is display all.                              \n"
           "     load <FILE> [<SPECS>]    read in the file to update the database      \n"
           "                              with the file contents. <SPECS> here consist \n"
           "                              of 'cluster=', and 'clean'.  The 'cluster='  \n"
           "                              will override the cluster name given in the  \n"
           "                              file.  The 'clean' option will remove what is\n"
           "                              already in the system for this cluster and   \n"
           "                              replace it with the file.  If the clean option\n"
           "                              is not given only new additions or           \n"
           "                              modifications will be done, no deletions.    \n"
           "     modify <ENTITY> <SPECS>  modify entity                                \n"
           "     oneliner                 report output one record per line.           \n"
           "     parsable                 output will be | delimited with an ending '|'\n"
           "     parsable2                output will be | delimited without an ending '|'\n"
           "     quiet                    print no messages other than error messages. \n"
           "     quit                     terminate this command.                      \n"
           "     readonly                 makes it so no modification can happen.      \n"
           "     reconfigure              reread the slurmdbd.conf on the DBD.         \n"
           "     shutdown                 shutdown the server.                         \n"
           "     show                     same as list                                 \n"
           "     verbose                  enable detailed logging.                     \n"
           "     version                  display tool version number.                 \n"
           "     !!                       Repeat the last command entered.             \n"
           "                                                                           \n"
           "  <ENTITY> may be \"account\", \"association\", \"cluster\",               \n"
           "                  \"configuration\", \"coordinator\", \"event\",           \n"
           "                  \"federation\", \"job\", \"problem\", \"qos\",           \n"
           "                  \"resource\", \"reservation\", \"runawayjobs\", \"stats\"\n"
           "                  \"transaction\", \"tres\", \"user\" or \"wckey\"         \n"
           "                                                                           \n"
           "  <SPECS> are different for each command entity pair.                      \n"
           "       list account       - Clusters=, Descriptions=, Format=,             \n"
           "                            Names=, Organizations=, Parents=, WithAssoc,   \n"
           "                            WithDeleted, WithCoordinators, WithRawQOS,     \n"
           "                            and WOPLimits                                  \n"
           "       add account        - Clusters=, DefaultQOS=, Description=, Fairshare=,\n"
           "                            GrpTRESMins=, GrpTRES=, GrpJobs=, GrpMemory=,   \n"
           "                            GrpNodes=, GrpSubmitJob=, GrpWall=, MaxTRESMins=,\n"
           "                            MaxTRES=, MaxJobs=, MaxNodes=, MaxSubmitJobs=, \n"
           "                            MaxWall=, Names=, Organization=, Parent=,      \n"
           "                            Priority= and QosLevel=                        \n"
           "       modify account     - (set options) DefaultQOS=, Description=,       \n"
           "                            Fairshare=, GrpTRESMins=, GrpTRESRunMins=,       \n"
           "                            GrpTRES=, GrpJobs=, GrpMemory=, GrpNodes=,     \n"
           "                            GrpSubmitJob=, GrpWall=, MaxTRESMins=, MaxTRES=,\n"
           "                            MaxJobs=, MaxNodes=, MaxSubmitJobs=, MaxWall=, \n"
           "                            Names=, Organization=, Parent=, and QosLevel=  \n"
           "                            RawUsage= (with admin privileges only)         \n"
           "                            (where options) Clusters=, DefaultQOS=,        \n"
           "                            Descriptions=, Names=, Organizations=,         \n"
           "                            Parent=,Priority= and QosLevel=                \n"
           "       delete account     - Clusters=, DefaultQOS=, Descriptions=, Names=, \n"
           "                            Organizations=, and Parents=                   \n"
           "                                                                           \n"
           "       list associations  - Accounts=, Clusters=, Format=, ID=, OnlyDefaults,\n"
           "                            Partitions=, Parent=, Tree, Users=,            \n"
           "                            WithSubAccounts, WithDeleted, WOLimits,        \n"
           "                            WOPInfo, and WOPLimits                         \n"
           "                                                                           \n"
           "       list cluster       - Classification=, DefaultQOS=, Federation=,     \n"
           "                            Flags=, Format=, Names=, RPC= WithFed and      \n"
           "                            WOLimits                                       \n"
           "       add cluster        - DefaultQOS=, Fairshare=, Federation=, FedState=,\n"
           "                            GrpTRES=, GrpJobs=, GrpMemory=, GrpNodes=,     \n"
           "                            GrpSubmitJob=, MaxTRESMins=, MaxJobs=,         \n"
           "                            MaxNodes=, MaxSubmitJobs=, MaxWall=, Name=,    \n"
           "                            QosLevel= and Weight=                          \n"
           "       modify cluster     - (set options) DefaultQOS=, Fairshare=,         \n"
           "                            Federation=, FedState=, GrpTRES=, GrpJobs=,    \n"
           "                            GrpMemory=, GrpNodes=, GrpSubmitJob=,          \n"
           "                            MaxTRESMins=, MaxJobs=, MaxNodes=,             \n"
           "                            MaxSubmitJobs=, MaxWall=, QosLevel= and Weight=\n"
           "                            (where options) Classification=, Federation=,  \n"
           "                            Flags=, and Names=                             \n"
           "       delete cluster     - Classification=, DefaultQOS=, Flags=, and Names=\n"
           "                                                                           \n"
           "       add coordinator    - Accounts=, and Names=                          \n"
           "       delete coordinator - Accounts=, and Names=                          \n"
           "                                                                           \n"
           "       list events        - All_Clusters, All_Time, Clusters=, CondFlags=, \n"
           "                            End=, Events=, Format=, MaxCPUs=, MinCPUs=,    \n"
           "                            Nodes=, Reason=, Start=, States=, and User=    \n"
           "                                                                           \n"
           "       list federation    - Names=, Format= and Tree                       \n"
           "       add federation     - Flags=, Clusters= and Name=                    \n"
           "       modify federation  - (set options) Clusters= and Flags=             \n"
           "                            (where options) Names=                         \n"
           "       delete federation  - Names=                                         \n"
           "                                                                           \n"
           "       modify job         - (set options) DerivedExitCode=, Comment=,      \n"
           "                            NewWCKey=                                      \n"
           "                            (where options) JobID=, Cluster=, EndTime=,    \n"
           "                            StartTime=, WCKey=, User=                      \n"
           "                                                                           \n"
           "       list qos           - Descriptions=, Format=, Id=, Names=,           \n"
           "                            PreemptMode=, and WithDeleted                  \n"
           "       add qos            - Description=, Flags=, GraceTime=, GrpJobs=,    \n"
           "                            GrpSubmitJob=, GrpTRES=, GrpTRESMins=, GrpWall=,\n"
           "                            MaxJobs=, MaxSubmitJobsPerUser=, MaxTRESMins=, \n"
           "                            MaxTRESPerJob=, MaxTRESPerNode=, MaxTRESPerUser=,\n"
           "                            MaxWall=, Names=, Preempt=, PreemptMode=,      \n"
           "                            Priority=, UsageFactor=, and UsageThreshold=   \n"
           "       modify qos         - (set options) Description=, Flags=, GraceTime=,\n"
           "                            GrpJobs=, GrpSubmitJob=, GrpTRES=, GrpTRESMins=,\n"
           "                            GrpWall=,\n"
           "                            MaxJobs=, MaxSubmitJobsPerUser=, MaxTRESMins=, \n"
           "                            MaxTRESPerJob=, MaxTRESPerNode=, MaxTRESPerUser=,\n"
           "                            MaxWall=, Names=, Preempt=, PreemptMode=,      \n"
           "                            Priority=, RawUsage= (admin only),             \n"
           "                            UsageFactor=, and UsageThreshold=              \n"
           "                            (where options) Descriptions=, ID=, Names=     \n"
           "                            and PreemptMode=                               \n"
           "       delete qos         - Descriptions=, ID=, Names=, and PreemptMode=   \n"
           "                                                                           \n"
           "       list resource      - Clusters=, Descriptions=, Flags=, Format=, Ids=,\n"
           "                            Names=, PercentAllowed=, ServerType=, Servers=,\n"
           "                            and WithClusters                               \n"
           "       add resource       - Clusters=, Count=, Descriptions=, Flags=,      \n"
           "                            ServerType=, Names=, PercentAllowed=, Server=, \n"
           "                            and Type=                                      \n"
           "       modify resource    - (set options) Count=, Flags=, Manager=,        \n"
           "                            PercentAllowed=,                               \n"
           "                            (where options) Clusters=, Names=, Servers=,   \n"
           "       delete resource    - Clusters=, Names=                              \n"
           "                                                                           \n"
           "       list reservation   - Clusters=, End=, ID=, Names=, Nodes=, Start=   \n"
           "                                                                           \n"
           "       list runawayjobs   - Cluster=, Format=                              \n"
           "                                                                           \n"
           "       clear stats                                                         \n"
           "       list stats                                                          \n"
           "                                                                           \n"
           "       list transactions  - Accounts=, Action=, Actor=, Clusters=, End=,   \n"
           "                            Format=, ID=, Start=, User=, and WithAssoc     \n"
           "                                                                           \n"
           "       list tres          - ID=, Name=, Type=, WithDeleted                 \n"
           "                                                                           \n"
           "       list user          - AdminLevel=, DefaultAccount=,                  \n"
           "                            DefaultWCKey=, Format=, Names=,                \n"
           "                            QosLevel=, WithAssoc, WithCoordinators,        \n"
           "                            WithDeleted, WithRawQOS, and WOPLimits         \n"
           "       add user           - Accounts=, AdminLevel=, Clusters=,             \n"
           "                            DefaultAccount=, DefaultQOS=, DefaultWCKey=,   \n"
           "                            Fairshare=, MaxTRESMins=, MaxTRES=,            \n"
           "                            MaxJobs=, MaxNodes=, MaxSubmitJobs=, MaxWall=, \n"
           "                            Names=, Partitions=, Priority= and QosLevel=   \n"
           "       modify user        - (set options) AdminLevel=, DefaultAccount=,    \n"
           "                            DefaultQOS=, DefaultWCKey=, Fairshare=,        \n"
           "                            MaxTRESMins=, MaxTRES=, MaxJobs=, MaxNodes=,   \n"
           "                            MaxSubmitJobs=, MaxWall=, NewName=,            \n"
           "                            and QosLevel=,                                 \n"
           "                            RawUsage= (with admin privileges only)         \n"
           "                            (where options) Accounts=, AdminLevel=,        \n"
           "                            Clusters=, DefaultAccount=, Names=,            \n"
           "                            Partitions=, Priority= and QosLevel=           \n"
           "       delete user        - Accounts=, AdminLevel=, Clusters=,             \n"
           "                            DefaultAccount=, DefaultWCKey=, and Names=     \n"
           "                                                                           \n"
           "       list wckey         - Clusters=, End=, Format=, ID=, Names=,         \n"
           "                            Start=, User=, and WithDeleted                 \n"
           "                                                                           \n"
           "       archive dump       - Directory=, Events, Jobs,                      \n"
           "                            PurgeEventAfter=, PurgeJobAfter=,              \n"
           "                            PurgeStepAfter=, PurgeSuspendAfter=,           \n"
           "                            Script=, Steps, and Suspend                    \n"
           "                                                                           \n"
           "       archive load       - File=, or Insert=                              \n"
           "                                                                           \n"
           "  Format options are different for listing each entity pair.               \n"
           "                                                                           \n"
           "  One can get an number of characters by following the field option with   \n"
           "  a %NUMBER option.  i.e. format=name%30 will print 30 chars of field name.\n"
           "                                                                           \n"
           "       Account            - Account, Coordinators, Description, Organization\n"
           "                                                                           \n"
           "       Association        - Account, Cluster, DefaultQOS, Fairshare,       \n"
           "                            GrpTRESMins, GrpTRESRunMins, GrpTRES, GrpJobs, \n"
           "                            GrpMemory, GrpNodes, GrpSubmitJob, GrpWall,    \n"
           "                            ID, LFT, MaxTRESMins, MaxTRES,                 \n"
           "                            MaxJobs, MaxNodes, MaxSubmitJobs, MaxWall, QOS,\n"
           "                            ParentID, ParentName, Partition, RGT,          \n"
           "                            User, WithRawQOS                               \n"
           "                                                                           \n"
           "       Cluster            - Classification, Cluster, ClusterNodes,         \n"
           "                            ControlHost, ControlPort, DefaultQOS,          \n"
           "                            Fairshare, Flags, GrpTRESMins, GrpTRES GrpJobs,\n"
           "                            GrpMemory, GrpNodes, GrpSubmitJob, MaxTRESMins, \n"
           "                            MaxTRES, MaxJobs, MaxNodes, MaxSubmitJobs,     \n"
           "                            MaxWall, NodeCount, PluginIDSelect, RPC, TRES  \n"
           "                                                                           \n"
           "       Event              - Cluster, ClusterNodes, Duration, End,          \n"
           "                            Event, EventRaw, NodeName, Reason, Start,      \n"
           "                            State, StateRaw, TRES, User                    \n"
           "                                                                           \n"
           "       QOS                - Description, Flags, GraceTime, GrpJobs,        \n"
           "                            GrpSubmitJob, GrpTRES, GrpTRESMins, GrpWall,   \n"
           "                            MaxJobs, MaxSubmitJobsPerUser, MaxTRESMins,    \n"
           "                            MaxTRESPerJob, MaxTRESPerNode, MaxTRESPerUser, \n"
           "                            MaxWall, Name, Preempt, PreemptMode,           \n"
           "                            Priority, UsageFactor, UsageThreshold          \n"
           "                                                                           \n"
           "       Resource           - Cluster, Count, CountAllowed, CountUsed,       \n"
           "                            Description, Flags, Manager, Name,             \n"
           "                            PercentAllowed, PercentUsed, Server, Type      \n"
           "                                                                           \n"
           "       Reservation        - Assoc, Cluster, End, Flags, ID, Name,          \n"
           "                            NodeNames, Start, TRES, UnusedWall             \n"
           "                                                                           \n"
           "       RunAwayJobs        - Cluster, ID, Name, Partition, State,           \n"
           "                            TimeStart, TimeEnd                             \n"
           "                                                                           \n"
           "       Transactions       - Action, Actor, Info, TimeStamp, Where          \n"
           "                                                                           \n"
           "       TRES               - ID, Name, Type                                 \n"
           "                                                                           \n"
           "       User               - AdminLevel, Coordinators, DefaultAccount,      \n"
           "                            DefaultWCKey, User                             \n"
           "                                                                           \n"
           "       WCKey              - Cluster, ID, Name, User                        \n"
           "                                                                           \n"
           "       Account/User WithAssoc option will also honor                       \n"
           "       all of the options for Association.                                 \n"
           "                                                                           \n"
           "                                                                           \n"
           "  All commands entitys, and options are case-insensitive.               \n"
           "\n";
}

} // namespace sacctmgr
} // namespace mc::cmd
