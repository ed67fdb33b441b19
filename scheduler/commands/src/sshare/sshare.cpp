#include "mc/cmd/sshare.h"

#include "../shared/outcome.h"
#include "../shared/text.h"
#include "sshare_options.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>

namespace mc::cmd {
namespace {

using proto::Json;
using namespace sshare;

constexpr std::string_view kProgram = "sshare";

// One association row as sshare prints it (the root row, an account, a user of an account).
struct Assoc {
    std::string account; // indented by depth, as sshare shows the tree
    std::string user;
    std::optional<std::int64_t> rawShares;
    std::optional<double> normShares; // none on the root rows
    std::int64_t rawUsage = 0;
    double normUsage = 0;
    double effectiveUsage = 0;
    std::optional<double> fairshare; // users only (fair tree: accounts have a LevelFS instead)
};

std::string fixed(double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%f", value);
    return buffer;
}

struct Field {
    std::string_view name;
    int width;
    bool right;
    std::string (*value)(const Assoc &);
};

// Slurm 22.05 sshare's fields (those with a value here; the TRES ones print empty).
constexpr std::array kFields{
    Field{"Account", 20, false,
        [](const Assoc &a) {
            return a.account;
        }},
    Field{"User", 10, true,
        [](const Assoc &a) {
            return a.user;
        }},
    Field{"RawShares", 10, true,
        [](const Assoc &a) {
            return a.rawShares ? std::to_string(*a.rawShares) : std::string();
        }},
    Field{"NormShares", 11, true,
        [](const Assoc &a) {
            return a.normShares ? fixed(*a.normShares) : std::string();
        }},
    Field{"RawUsage", 11, true,
        [](const Assoc &a) {
            return std::to_string(a.rawUsage);
        }},
    Field{"NormUsage", 11, true,
        [](const Assoc &a) {
            return fixed(a.normUsage);
        }},
    Field{"EffectvUsage", 13, true,
        [](const Assoc &a) {
            return fixed(a.effectiveUsage);
        }},
    Field{"FairShare", 10, true,
        [](const Assoc &a) {
            return a.fairshare ? fixed(*a.fairshare) : std::string();
        }},
    Field{"LevelFS", 10, true,
        [](const Assoc &) {
            return std::string();
        }},
    Field{"GrpTRESMins", 20, false,
        [](const Assoc &) {
            return std::string();
        }},
    Field{"TRESRunMins", 20, false,
        [](const Assoc &) {
            return std::string();
        }},
    Field{"Cluster", 10, false,
        [](const Assoc &) {
            return std::string();
        }},
    Field{"GrpTRESRaw", 20, false,
        [](const Assoc &) {
            return std::string();
        }},
    Field{"ID", 6, true,
        [](const Assoc &) {
            return std::string();
        }},
    Field{"Partition", 12, false,
        [](const Assoc &) {
            return std::string();
        }},
};

// sshare -e (--helpformat), as Slurm 22.05 lists its fields.
constexpr std::array<std::string_view, 15> kHelpFields{"Account", "Cluster", "EffectvUsage",
    "FairShare", "GrpTRESMins", "GrpTRESRaw", "ID", "LevelFS", "NormShares", "NormUsage",
    "Partition", "RawShares", "RawUsage", "TRESRunMins", "User"};

constexpr std::string_view kDefaultFields
    = "Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare";
constexpr std::string_view kLongFields = "Account,User,RawShares,NormShares,RawUsage,NormUsage,"
                                         "EffectvUsage,FairShare,LevelFS,GrpTRESMins,TRESRunMins";

struct Column {
    const Field *field;
    int width;
};

struct Settings {
    bool all = false, noHeader = false, longList = false, usersOnly = false;
    int parsable = 0; // 1: trailing '|', 2: none
    std::optional<std::string> format;
    std::vector<std::string> users, accounts;
};

std::optional<Outcome> apply(Settings &s, const ParsedOption &option)
{
    const OptionDef &def = *option.def;
    const std::string value = option.value.value_or("");
    switch (def.id) {
    case kHelp:
    case kUsage:
        return Outcome{std::string(sshare::help()), {}, 0};
    case kVersion:
        return Outcome{std::string(kSlurmVersion), {}, 0};
    case kHelpFormat: {
        std::string out;
        for (std::size_t i = 0; i < kHelpFields.size(); ++i) {
            out += padRight(kHelpFields[i], 17);
            out += (i % 4 == 3 || i + 1 == kHelpFields.size()) ? "\n" : " ";
        }
        return Outcome{out, {}, 0};
    }
    case kAll:
        s.all = true;
        break;
    case kAccounts:
        s.accounts = splitList(value);
        break;
    case kLong:
        s.longList = true;
        break;
    case kNoHeader:
        s.noHeader = true;
        break;
    case kFormat:
        s.format = value;
        break;
    case kParsable:
        s.parsable = 1;
        break;
    case kParsable2:
        s.parsable = 2;
        break;
    case kUsers:
        s.users = splitList(value);
        break;
    case kUsersOnly:
        s.usersOnly = true;
        break;
    default:
        break; // --verbose: nothing more to say
    }
    return std::nullopt;
}

// "Account,User%12" -> columns; an unknown field is Slurm's fatal "Invalid field requested".
std::optional<std::vector<Column>> parseFields(std::string_view spec, std::string &error)
{
    std::vector<Column> columns;
    for (const auto &item : splitList(spec)) {
        const std::size_t percent = item.find('%');
        const std::string name = item.substr(0, percent);
        const Field *found = nullptr;
        for (const auto &f : kFields) {
            if (equalsIgnoreCase(name, f.name)) {
                found = &f;
            }
        }
        if (!found) {
            error = errorLine(kProgram, "Invalid field requested: \"" + toLower(name) + "\"");
            return std::nullopt;
        }
        int width = found->width;
        if (percent != std::string::npos) {
            width = static_cast<int>(parseLeadingInteger(item.substr(percent + 1)));
        }
        columns.push_back({found, width});
    }
    return columns;
}

bool listed(const std::vector<std::string> &list, const std::string &value)
{
    return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
}

// The tree sshare prints: root, then each account with its users' rows under it.
std::vector<Assoc> tree(const Json &reply, const Settings &s, const std::string &me)
{
    std::map<std::string, std::pair<const Json *, std::vector<const Json *>>> accounts;
    for (const auto &row : reply["associations"].items()) {
        auto &entry = accounts[row["account"].toString()];
        if (row["user"].toString().empty()) {
            entry.first = &row;
        } else {
            entry.second.push_back(&row);
        }
    }
    std::int64_t total = 0;
    for (const auto &[name, entry] : accounts) {
        total += entry.first ? entry.first->operator[]("raw_usage").toInt() : 0;
    }
    std::vector<Assoc> rows;
    if (!s.usersOnly) {
        Assoc root;
        root.account = "root";
        root.rawUsage = total;
        root.normUsage = total > 0 ? 1.0 : 0.0;
        root.effectiveUsage = root.normUsage;
        rows.push_back(root);
    }
    // root's own user association, under the root account (Slurm lists it with -a).
    if (!s.usersOnly && listed(s.accounts, "root")
        && (s.users.empty() ? s.all : listed(s.users, "root"))) {
        Assoc rootUser;
        rootUser.account = " root";
        rootUser.user = "root";
        rootUser.rawShares = 1;
        rootUser.fairshare = 1.0;
        rows.push_back(rootUser);
    }
    auto fill = [](Assoc &a, const Json &row) {
        a.rawShares = row["raw_shares"].toInt(1);
        a.normShares = row["norm_shares"].toDouble();
        a.rawUsage = row["raw_usage"].toInt();
        a.normUsage = row["norm_usage"].toDouble();
        a.effectiveUsage = row["effective_usage"].toDouble();
    };
    const std::vector<std::string> wantedUsers
        = !s.users.empty() ? s.users : (s.all ? std::vector<std::string>{} : std::vector{me});
    for (const auto &[name, entry] : accounts) {
        if (!listed(s.accounts, name)) {
            continue;
        }
        if (!s.usersOnly) {
            Assoc account;
            account.account = " " + name;
            if (entry.first) {
                fill(account, *entry.first);
            }
            rows.push_back(account);
        }
        for (const Json *user : entry.second) {
            if (!listed(wantedUsers, (*user)["user"].toString())) {
                continue;
            }
            Assoc a;
            a.account = (s.usersOnly ? "" : "  ") + name;
            a.user = (*user)["user"].toString();
            fill(a, *user);
            a.fairshare = (*user)["fairshare"].toDouble();
            rows.push_back(a);
        }
    }
    return rows;
}

} // namespace

int Sshare::run()
{
    Settings s;
    const ParseResult cli = parseOptions(optionTable(), m_ctx.args, kProgram);
    if (auto end = applyOptions(
            cli, kProgram, [&](const ParsedOption &option) { return apply(s, option); })) {
        return deliver(m_ctx, *end);
    }
    std::string error;
    auto columns = parseFields(
        s.format.value_or(std::string(s.longList ? kLongFields : kDefaultFields)), error);
    if (!columns) {
        return deliver(m_ctx, {{}, error, 1});
    }
    Json request = Json::object();
    request.set("op", "shares");
    auto reply = m_ctx.controller ? m_ctx.controller(request) : std::nullopt;
    if (!reply) {
        return deliver(m_ctx,
            {{},
                "sshare: error: Problem with query: Unable to contact slurm controller (connect "
                "failure)\n",
                1});
    }
    if (!(*reply)["ok"].toBool()) {
        return deliver(m_ctx,
            {{}, errorLine(kProgram, "Problem with query: " + (*reply)["error"].toString()), 1});
    }
    std::vector<TableColumn> table;
    std::vector<std::string> headers;
    for (const auto &c : *columns) {
        table.push_back({static_cast<std::size_t>(std::abs(c.width)), c.field->right});
        headers.emplace_back(c.field->name);
    }
    std::vector<std::vector<std::string>> rows;
    for (const auto &assoc : tree(*reply, s, m_ctx.user.name)) {
        std::vector<std::string> &values = rows.emplace_back();
        for (const auto &c : *columns) {
            values.push_back(c.field->value(assoc));
        }
    }
    const std::string out = tableText(table, headers, rows, s.noHeader, s.parsable);
    return deliver(m_ctx, {out, {}, 0});
}

namespace sshare {
namespace {

constexpr ArgKind kNo = ArgKind::None;
constexpr ArgKind kReq = ArgKind::Required;
constexpr bool kRefused = false;

// Slurm 22.05 sshare's long_options[].
constexpr std::array kOptions{
    OptionDef{"accounts", 'A', kReq, kAccounts},
    OptionDef{"all", 'a', kNo, kAll},
    OptionDef{"helpformat", 'e', kNo, kHelpFormat},
    OptionDef{"long", 'l', kNo, kLong},
    OptionDef{"partition", 'm', kNo, kPartition, kRefused},
    OptionDef{"cluster", 'M', kReq, kClusters, kRefused},
    OptionDef{"clusters", 0, kReq, kClusters, kRefused},
    OptionDef{"noheader", 'n', kNo, kNoHeader},
    OptionDef{"format", 'o', kReq, kFormat},
    OptionDef{"parsable", 'p', kNo, kParsable},
    OptionDef{"parsable2", 'P', kNo, kParsable2},
    OptionDef{"users", 'u', kReq, kUsers},
    OptionDef{"Users", 'U', kNo, kUsersOnly},
    OptionDef{"verbose", 'v', kNo, kVerbose},
    OptionDef{"version", 'V', kNo, kVersion},
    OptionDef{"help", 0, kNo, kHelp},
    OptionDef{"usage", 0, kNo, kUsage},
};

} // namespace

std::span<const OptionDef> optionTable()
{
    return kOptions;
}

std::string_view help()
{
    return "Usage:  sshare [OPTION]                                                    \n"
           "  Valid OPTIONs are:                                                       \n"
           "    -a or --all            list all users                                  \n"
           "    -A or --accounts=      display specific accounts (comma separated list)\n"
           "    -e or --helpformat     Print a list of fields that can be specified    \n"
           "                           with the '--format' option                      \n"
           "    -l or --long           include normalized usage in output              \n"
           "    -m or --partition      print the partition part of the association     \n"
           "    -M or --cluster=names  clusters to issue commands to.                  \n"
           "                           NOTE: SlurmDBD must be up.                      \n"
           "    -n or --noheader       omit header from output                         \n"
           "    -o or --format=        Comma separated list of fields (use             \n"
           "                           \"--helpformat\" for a list of available fields).\n"
           "    -p or --parsable       '|' delimited output with a trailing '|'        \n"
           "    -P or --parsable2      '|' delimited output without a trailing '|'     \n"
           "    -u or --users=         display specific users (comma separated list)   \n"
           "    -U or --Users          display only user information                   \n"
           "    -v or --verbose        display more information                        \n"
           "    -V or --version        display tool version number                     \n"
           "          --help           display this usage description                  \n"
           "          --usage          display this usage description                  \n"
           "                                                                           \n"
           "\n";
}

} // namespace sshare
} // namespace mc::cmd
