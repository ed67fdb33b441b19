// The bubblewrap plan of `apptainer exec|shell|run`: Apptainer's default binds, --contain,
// --bind to a missing source (Apptainer's words), the environment rules (--cleanenv, the host
// PATH not passed, APPTAINERENV_, --env), and the image's own root read-only.
#include "mc/containers/container_launch.h"

#include <QtTest>

#include <algorithm>

using namespace mc::containers;

class ContainerLaunchTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void theDefaultsBindHomeWorkdirTmpAndSlurmTmpdir();
    void containBindsNothingOfTheHosts();
    void aBindToAMissingSourceFailsInApptainersWords();
    void theEnvironmentFollowsApptainersRules();
    void nvWithoutGpusWarns();
    void aSifsOwnCopyIsOneBindWithItsMountPointsMade();

private:
    LaunchPlan plan(const ApptainerCall &call, std::string *error = nullptr);
    static bool hasTriple(
        const LaunchPlan &p, const std::string &op, const std::string &a, const std::string &b);
    static std::string env(const LaunchPlan &p, const std::string &key);

    QTemporaryDir m_dir;
    ImageRoot m_root;
    HostContext m_host;
};

void ContainerLaunchTest::init()
{
    const QString root = m_dir.filePath(QStringLiteral("rootfs"));
    QDir().mkpath(root + QStringLiteral("/usr/bin"));
    QDir().mkpath(root + QStringLiteral("/home"));
    QDir().mkpath(root + QStringLiteral("/etc"));
    QFile passwd(root + QStringLiteral("/etc/passwd"));
    QVERIFY(passwd.open(QIODevice::WriteOnly));
    passwd.write("root:x:0:0:root:/root:/bin/bash\n");
    passwd.close();
    QDir().mkpath(m_dir.filePath(QStringLiteral("slurmtmp")));
    m_root = {"/img/python", root.toStdString(), false, false}; // a sandbox directory
    m_host = {};
    m_host.cwd = "/scratch/alice/run";
    m_host.home = "/home/alice";
    m_host.passwdLine = "alice:x:1001:1001::/home/alice:/bin/bash";
    m_host.env = {{"PATH", "/opt/minicluster/bin:/usr/bin"}, {"HOME", "/home/alice"},
        {"SLURM_JOB_ID", "7"},
        {"SLURM_TMPDIR", m_dir.filePath(QStringLiteral("slurmtmp")).toStdString()},
        {"APPTAINERENV_GREETING", "hi"}, {"TERM", "xterm"}, {"CUDA_VISIBLE_DEVICES", "0"}};
}

LaunchPlan ContainerLaunchTest::plan(const ApptainerCall &call, std::string *error)
{
    LaunchPlan p;
    std::string e;
    const bool ok = planLaunch(call, m_root, m_host, p, e);
    if (error) {
        *error = e;
    } else if (!ok) {
        qWarning("planLaunch: %s", e.c_str());
    }
    return p;
}

bool ContainerLaunchTest::hasTriple(
    const LaunchPlan &p, const std::string &op, const std::string &a, const std::string &b)
{
    for (std::size_t i = 0; i + 2 < p.argv.size(); ++i) {
        if (p.argv[i] == op && p.argv[i + 1] == a && p.argv[i + 2] == b) {
            return true;
        }
    }
    return false;
}

std::string ContainerLaunchTest::env(const LaunchPlan &p, const std::string &key)
{
    for (const auto &kv : p.env) {
        if (kv.rfind(key + "=", 0) == 0) {
            return kv.substr(key.size() + 1);
        }
    }
    return "<unset>";
}

void ContainerLaunchTest::theDefaultsBindHomeWorkdirTmpAndSlurmTmpdir()
{
    ApptainerCall c;
    c.command = "exec";
    c.args = {"true"};
    LaunchPlan p = plan(c);
    QVERIFY(hasTriple(p, "--bind", "/home/alice", "/home/alice"));
    QVERIFY(hasTriple(p, "--bind", "/tmp", "/tmp"));
    QVERIFY(hasTriple(p, "--bind", "/scratch/alice/run", "/scratch/alice/run"));
    const std::string tmp = m_host.env["SLURM_TMPDIR"];
    QVERIFY(hasTriple(p, "--bind", tmp, tmp));
    // The image's own entries, read-only; /home made in the new root to hold the bind.
    QVERIFY(hasTriple(p, "--ro-bind", m_root.rootfs + "/usr", "/usr"));
    QVERIFY(std::find(p.argv.begin(), p.argv.end(), m_root.rootfs + "/home") == p.argv.end());
    QVERIFY(hasTriple(p, "--chdir", "/scratch/alice/run", "--"));
    QVERIFY(hasTriple(p, "--remount-ro", "/", "--chdir"));
    QCOMPARE(p.dataFiles.at(0),
        std::string("root:x:0:0:root:/root:/bin/bash\nalice:x:1001:1001::/home/alice:/bin/bash\n"));
    QCOMPARE(p.argv.back(), std::string("true"));
}

void ContainerLaunchTest::containBindsNothingOfTheHosts()
{
    ApptainerCall c;
    c.command = "shell";
    c.contain = true;
    c.binds = {{m_dir.path().toStdString(), "/data", true}};
    LaunchPlan p = plan(c);
    QVERIFY(!hasTriple(p, "--bind", "/home/alice", "/home/alice"));
    QVERIFY(!hasTriple(p, "--bind", "/tmp", "/tmp"));
    QVERIFY(std::find(p.argv.begin(), p.argv.end(), "/scratch/alice/run") == p.argv.end());
    QVERIFY(hasTriple(p, "--ro-bind", m_dir.path().toStdString(), "/data"));
    QVERIFY(hasTriple(p, "--chdir", "/home/alice", "--"));
    int tmpfs = 0;
    for (std::size_t i = 0; i + 1 < p.argv.size(); ++i) {
        tmpfs += p.argv[i] == "--tmpfs" ? 1 : 0;
    }
    QCOMPARE(tmpfs, 3); // /tmp, /var/tmp, an empty home
}

void ContainerLaunchTest::aBindToAMissingSourceFailsInApptainersWords()
{
    ApptainerCall c;
    c.command = "exec";
    c.args = {"true"};
    c.binds = {{"/nonexistent/data", "/data", false}};
    std::string error;
    plan(c, &error);
    QCOMPARE(error,
        std::string("container creation failed: mount hook function failure: mount "
                    "/nonexistent/data->/data error: while mounting /nonexistent/data: mount "
                    "source /nonexistent/data doesn't exist"));
}

void ContainerLaunchTest::theEnvironmentFollowsApptainersRules()
{
    ApptainerCall c;
    c.command = "exec";
    c.args = {"env"};
    c.env = {"MODEL=resnet"};
    LaunchPlan p = plan(c);
    QCOMPARE(env(p, "PATH"),
        std::string("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"));
    QCOMPARE(env(p, "SLURM_JOB_ID"), std::string("7"));
    QCOMPARE(env(p, "GREETING"), std::string("hi"));
    QCOMPARE(env(p, "APPTAINERENV_GREETING"), std::string("<unset>"));
    QCOMPARE(env(p, "MODEL"), std::string("resnet"));
    QCOMPARE(env(p, "APPTAINER_CONTAINER"), std::string("/img/python"));
    QCOMPARE(env(p, "APPTAINER_NAME"), std::string("python"));
    c.cleanEnv = true;
    p = plan(c);
    QCOMPARE(env(p, "SLURM_JOB_ID"), std::string("<unset>"));
    QCOMPARE(env(p, "CUDA_VISIBLE_DEVICES"), std::string("<unset>"));
    QCOMPARE(env(p, "TERM"), std::string("xterm"));
    QCOMPARE(env(p, "GREETING"), std::string("hi"));
    c.nv = true;
    p = plan(c);
    QCOMPARE(env(p, "CUDA_VISIBLE_DEVICES"), std::string("0"));
}

void ContainerLaunchTest::nvWithoutGpusWarns()
{
    ApptainerCall c;
    c.command = "exec";
    c.args = {"true"};
    c.nv = true;
    LaunchPlan p = plan(c);
    QCOMPARE(p.warnings, std::vector<std::string>{"Could not find any nv files on this host!"});
    m_host.nvidiaSmi = "/opt/minicluster/bin/nvidia-smi";
    p = plan(c);
    QVERIFY(p.warnings.empty());
    QVERIFY(hasTriple(p, "--ro-bind", "/opt/minicluster/bin/nvidia-smi", "/usr/bin/nvidia-smi"));
}

void ContainerLaunchTest::aSifsOwnCopyIsOneBindWithItsMountPointsMade()
{
    m_root.sif = true; // the user's unpacked copy in the cache
    ApptainerCall c;
    c.command = "exec";
    c.args = {"true"};
    c.binds = {{"/usr/share", "/data/share", true}};
    LaunchPlan p = plan(c);
    QVERIFY(hasTriple(p, "--unshare-user", "--ro-bind", m_root.rootfs));
    QVERIFY(!hasTriple(p, "--ro-bind", m_root.rootfs + "/usr", "/usr"));
    QVERIFY(std::find(p.argv.begin(), p.argv.end(), "--remount-ro") == p.argv.end());
    QVERIFY(QFileInfo(QString::fromStdString(m_root.rootfs + "/home/alice")).isDir());
    QVERIFY(QFileInfo(QString::fromStdString(m_root.rootfs + "/data/share")).isDir());
    QVERIFY(QFileInfo(QString::fromStdString(m_root.rootfs + "/etc/group")).isFile());
    // --writable-tmpfs needs the tmpfs root: the underlay again.
    c.writableTmpfs = true;
    p = plan(c);
    QVERIFY(hasTriple(p, "--ro-bind", m_root.rootfs + "/usr", "/usr"));
}

QTEST_GUILESS_MAIN(ContainerLaunchTest)
#include "container_launch_test.moc"
