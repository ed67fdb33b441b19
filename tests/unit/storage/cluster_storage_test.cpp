#include "mc/storage/cluster_storage.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace mc::storage;
namespace fs = std::filesystem;

class ClusterStorageTest : public QObject {
    Q_OBJECT
private slots:
    void homesGetTheAllianceLinks()
    {
        QTemporaryDir tmp;
        mc::emu::ClusterLayout layout{tmp.path().toStdString()};
        fs::create_directories(layout.home() + "/alice");
        fs::create_directories(layout.home() + "/bob/scratch"); // bob's own folder
        std::vector<StorageUser> users = {{"alice", {"def-prof", "def-other"}}, {"bob", {}}};
        linkUserDirs(layout, true, users);
        QCOMPARE(fs::read_symlink(layout.home() + "/alice/scratch").string(),
            std::string("/scratch/alice"));
        QCOMPARE(fs::read_symlink(layout.home() + "/alice/projects/def-other").string(),
            std::string("/project/def-other"));
        QVERIFY(fs::is_directory(fs::symlink_status(layout.home() + "/bob/scratch")));
        // Another sandbox mode: the links follow; the user's own folder still stays.
        linkUserDirs(layout, false, users);
        QCOMPARE(fs::read_symlink(layout.home() + "/alice/scratch").string(),
            layout.scratch() + "/alice");
        QVERIFY(fs::is_directory(fs::symlink_status(layout.home() + "/bob/scratch")));
    }

    void profileSetsTheVariablesAndIsValidBash()
    {
        ProfilePaths paths{"/scratch", "/project", "/opt/minicluster/software",
            "/opt/minicluster/etc", "/home", "/datasets", "/opt/minicluster/bin", 0};
        std::string text
            = storageProfile(paths, {{"alice", {"def-prof", "def-x"}}, {"bob", {"def-y"}}});
        QVERIFY(text.find("export SCRATCH=\"/scratch/$USER\"") != std::string::npos);
        QVERIFY(
            text.find("alice) export PROJECT=\"/project/def-prof/alice\"") != std::string::npos);
        QVERIFY(
            text.find("MODULEPATH=\"/opt/minicluster/software/modulefiles\"") != std::string::npos);
        QTemporaryDir tmp;
        std::string file = tmp.path().toStdString() + "/profile";
        std::ofstream(file) << text;
        QProcess bash;
        bash.start(QStringLiteral("bash"),
            {QStringLiteral("-c"),
                QStringLiteral("bash -n %1 && USER=bob; . %1; echo \"$SCRATCH $PROJECT\"")
                    .arg(QString::fromStdString(file))});
        QVERIFY(bash.waitForFinished(10000));
        QCOMPARE(bash.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(bash.readAllStandardOutput()).trimmed(),
            QStringLiteral("/scratch/bob /project/def-y/bob"));
    }
};

QTEST_GUILESS_MAIN(ClusterStorageTest)
#include "cluster_storage_test.moc"
