// SharedFsLatency=: libmc_slowfs.so delays path operations under the shared prefixes only, and
// the login profile preloads it only when the policy asks for it. Counted, not timed: the
// library reports how many operations it delayed.
#include "mc/storage/cluster_storage.h"
#include "mc/storage/storage_conf.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace mc::storage;

namespace {

// Runs `cat` on every file named, with the library preloaded; returns the delayed count.
long delayedOperations(const QString &root, const QStringList &files)
{
    QProcess cat;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LD_PRELOAD", MC_BIN_DIR "/libmc_slowfs.so");
    env.insert("MC_SLOWFS_LATENCY_US", "1");
    env.insert("MC_SLOWFS_PATHS", root + "/shared:/nonexistent-prefix");
    env.insert("MC_SLOWFS_COUNT_FILE", root + "/count");
    env.remove("ASAN_OPTIONS");
    cat.setProcessEnvironment(env);
    cat.setWorkingDirectory(root);
    QFile::remove(root + "/count");
    cat.start("/bin/cat", files);
    if (!cat.waitForFinished(10000) || cat.exitCode() != 0) {
        return -1;
    }
    QFile count(root + "/count");
    if (!count.open(QIODevice::ReadOnly)) {
        return -1;
    }
    QList<QByteArray> words = count.readAll().trimmed().split(' ');
    return words.size() == 2 ? words[1].toLong() : -1;
}

} // namespace

class SlowFsTest : public QObject {
    Q_OBJECT
private slots:
    void delaysOnlyUnderTheSharedPrefixes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString root = dir.path();
        QVERIFY(QDir(root).mkpath("shared/data"));
        QVERIFY(QDir(root).mkpath("shared-not/data"));
        QVERIFY(QDir(root).mkpath("local"));
        QStringList sharedFiles, localFiles, lookalikeFiles;
        for (int i = 0; i < 5; ++i) {
            for (auto [sub, list] : {std::pair{QString("shared/data"), &sharedFiles},
                     std::pair{QString("local"), &localFiles},
                     std::pair{QString("shared-not/data"), &lookalikeFiles}}) {
                QFile f(root + "/" + sub + "/f" + QString::number(i));
                QVERIFY(f.open(QIODevice::WriteOnly));
                f.write("x\n");
                list->append(f.fileName());
            }
        }
        QCOMPARE(delayedOperations(root, localFiles), 0L);
        QCOMPARE(delayedOperations(root, lookalikeFiles), 0L); // a prefix is a whole component
        long shared = delayedOperations(root, sharedFiles);
        QVERIFY2(shared >= 5, qPrintable(QString::number(shared))); // at least one open each
        // Relative paths are judged from the working directory.
        QCOMPARE(delayedOperations(root, {"shared/data/f0", "local/f0"}),
            delayedOperations(root, {sharedFiles[0]}));
    }

    void theConfKeyTakesMicrosecondsOrMilliseconds()
    {
        QCOMPARE(parseStorageConf("SharedFsLatency=2ms\n").sharedFsLatencyUs, 2000L);
        QCOMPARE(parseStorageConf("SharedFsLatency=500us\n").sharedFsLatencyUs, 500L);
        QCOMPARE(parseStorageConf("").sharedFsLatencyUs, 0L);
        StorageConf bad = parseStorageConf("SharedFsLatency=fast\n");
        QCOMPARE(bad.sharedFsLatencyUs, 0L);
        QCOMPARE(bad.problems.size(), std::size_t(1));
    }

    void theProfilePreloadsTheLibraryOnlyWhenAsked()
    {
        ProfilePaths paths{"/scratch", "/project", "/opt/minicluster/software",
            "/opt/minicluster/etc", "/home", "/datasets", "/opt/minicluster/bin", 0};
        QVERIFY(!QString::fromStdString(storageProfile(paths, {})).contains("LD_PRELOAD"));
        paths.sharedFsLatencyUs = 2000;
        QString text = QString::fromStdString(storageProfile(paths, {}));
        QVERIFY(text.contains("export MC_SLOWFS_LATENCY_US=2000\n"));
        QVERIFY(text.contains("MC_SLOWFS_PATHS=\"/home:/project:/scratch:/datasets\""));
        QVERIFY(text.contains("/opt/minicluster/bin/libmc_slowfs.so"));
    }
};

QTEST_GUILESS_MAIN(SlowFsTest)
#include "slowfs_test.moc"
