// run/ is the daemons' (issue #18). With users on ids of their own (root, bubblewrap), a
// student's shell and jobs reach the sockets, the storage node's usage snapshot and their own
// history by name, but cannot list run/ nor read the daemons' pid files and settings or a
// classmate's history. As an ordinary user (no ids of its own for each emulated user), `up`
// and `status` say plainly that users are not isolated from each other.
#include "cluster_fixture.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// Each attempt prints "<what> served" or "<what> denied".
constexpr const char *kProbe = R"SH(
try() { what=$1; shift; if "$@" > /dev/null 2>&1; then echo "$what served"; else echo "$what denied"; fi; }
try list ls /opt/minicluster/run
try pid cat /opt/minicluster/run/ctld.pid
try args cat /opt/minicluster/run/noded-args
try history cat /opt/minicluster/run/history/bob
try own-history cat /opt/minicluster/run/history/alice
try squeue squeue -h
try diskusage diskusage_report
)SH";

bool deniedAndServed(const QString &out)
{
    for (const char *denied : {"list", "pid", "args", "history"}) {
        if (!out.contains(QLatin1String(denied) + QStringLiteral(" denied"))) {
            return false;
        }
    }
    for (const char *served : {"own-history", "squeue", "diskusage"}) {
        if (!out.contains(QLatin1String(served) + QStringLiteral(" served"))) {
            return false;
        }
    }
    return true;
}

} // namespace

class RunDirTest : public QObject {
    Q_OBJECT
private slots:
    void aStudentCannotListOrReadRunButReachesTheSockets();
    void asAnOrdinaryUserUpAndStatusSayUsersAreNotIsolated();
    void anOrdinaryUserWithSubordinateIdsIsolatesClassmates();
};

void RunDirTest::aStudentCannotListOrReadRunButReachesTheSockets()
{
    if (!bubblewrapWorks() || ::geteuid() != 0) {
        QSKIP("users are isolated only as root with bubblewrap (minicluster status says so)");
    }
    ClusterFixture cluster(QStringLiteral("bubblewrap"));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // bob's shell leaves its history (a `-c` command is noted in it).
    QCOMPARE(cluster.shell(QStringLiteral("true"), QStringLiteral("bob")).exitCode, 0);

    const QString inShell = cluster.shell(QString::fromLatin1(kProbe)).out;
    QVERIFY2(deniedAndServed(inShell), qPrintable(inShell));

    // The same from a batch job on a compute node.
    QFile script(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("probe.sh")));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(QByteArrayLiteral("#!/bin/bash\n") + kProbe);
    script.close();
    QVERIFY(cluster.shell(QStringLiteral("sbatch -o probe.out probe.sh"))
                .out.contains(QStringLiteral("Submitted batch job")));
    const QString out = cluster.homeFile(QStringLiteral("alice"), QStringLiteral("probe.out"));
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(out).contains(QStringLiteral("diskusage ")), 60000);
    QVERIFY2(deniedAndServed(readTextFile(out)), qPrintable(readTextFile(out)));
}

// As root the test drops to `nobody` with setpriv (a throwaway account with no home), as an
// ordinary user it runs as itself: either way no subordinate ids are used (MINICLUSTER_USERNS=0
// turns them off), so every emulated user is the one real uid.
void RunDirTest::asAnOrdinaryUserUpAndStatusSayUsersAreNotIsolated()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QStringList prefix;
    if (::geteuid() == 0) {
        const passwd *nobody = ::getpwnam("nobody");
        if (!nobody) {
            QSKIP("no user 'nobody' to run as");
        }
        if (::chown(dir.path().toUtf8().constData(), nobody->pw_uid, nobody->pw_gid) != 0) {
            QSKIP("cannot give the temporary directory to nobody");
        }
        prefix = {QStringLiteral("setpriv"), QStringLiteral("--reuid"),
            QString::number(nobody->pw_uid), QStringLiteral("--regid"),
            QString::number(nobody->pw_gid), QStringLiteral("--clear-groups"),
            QStringLiteral("--")};
    }
    const QString cluster = dir.path() + QStringLiteral("/cluster");
    auto run = [&](const QStringList &args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), dir.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.path());
        env.insert(QStringLiteral("MINICLUSTER_USERNS"), QStringLiteral("0")); // no subuids
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(dir.path());
        QStringList argv = prefix;
        argv << QStringLiteral(MC_BIN_DIR "/minicluster") << QStringLiteral("--dir") << cluster
             << args;
        p.start(argv.takeFirst(), argv);
        p.waitForFinished(120000);
        return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    };
    if (::geteuid() == 0) {
        // The build must be reachable by nobody (a build below a 0700 home is not).
        QProcess probe;
        probe.start(QStringLiteral("setpriv"),
            prefix.mid(1) << QStringLiteral(MC_BIN_DIR "/minicluster") << QStringLiteral("--help"));
        probe.waitForFinished(20000);
        if (probe.exitCode() != 0) {
            QSKIP("the build directory is not reachable by nobody");
        }
    }
    const QString up = run({QStringLiteral("up")});
    const QString status = run({QStringLiteral("status")});
    const QString down = run({QStringLiteral("down")});
    QVERIFY2(up.contains(QStringLiteral("minicluster: cluster up in ")), qPrintable(up));
    QVERIFY2(up.contains(QStringLiteral("minicluster: users are not isolated (")), qPrintable(up));
    QVERIFY2(status.contains(QStringLiteral("users: not isolated (")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("classmates can read and kill each other's work")),
        qPrintable(status));
}

namespace {

// A host user with 65536 subordinate uids and gids (Debian's adduser gives them), as whom
// `unshare --map-auto` works: the test runs minicluster as that user. Empty if none.
struct Ordinary {
    QString name;
    uid_t uid = 0;
    gid_t gid = 0;
    QString why; // why there is none
};

bool holdsRange(const QString &file, const QString &name)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        return false;
    }
    for (const QString &line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
        const QStringList parts = line.split(QLatin1Char(':'));
        if (parts.size() == 3 && parts[0] == name && parts[2].toLongLong() >= 65536) {
            return true;
        }
    }
    return false;
}

Ordinary ordinaryUserWithSubordinateIds()
{
    Ordinary o;
    if (::geteuid() != 0) {
        const passwd *me = ::getpwuid(::getuid());
        o.name = me ? QString::fromUtf8(me->pw_name) : QString();
        o.uid = ::getuid();
        o.gid = ::getgid();
    } else {
        QFile f(QStringLiteral("/etc/subuid"));
        if (f.open(QIODevice::ReadOnly)) {
            for (const QString &line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
                const QString name = line.section(QLatin1Char(':'), 0, 0);
                const passwd *pw = name.isEmpty() ? nullptr : ::getpwnam(name.toUtf8().constData());
                if (pw && pw->pw_uid != 0 && holdsRange(QStringLiteral("/etc/subuid"), name)
                    && holdsRange(QStringLiteral("/etc/subgid"), name)) {
                    o.name = name;
                    o.uid = pw->pw_uid;
                    o.gid = pw->pw_gid;
                    break;
                }
            }
        }
        if (o.name.isEmpty()) {
            o.why
                = QStringLiteral("no host user has subordinate ids in /etc/subuid and /etc/subgid");
        }
    }
    return o;
}

} // namespace

// Without root, minicluster runs in a user namespace of its own when the laptop's user has
// subordinate ids (newuidmap): each emulated user is a real uid of its own there, so a classmate
// can neither read a 0600 file nor cancel a job, and `down` stops every daemon although it runs
// in another namespace than `up`'s.
void RunDirTest::anOrdinaryUserWithSubordinateIdsIsolatesClassmates()
{
    const Ordinary user = ordinaryUserWithSubordinateIds();
    if (user.name.isEmpty()) {
        QSKIP(qPrintable(user.why));
    }
    QStringList prefix;
    if (::geteuid() == 0) {
        prefix = {QStringLiteral("setpriv"), QStringLiteral("--reuid"), QString::number(user.uid),
            QStringLiteral("--regid"), QString::number(user.gid), QStringLiteral("--clear-groups"),
            QStringLiteral("--")};
    }
    auto exec = [&](const QStringList &args, const QString &home) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("XDG_DATA_HOME"), home);
        env.remove(QStringLiteral("MINICLUSTER_USERNS"));
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(home);
        QStringList argv = prefix + args;
        p.start(argv.takeFirst(), argv);
        p.waitForFinished(120000);
        struct Result {
            int code;
            QString out;
        };
        return Result{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError())};
    };
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    if (::geteuid() == 0 && ::chown(dir.path().toUtf8().constData(), user.uid, user.gid) != 0) {
        QSKIP("cannot give the temporary directory to the test's user");
    }
    const auto probe = exec(
        {QStringLiteral("unshare"), QStringLiteral("--user"), QStringLiteral("--map-root-user"),
            QStringLiteral("--map-auto"), QStringLiteral("true")},
        dir.path());
    if (probe.code != 0) {
        QSKIP(qPrintable(QStringLiteral("%1 cannot map its subordinate ids here (uidmap): %2")
                             .arg(user.name, probe.out)));
    }
    const QString cluster = dir.path() + QStringLiteral("/cluster");
    auto mc = [&](const QStringList &args) {
        return exec(
            QStringList{QStringLiteral(MC_BIN_DIR "/minicluster"), QStringLiteral("--dir"), cluster}
                + args,
            dir.path());
    };
    auto removeCluster = qScopeGuard([&] {
        mc({QStringLiteral("down")});
        // The cluster's files belong to subordinate ids: removed from inside a namespace.
        exec(
            {QStringLiteral("unshare"), QStringLiteral("--user"), QStringLiteral("--map-root-user"),
                QStringLiteral("--map-auto"), QStringLiteral("rm"), QStringLiteral("-rf"), cluster},
            dir.path());
    });
    const auto up
        = mc({QStringLiteral("--sandbox"), QStringLiteral("bubblewrap"), QStringLiteral("up")});
    if (up.out.contains(QStringLiteral("bubblewrap"))
        && !up.out.contains(QStringLiteral("cluster up in "))) {
        QSKIP(qPrintable(QStringLiteral("no bubblewrap sandbox here: ") + up.out));
    }
    QVERIFY2(up.code == 0, qPrintable(up.out));
    const auto status = mc({QStringLiteral("status")});
    QVERIFY2(status.out.contains(QStringLiteral("users: isolated (a user namespace of your own")),
        qPrintable(status.out));

    const auto alice = mc({QStringLiteral("--user"), QStringLiteral("alice"),
        QStringLiteral("shell"), QStringLiteral("-c"),
        QStringLiteral("echo mine > ~/secret.txt && chmod 600 ~/secret.txt && "
                       "mkdir -m 700 ~/private && "
                       "sbatch --parsable --wrap 'sleep 300'")});
    QVERIFY2(alice.code == 0, qPrintable(alice.out));
    const QString job = alice.out.trimmed().section(QLatin1Char('\n'), -1);
    QVERIFY2(job.toInt() > 0, qPrintable(alice.out));
    // On the host, alice's file belongs to a uid that is neither the test's user nor bob's.
    struct stat st { };
    QCOMPARE(
        ::stat((cluster + QStringLiteral("/home/alice/secret.txt")).toUtf8().constData(), &st), 0);
    QVERIFY(st.st_uid != user.uid);
    struct stat bobs { };
    QCOMPARE(::stat((cluster + QStringLiteral("/home/bob")).toUtf8().constData(), &bobs), 0);
    QVERIFY(bobs.st_uid != st.st_uid && bobs.st_uid != user.uid);

    const auto bob = mc({QStringLiteral("--user"), QStringLiteral("bob"), QStringLiteral("shell"),
        QStringLiteral("-c"),
        QStringLiteral("cat /home/alice/secret.txt; echo read=$?; touch /home/alice/private/x; "
                       "echo write=$?; scancel %1; echo cancel=$?")
            .arg(job)});
    QVERIFY2(bob.out.contains(QStringLiteral("Permission denied")), qPrintable(bob.out));
    QVERIFY2(bob.out.contains(QStringLiteral("read=1")), qPrintable(bob.out));
    QVERIFY2(bob.out.contains(QStringLiteral("write=1")), qPrintable(bob.out));
    QVERIFY(!QFile::exists(cluster + QStringLiteral("/home/alice/private/x")));
    QVERIFY2(bob.out.contains(
                 QStringLiteral("scancel: error: Kill job error on job id %1: Access/permission "
                                "denied")
                     .arg(job)),
        qPrintable(bob.out));
    const auto queue = mc({QStringLiteral("shell"), QStringLiteral("-c"),
        QStringLiteral("squeue -h -j %1 -o %T").arg(job)});
    QVERIFY2(queue.out.contains(QStringLiteral("RUNNING")), qPrintable(queue.out));

    // `down` runs in a namespace of its own, yet stops every daemon `up` started.
    const auto down = mc({QStringLiteral("down")});
    QVERIFY2(down.code == 0, qPrintable(down.out));
    auto daemonsLeft = [&] {
        int left = 0;
        for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
            QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
            if (pid.toInt() > 0 && cmdline.open(QIODevice::ReadOnly)
                && cmdline.readAll().contains(QByteArray(1, '\0') + cluster.toUtf8())) {
                ++left;
            }
        }
        return left;
    };
    QTRY_COMPARE_WITH_TIMEOUT(daemonsLeft(), 0, 30000);
}

QTEST_GUILESS_MAIN(RunDirTest)
#include "run_dir_test.moc"
