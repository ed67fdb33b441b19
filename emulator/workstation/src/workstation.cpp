#include "mc/ws/workstation.h"

#include "mc/base/file.h"
#include "mc/emu/shell_history.h"
#include "mc/proto/identity.h"
#include "mc/sched/site_conf.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace mc::ws {

namespace fs = std::filesystem;

namespace {

// crypt(3) SHA-512 of kLoginPassword (made once with a fixed salt: nothing secret about it).
constexpr const char *kLoginPasswordHash
    = "$6$minicluster$4tPKypLgkGEWSoADHejgavqbwoRtNU6v8.cVCyN5nEQh097Mxabt8fMxVSUO45/"
      "YOLtqqLMeg1ICGdSL/XT/s1";

std::string wsDir(const WorkstationOptions &o)
{
    return o.layout.dir + "/workstation";
}

std::string wsHome(const WorkstationOptions &o)
{
    return wsDir(o) + "/home/" + o.user;
}

// This user's own laptop settings: each student's ssh reads its own (one's `User` or key never
// serves another).
std::string wsUserEtc(const WorkstationOptions &o)
{
    return wsDir(o) + "/etc/users/" + o.user;
}

bool writeFile(const std::string &path, const std::string &text, fs::perms perms)
{
    {
        std::ofstream out(path, std::ios::trunc);
        out << text;
        if (!out) {
            return false;
        }
    }
    std::error_code ec;
    fs::permissions(path, perms, ec);
    return true;
}

// A single-quoted shell word.
std::string quote(const std::string &s)
{
    std::string out = "'";
    for (char c : s) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

// Runs ssh-keygen (no passphrase) unless `path` exists.
bool makeKey(const std::string &path, const std::string &comment, std::string &error)
{
    if (fs::exists(path)) {
        return true;
    }
    pid_t pid = ::fork();
    if (pid == 0) {
        int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        ::execlp("ssh-keygen", "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment.c_str(),
            "-f", path.c_str(), static_cast<char *>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)
        || WEXITSTATUS(status) != 0) {
        error = "cannot create the SSH key " + path
            + " (is ssh-keygen installed? the openssh-client package)";
        return false;
    }
    return true;
}

const sched::SiteUser *siteUser(
    const WorkstationOptions &o, const std::string &name, sched::SiteUsers &users)
{
    users = sched::parseSiteUsers(base::fileText(o.layout.etc() + "/minicluster.conf"));
    return users.find(name);
}

} // namespace

bool prepareWorkstation(const WorkstationOptions &o, std::string &error)
{
    std::error_code ec;
    const std::string ws = wsDir(o);
    const std::string home = wsHome(o);
    for (const auto &d : {ws + "/etc", wsUserEtc(o), ws + "/bin", home + "/.ssh",
             o.layout.etc() + "/ssh", o.layout.home() + "/" + o.user + "/.ssh"}) {
        fs::create_directories(d, ec);
        if (ec) {
            error = d + ": " + ec.message();
            return false;
        }
    }
    fs::permissions(home + "/.ssh", fs::perms::owner_all, ec);
    fs::permissions(o.layout.home() + "/" + o.user + "/.ssh", fs::perms::owner_all, ec);

    // The login node's host key, and the laptop user's own key.
    const std::string hostKey = o.layout.etc() + "/ssh/ssh_host_ed25519_key";
    const std::string userKey = home + "/.ssh/id_ed25519";
    const bool freshKey = !fs::exists(userKey);
    if (!makeKey(hostKey, "root@login1", error) || !makeKey(userKey, o.user + "@laptop", error)) {
        return false;
    }
    // The key made here is on the cluster, as after the course's "add your SSH key" step; a key
    // the student makes later is not, until ssh-copy-id puts it there (with the password).
    std::string pub = base::fileText(userKey + ".pub");
    std::string authorized = o.layout.home() + "/" + o.user + "/.ssh/authorized_keys";
    if (freshKey && base::fileText(authorized).find(pub) == std::string::npos) {
        std::ofstream(authorized, std::ios::app) << pub;
        fs::permissions(authorized, fs::perms::owner_read | fs::perms::owner_write, ec);
    }
    sched::SiteUsers users;
    if (const sched::SiteUser *u = siteUser(o, o.user, users);
        u && o.mode == emu::SandboxMode::Bubblewrap && proto::usersIsolated()) {
        // The login node's sshd runs as the user's own real id: ~/.ssh there is the user's.
        const std::string dotSsh = o.layout.home() + "/" + o.user + "/.ssh";
        for (const std::string &path : {dotSsh, authorized}) {
            [[maybe_unused]] int rc
                = ::lchown(path.c_str(), static_cast<uid_t>(proto::isolatedId(u->uid)),
                    static_cast<gid_t>(proto::isolatedId(u->gid)));
        }
    }

    std::string hostPub = base::fileText(hostKey + ".pub");
    hostPub = hostPub.substr(0, hostPub.rfind(' ')); // "ssh-ed25519 AAAA..."
    writeFile(ws + "/etc/known_hosts", o.clusterName + ",login1 " + hostPub + "\n",
        fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read
            | fs::perms::others_read);

    // sshd inside login1's sandbox: paths as the sandbox shows them.
    const std::string etcIn = emu::kSandboxEtc;
    writeFile(o.layout.etc() + "/ssh/sshd_config",
        "# The login node's sshd, started by `minicluster sshd-stdio` for each ssh connection\n"
        "# from the workstation (written by `minicluster workstation`).\n"
        "HostKey "
            + etcIn
            + "/ssh/ssh_host_ed25519_key\n"
              "AuthorizedKeysFile .ssh/authorized_keys\n"
              "PubkeyAuthentication yes\n"
              "PasswordAuthentication yes\n"
              "PermitEmptyPasswords no\n"
              "KbdInteractiveAuthentication no\n"
              "UsePAM no\n"
              "StrictModes no\n"
              "PidFile none\n"
              "PrintMotd no\n"
              "PrintLastLog no\n"
              "LogLevel ERROR\n"
              "Subsystem sftp internal-sftp\n"
              "SetEnv PATH="
            + std::string(emu::kSandboxBin) + ":/usr/local/bin:/usr/bin:/bin SLURM_CONF=" + etcIn
            + "/slurm.conf MINICLUSTER_SOCKET=" + emu::kSandboxRun + "/ctld.sock\n",
        fs::perms::owner_read | fs::perms::owner_write);

    // The laptop's ssh configuration: the student's own ~/.ssh/config first (its values win),
    // then how the cluster's name is reached.
    std::string proxy
        = quote(o.binDir + "/minicluster") + " --dir " + quote(o.layout.dir) + " sshd-stdio %r";
    writeFile(wsUserEtc(o) + "/ssh_config",
        "# " + o.user
            + "'s laptop ssh settings (written by `minicluster workstation`). Your own settings\n"
              "# go in ~/.ssh/config, read first.\n"
              "Include \""
            + home
            + "/.ssh/config\"\n"
              "Match host "
            + o.clusterName
            + ",login1\n"
              "    ProxyCommand "
            + proxy + "\n    HostKeyAlias " + o.clusterName + "\n    User " + o.user
            + "\n"
              "Host *\n"
              "    GlobalKnownHostsFile \""
            + ws + "/etc/known_hosts\"\n    UserKnownHostsFile \"" + home
            + "/.ssh/known_hosts\"\n"
              "    StrictHostKeyChecking yes\n"
              "    LogLevel ERROR\n",
        fs::perms::owner_read | fs::perms::owner_write);

    auto exe = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec
        | fs::perms::others_read | fs::perms::others_exec;
    // ssh finds its default keys through the password database, not $HOME: the wrappers offer
    // the laptop's ~/.ssh/id_* as ssh's defaults, unless -i names a key (ssh-copy-id tests a
    // new key alone that way, so it says "already installed" only when it is).
    for (const char *tool : {"ssh", "scp", "sftp"}) {
        writeFile(ws + "/bin/" + tool,
            std::string("#!/bin/sh\n# The laptop's ") + tool
                + ": the real OpenSSH client with this user's workstation settings.\n"
                  "case \" $* \" in\n"
                  "*\" -i\"*) ;;\n"
                  "*) set -- -o \"IdentityFile=$HOME/.ssh/id_rsa\" -o "
                  "\"IdentityFile=$HOME/.ssh/id_ecdsa\" -o \"IdentityFile=$HOME/.ssh/id_ed25519\" "
                  "\"$@\" ;;\n"
                  "esac\n"
                  "exec /usr/bin/"
                + tool + " -F " + quote(ws + "/etc/users") + "/\"$USER\"/ssh_config \"$@\"\n",
            exe);
    }
    // ssh-keygen too would save a new key under the password database's home (this computer's
    // own ~/.ssh): on the laptop, a new key goes to the laptop's ~/.ssh/id_<type>.
    writeFile(ws + "/bin/ssh-keygen",
        "#!/bin/sh\n# The laptop's ssh-keygen: a new key goes to the laptop's ~/.ssh.\n"
        "gen=1 type=rsa prev=\n"
        "for a do\n"
        "  [ \"$prev\" = -t ] && type=$a\n"
        "  case \"$a\" in\n"
        "  -t?*) type=${a#-t} ;;\n"
        "  -[lyRFHeipcBDkQsYLAf]*) gen= ;;\n"
        "  esac\n"
        "  prev=$a\n"
        "done\n"
        "[ -n \"$gen\" ] && set -- -f \"$HOME/.ssh/id_$type\" \"$@\"\n"
        "exec /usr/bin/ssh-keygen \"$@\"\n",
        exe);
    writeFile(ws + "/bin/hostname", "#!/bin/sh\necho laptop\n", exe);
    writeFile(ws + "/bashrc",
        "# The laptop's shell (written by `minicluster workstation`).\n"
        "[ -f ~/.bashrc ] && . ~/.bashrc\n"
        "PS1='[\\u@laptop \\W]\\$ '\n"
        "__mc_note() {\n"
        "  local line num cmd\n"
        "  line=$(HISTTIMEFORMAT= builtin history 1) || return 0\n"
        "  line=\"${line#\"${line%%[![:space:]]*}\"}\"\n"
        "  num=\"${line%%[[:space:]]*}\"\n"
        "  if [ -z \"${__mc_last+x}\" ] || [ \"$num\" = \"$__mc_last\" ]; then "
        "__mc_last=$num; return 0; fi\n"
        "  __mc_last=$num\n"
        "  cmd=\"${line#\"$num\"}\"; cmd=\"${cmd#\"${cmd%%[![:space:]]*}\"}\"\n"
        "  [ -n \"$cmd\" ] || return 0\n"
        "  local t=${EPOCHREALTIME/,/.}\n"
        "  printf '%s\\tlaptop\\t%s\\t%s\\n' \"${t:-$(date +%s)}\" \"$PWD\" \"${cmd//$'\\t'/ }\" "
        ">> "
            + quote(emu::historyPath(o.layout, o.user))
            + " 2>/dev/null\n"
              "  return 0\n"
              "}\n"
              "PROMPT_COMMAND=__mc_note\n",
        fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read
            | fs::perms::others_read);
    fs::create_directories(o.layout.run() + "/history", ec);
    return true;
}

std::vector<std::string> shellEnvironment(const std::string &home, const std::string &user,
    const std::string &path, const std::vector<std::string> &extra,
    std::initializer_list<const char *> inherited)
{
    std::vector<std::string> env = {
        "HOME=" + home,
        "USER=" + user,
        "LOGNAME=" + user,
        "SHELL=/bin/bash",
        "PATH=" + path,
    };
    env.insert(env.end(), extra.begin(), extra.end());
    for (const char *name : inherited) {
        if (const char *v = std::getenv(name)) {
            env.push_back(std::string(name) + "=" + v);
        }
    }
    return env;
}

int execWithEnvironment(std::vector<std::string> argv, std::vector<std::string> env)
{
    std::vector<char *> cargv;
    for (auto &a : argv) {
        cargv.push_back(a.data());
    }
    cargv.push_back(nullptr);
    std::vector<char *> cenv;
    for (auto &e : env) {
        cenv.push_back(e.data());
    }
    cenv.push_back(nullptr);
    ::execvpe(cargv[0], cargv.data(), cenv.data());
    std::fprintf(stderr, "minicluster: cannot run %s: %s\n", cargv[0], std::strerror(errno));
    return 127;
}

int workstationShell(const WorkstationOptions &o, const std::optional<std::string> &command)
{
    std::string error;
    if (!prepareWorkstation(o, error)) {
        std::fprintf(stderr, "minicluster: %s\n", error.c_str());
        return 1;
    }
    const std::string home = wsHome(o);
    std::vector<std::string> env
        = shellEnvironment(home, o.user, wsDir(o) + "/bin:/usr/local/bin:/usr/bin:/bin",
            {"MINICLUSTER_HOSTNAME=laptop"}, {"TERM", "LANG", "LC_ALL", "COLORTERM", "DISPLAY"});
    std::vector<std::string> argv;
    if (command) {
        emu::HistoryEntry entry;
        entry.time = emu::wallClockNow();
        entry.host = "laptop";
        entry.cwd = home;
        entry.command = *command;
        emu::appendHistory(o.layout, o.user, entry);
        argv = {"/bin/bash", "-c", *command};
    } else {
        argv = {"/bin/bash", "--noprofile", "--rcfile", wsDir(o) + "/bashrc", "-i"};
    }
    if (::chdir(home.c_str()) != 0) {
        std::perror(home.c_str());
        return 1;
    }
    return execWithEnvironment(std::move(argv), std::move(env));
}

int sshdStdio(const WorkstationOptions &o, const std::string &user)
{
    if (o.mode != emu::SandboxMode::Bubblewrap) {
        std::fprintf(stderr,
            "minicluster: ssh to the cluster needs the bubblewrap sandbox (user namespaces); "
            "this cluster runs in plain mode, where ssh is not supported by minicluster. Use "
            "`minicluster shell` instead.\n");
        return 1;
    }
    sched::SiteUsers users;
    const sched::SiteUser *u = siteUser(o, user, users);
    if (!u) {
        std::fprintf(stderr, "minicluster: no user '%s' on this cluster\n", user.c_str());
        return 1;
    }
    emu::SandboxSpec spec;
    spec.mode = o.mode;
    spec.hostname = "login1";
    spec.uid = u->uid;
    spec.gid = u->gid;
    spec.mounts = emu::nodeMounts(o.layout, "login1", o.binDir);
    spec.mounts.push_back({"/etc/profile", o.layout.etc() + "/profile", false});
    // The host's /etc/shadow may know a real account of the same name (often locked, which
    // sshd refuses): the sandbox gets the cluster's own, where every emulated user has the
    // password the lessons give (kLoginPassword), as a real cluster's accounts have one.
    std::string shadow;
    for (const auto &su : users.users) {
        shadow += su.name + ":" + kLoginPasswordHash + ":19000:0:99999:7:::\n";
    }
    const std::string shadowPath = o.layout.etc() + "/ssh/shadow";
    if (base::fileText(shadowPath) != shadow) {
        writeFile(shadowPath, shadow, fs::perms::owner_read | fs::perms::owner_write);
    }
    if (o.mode == emu::SandboxMode::Bubblewrap && proto::usersIsolated()) {
        // This sshd runs as the user's own real id (mc/proto/identity.h), which cannot read
        // root's 0600 files: it gets its own copies of the configuration, the host key and the
        // password file, the user's and no one else's.
        const std::string own = o.layout.etc() + "/ssh/users/" + user;
        std::error_code failed; // a copy that fails: sshd says what it lacks
        fs::create_directories(own, failed);
        for (const char *name : {"sshd_config", "ssh_host_ed25519_key", "shadow"}) {
            fs::copy_file(o.layout.etc() + "/ssh/" + name, own + "/" + name,
                fs::copy_options::overwrite_existing, failed);
        }
        for (const std::string &path :
            {own, own + "/sshd_config", own + "/ssh_host_ed25519_key", own + "/shadow"}) {
            [[maybe_unused]] int rc
                = ::lchown(path.c_str(), static_cast<uid_t>(proto::isolatedId(u->uid)),
                    static_cast<gid_t>(proto::isolatedId(u->gid)));
        }
        fs::permissions(own, fs::perms::owner_all, failed);
        spec.mounts.push_back({std::string(emu::kSandboxEtc) + "/ssh", own, false});
        spec.mounts.push_back({"/etc/shadow", own + "/shadow", false});
    } else {
        spec.mounts.push_back({"/etc/shadow", shadowPath, false});
    }
    // `minicluster lesson` in an ssh session too, as in `minicluster shell`.
    std::error_code ec;
    fs::create_directories(o.layout.state() + "/lessons", ec);
    fs::create_directories(wsDir(o) + "/home/" + user, ec);
    for (auto &m : emu::lessonMounts(o.layout, user, o.binDir)) {
        spec.mounts.push_back(std::move(m));
    }
    spec.passwdFile = o.layout.etc() + "/passwd";
    spec.groupFile = o.layout.etc() + "/group";
    // The nodes' names resolve on login1, so its sshd reaches them for a laptop's `ssh -L
    // 8888:cn01:8888` tunnel (without: "connect_to cn01: unknown host" and nothing forwarded).
    spec.hostsFile = o.layout.etc() + "/hosts";
    spec.workDir = "/home/" + user;
    spec.dieWithParent = true;
    auto argv = emu::sandboxArgv(spec,
        {"/usr/sbin/sshd", "-i", "-e", "-f", std::string(emu::kSandboxEtc) + "/ssh/sshd_config"});
    return execWithEnvironment(std::move(argv), {"PATH=/usr/sbin:/usr/bin:/bin"});
}

} // namespace mc::ws
