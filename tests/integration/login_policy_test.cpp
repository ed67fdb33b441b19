// The login node's policy on real processes: a busy loop in the login shell is warned on its
// terminal (here its stderr pipe), then throttled in a cgroup or killed, with a message that
// says to use sbatch or salloc; light work is left alone. The policy window is 2 s here and the
// share 5 % of a CPU, so that a busy loop is caught even on a machine loaded by other work.
#include "cluster_fixture.h"

#include <QDir>
#include <QFile>
#include <QtTest>

namespace {

// Writes etc/minicluster.conf (the default preset's) with `policy` as its LoginPolicy= line.
bool setLoginPolicy(const ClusterFixture &cluster, const QString &policy)
{
    QFile preset(QStringLiteral(MC_SOURCE_DIR "/emulator/presets/default/minicluster.conf"));
    if (!preset.open(QIODevice::ReadOnly)) {
        return false;
    }
    QString text = QString::fromUtf8(preset.readAll());
    text.replace(
        QRegularExpression(QStringLiteral("^LoginPolicy=.*$"), QRegularExpression::MultilineOption),
        policy);
    if (!text.contains(policy)) {
        text += policy + QLatin1Char('\n');
    }
    QDir().mkpath(cluster.dir() + QStringLiteral("/etc"));
    QFile out(cluster.dir() + QStringLiteral("/etc/minicluster.conf"));
    return out.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && out.write(text.toUtf8()) == text.toUtf8().size();
}

const char *const kBusyLoop = "timeout 7 sh -c 'while :; do :; done'; echo \"exit $?\"";

} // namespace

class LoginPolicyTest : public QObject {
    Q_OBJECT

private slots:
    void busyProcessIsWarnedThenThrottledAndStatusSaysSo();
    void killPolicyEndsTheBusyProcess();
    void lightWorkIsLeftAlone();
    void upReportsAMisspeltKeyWithItsLine();
};

void LoginPolicyTest::busyProcessIsWarnedThenThrottledAndStatusSaysSo()
{
    ClusterFixture cluster;
    QVERIFY(setLoginPolicy(cluster,
        QStringLiteral("LoginPolicy=throttle CpuShare=0.05 Window=2 Grace=1 ThrottleShare=0.01")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult status = cluster.minicluster({QStringLiteral("status")});
    QVERIFY2(status.out.contains(QStringLiteral("login node policy: a process above 0.05 CPU for "
                                                "2 s is warned, then throttled to 0.01 CPU")),
        qPrintable(status.out));
    const bool cgroups = !status.out.contains(QStringLiteral("limits: rlimit"));

    ShellResult r = cluster.shell(QString::fromLatin1(kBusyLoop));
    QVERIFY2(r.err.contains(QStringLiteral("login1: warning: process ")), qPrintable(r.err));
    QVERIFY2(
        r.err.contains(QStringLiteral("has used more than 0.05 CPU for 2 s")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("with sbatch (batch) or salloc (interactive)")),
        qPrintable(r.err));
    if (cgroups) {
        // Throttled, not killed: the loop lives on until `timeout` ends it.
        QVERIFY2(r.err.contains(QStringLiteral("is now throttled to 0.01 CPU")), qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("exit 124\n"));
    } else {
        QVERIFY2(r.err.contains(QStringLiteral("was killed")), qPrintable(r.err));
    }
}

void LoginPolicyTest::killPolicyEndsTheBusyProcess()
{
    ClusterFixture cluster;
    QVERIFY(
        setLoginPolicy(cluster, QStringLiteral("LoginPolicy=kill CpuShare=0.05 Window=2 Grace=1")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // `timeout` only bounds the test: the loop is killed by the policy (SIGTERM: 143) long before.
    ShellResult r
        = cluster.shell(QStringLiteral("timeout 20 sh -c 'while :; do :; done'; echo \"exit $?\""));
    QVERIFY2(r.err.contains(QStringLiteral("login1: warning: process ")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("(sh) was killed: it kept using more than 0.05 CPU on "
                                           "the login node. Run it as a job: sbatch")),
        qPrintable(r.err));
    QCOMPARE(r.out, QStringLiteral("exit 143\n")); // SIGTERM
}

void LoginPolicyTest::lightWorkIsLeftAlone()
{
    ClusterFixture cluster;
    QVERIFY(
        setLoginPolicy(cluster, QStringLiteral("LoginPolicy=kill CpuShare=0.05 Window=2 Grace=1")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult r = cluster.shell(QStringLiteral("sleep 4; echo done"));
    QCOMPARE(r.out, QStringLiteral("done\n"));
    QVERIFY2(!r.err.contains(QStringLiteral("login1:")), qPrintable(r.err));
}

// minicluster.conf's keys are read in one place (sched::readSiteConf): a misspelt key is not
// skipped by every daemon but said by `minicluster up`, with the file and line, and so are a
// bad value and the logind's own reading of its line; the cluster still starts.
void LoginPolicyTest::upReportsAMisspeltKeyWithItsLine()
{
    ClusterFixture cluster;
    QVERIFY(setLoginPolicy(
        cluster, QStringLiteral("LoginPolicy=kill Windw=5 Grace=soon\nSharedFsLatncy=1ms")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    QFile conf(cluster.dir() + QStringLiteral("/etc/minicluster.conf"));
    QVERIFY(conf.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(conf.readAll()).split(QLatin1Char('\n'));
    const QString policyLine
        = QString::number(lines.indexOf(QStringLiteral("LoginPolicy=kill Windw=5 Grace=soon")) + 1);
    const QString latencyLine
        = QString::number(lines.indexOf(QStringLiteral("SharedFsLatncy=1ms")) + 1);
    const QString out = cluster.lastError();
    for (const QString &expected : {QStringLiteral("minicluster: warning: etc/minicluster.conf:%1: "
                                                   "unknown key \"Windw\" on a LoginPolicy= line")
                                        .arg(policyLine),
             QStringLiteral(
                 "minicluster: warning: etc/minicluster.conf:%1: unknown key \"SharedFsLatncy\"")
                 .arg(latencyLine),
             QStringLiteral("minicluster: warning: etc/minicluster.conf:%1: Grace= needs a number")
                 .arg(policyLine)}) {
        QVERIFY2(
            out.contains(expected), qPrintable(expected + QStringLiteral("\n--- in ---\n") + out));
    }
    QVERIFY2(
        policyLine != QLatin1String("0") && latencyLine != QLatin1String("0"), qPrintable(out));
}

QTEST_GUILESS_MAIN(LoginPolicyTest)
#include "login_policy_test.moc"
