#include "mc/lessons/check.h"

#include "mc/sched/time_format.h"

#include <cctype>
#include <cstdlib>

namespace mc::lessons {

namespace {

// Words separated by blanks; "double quotes" keep blanks and are removed (also inside a word:
// name="my job").
std::vector<std::string> words(std::string_view line, bool &unbalanced)
{
    std::vector<std::string> out;
    std::string cur;
    bool inWord = false;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') {
            quoted = !quoted;
            inWord = true;
        } else if (!quoted && (c == ' ' || c == '\t')) {
            if (inWord) {
                out.push_back(cur);
                cur.clear();
                inWord = false;
            }
        } else {
            cur += c;
            inWord = true;
        }
    }
    if (inWord) {
        out.push_back(cur);
    }
    unbalanced = quoted;
    return out;
}

std::optional<Condition> condition(const std::string &word)
{
    static constexpr std::pair<std::string_view, Op> kOps[] = {{"!=", Op::Ne}, {"<=", Op::Le},
        {">=", Op::Ge}, {"=", Op::Eq}, {"<", Op::Lt}, {">", Op::Gt}, {"~", Op::Has}};
    std::size_t best = std::string::npos;
    std::string_view opText;
    Op op = Op::Eq;
    for (const auto &[text, o] : kOps) {
        std::size_t at = word.find(text);
        if (at != std::string::npos && (at < best || (at == best && text.size() > opText.size()))) {
            best = at;
            opText = text;
            op = o;
        }
    }
    if (best == std::string::npos || best == 0) {
        return std::nullopt;
    }
    Condition c;
    c.field = word.substr(0, best);
    c.op = op;
    c.value = word.substr(best + opText.size());
    for (char &ch : c.field) {
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    return c;
}

bool isNumber(std::string_view s)
{
    if (s.empty()) {
        return false;
    }
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c))) {
            return false;
        }
    }
    return true;
}

} // namespace

std::optional<long long> parseDuration(std::string_view text)
{
    if (text.empty()) {
        return std::nullopt;
    }
    // Slurm's formats ([days-]hours:minutes:seconds, minutes:seconds, days-hours), read by the
    // scheduler's own parser, as sbatch --time reads them.
    if (text.find(':') != std::string_view::npos || text.find('-') != std::string_view::npos) {
        auto seconds = sched::parseTimeLimit(text);
        return seconds && *seconds >= 0 ? std::optional<long long>(*seconds) : std::nullopt;
    }
    char unit = text.back();
    long long factor = 1;
    std::string_view digits = text;
    if (unit == 's' || unit == 'm' || unit == 'h' || unit == 'd') {
        factor = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : 86400;
        digits = text.substr(0, text.size() - 1);
    }
    if (!isNumber(digits)) {
        return std::nullopt;
    }
    return std::atoll(std::string(digits).c_str()) * factor;
}

std::optional<long long> parseMemoryMiB(std::string_view text)
{
    if (text.empty()) {
        return std::nullopt;
    }
    char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
    std::string_view digits = text;
    long long num = 1;
    long long den = 1;
    if (unit == 'K' || unit == 'M' || unit == 'G' || unit == 'T') {
        digits = text.substr(0, text.size() - 1);
        if (unit == 'K') {
            den = 1024;
        } else if (unit == 'G') {
            num = 1024;
        } else if (unit == 'T') {
            num = 1024 * 1024;
        }
    }
    if (!isNumber(digits)) {
        return std::nullopt;
    }
    return std::atoll(std::string(digits).c_str()) * num / den;
}

CheckParse parseCheck(std::string_view line)
{
    CheckParse result;
    bool unbalanced = false;
    auto w = words(line, unbalanced);
    if (unbalanced) {
        result.error = "a quote is not closed";
        return result;
    }
    if (w.empty()) {
        result.error = "empty check";
        return result;
    }
    Check c;
    c.source = std::string(line);
    std::size_t i = 0;
    bool negated = false;
    if (w[0] == "no" || w[0] == "not") {
        negated = true;
        ++i;
    }
    if (i >= w.size()) {
        result.error = "'" + w[0] + "' needs a check after it";
        return result;
    }
    const std::string &head = w[i++];
    if (head == "job" || head == "jobs") {
        c.kind = CheckKind::Job;
        if (head == "jobs" && !negated && i < w.size() && isNumber(w[i])) {
            c.atLeast = std::atoi(w[i++].c_str());
        }
    } else if (head == "node" || head == "nodes") {
        c.kind = CheckKind::Node;
        if (i < w.size() && w[i].find_first_of("=<>~") == std::string::npos) {
            c.target = w[i++];
        } else {
            c.target = "any";
        }
    } else if (head == "file" || head == "dir") {
        c.kind = CheckKind::File;
        if (negated) {
            result.error = "write `file PATH missing` instead of `no file PATH`";
            return result;
        }
        if (i >= w.size()) {
            result.error = "`file` needs a path";
            return result;
        }
        c.target = w[i++];
        c.fileTest = head == "dir" ? FileTest::IsDir : FileTest::Exists;
        if (i < w.size()) {
            const std::string &t = w[i++];
            if (t == "exists") {
                c.fileTest = head == "dir" ? FileTest::IsDir : FileTest::Exists;
            } else if (t == "missing") {
                c.fileTest = FileTest::Missing;
            } else if (t == "contains" || t == "lacks" || t == "older_than" || t == "newer_than") {
                if (i >= w.size()) {
                    result.error = "`" + t + "` needs a value";
                    return result;
                }
                c.fileArg = w[i++];
                c.fileTest = t == "contains" ? FileTest::Contains
                    : t == "lacks"           ? FileTest::NotContains
                    : t == "older_than"      ? FileTest::OlderThan
                                             : FileTest::NewerThan;
                if ((c.fileTest == FileTest::OlderThan || c.fileTest == FileTest::NewerThan)
                    && !parseDuration(c.fileArg)) {
                    result.error = "cannot read the duration '" + c.fileArg + "'";
                    return result;
                }
            } else {
                result.error = "unknown file test '" + t
                    + "' (exists, missing, contains, lacks, older_than, newer_than)";
                return result;
            }
        }
        if (i < w.size()) {
            result.error = "unexpected '" + w[i] + "' after the file test";
            return result;
        }
        result.check = c;
        return result;
    } else if (head == "ran") {
        c.kind = CheckKind::Ran;
        if (i >= w.size()) {
            result.error = "`ran` needs a command pattern, e.g. ran \"sbatch *\"";
            return result;
        }
        c.target = w[i++];
        while (i < w.size()) {
            if ((w[i] != "on" && w[i] != "with") || i + 1 >= w.size()) {
                result.error = "after the pattern, only `with OPTIONS` and `on HOST` may follow";
                return result;
            }
            if (w[i] == "on") {
                c.host = w[i + 1];
            } else {
                std::string alternatives = w[i + 1] + "|";
                for (std::size_t from = 0, bar;
                     (bar = alternatives.find('|', from)) != std::string::npos; from = bar + 1) {
                    std::string opt = alternatives.substr(from, bar - from);
                    if (opt.size() < 2 || opt[0] != '-' || (opt[1] != '-' && opt.size() != 2)) {
                        result.error = "'" + opt + "' is not an option like -a or --archive";
                        return result;
                    }
                    c.options.push_back(opt);
                }
            }
            i += 2;
        }
        c.none = negated;
        c.atLeast = negated ? 0 : 1;
        result.check = c;
        return result;
    } else {
        result.error = "unknown check '" + head + "' (job, jobs, file, dir, ran, node)";
        return result;
    }
    for (; i < w.size(); ++i) {
        auto cond = condition(w[i]);
        if (!cond) {
            result.error = "'" + w[i] + "' is not a condition like field=value";
            return result;
        }
        c.conditions.push_back(*cond);
    }
    if (negated) {
        c.none = true;
        c.atLeast = 0;
    }
    result.check = c;
    return result;
}

} // namespace mc::lessons
