// apptainer --writable-tmpfs (issue #21): the container's root is a tmpfs, writable, as the
// same user; what is written there is gone when the container ends, and the image is never
// changed. Without overlayfs (an unprivileged user's nested user namespaces here), the image's
// own folders (/usr, /etc, ...) stay read-only, as Apptainer's underlay leaves them. On login1
// and in a batch job.
#include "storage_support.h"

#include <QtTest>

using namespace storage_test;

namespace {

const QString kDebian = QStringLiteral("/opt/minicluster/software/images/debian-12.sif");

// Writes a new folder at the root and a file in it, reads them back, says who owns them; then
// tries the image's own /usr/bin.
const QString kWrites = QStringLiteral(
    "export LC_ALL=C; mkdir /work && echo new > /work/new.txt && cat /work/new.txt && "
    "stat -c %U /work/new.txt && id -un; "
    "touch /usr/bin/x 2>&1 | sed 's/^touch: //'");

// The same image afterwards, without the option: the folder is gone, the root read-only.
const QString kAfter = QStringLiteral(
    "export LC_ALL=C; ls /work 2>&1 | sed 's/^ls: //'; mkdir /work 2>&1 | sed 's/^mkdir: //'");

const QStringList kWritten{QStringLiteral("new"), QStringLiteral("alice"), QStringLiteral("alice"),
    QStringLiteral("cannot touch '/usr/bin/x': Read-only file system")};
const QStringList kGone{QStringLiteral("cannot access '/work': No such file or directory"),
    QStringLiteral("cannot create directory '/work': Read-only file system")};

} // namespace

class WritableTmpfsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void theRootIsATmpfsGoneAfterOnLogin1();
    void theRootIsATmpfsGoneAfterInAJob();

private:
    std::unique_ptr<ClusterFixture> m_cluster;
};

void WritableTmpfsTest::initTestCase()
{
    if (!bubblewrapWorks()) {
        QSKIP("containers need bubblewrap with user namespaces");
    }
    QVERIFY2(QFile::exists(QStringLiteral(MC_BIN_DIR "/../share/minicluster/software/images/"
                                                     "debian-12.sif")),
        "the container images were not built: install squashfs-tools and run cmake again");
    m_cluster = std::make_unique<ClusterFixture>();
    QVERIFY2(m_cluster->up(), qPrintable(m_cluster->lastError()));
    // The first use unpacks the SIF into alice's cache and says so: done here, once.
    QCOMPARE(m_cluster->shell(QStringLiteral("apptainer exec %1 true").arg(kDebian)).exitCode, 0);
}

void WritableTmpfsTest::cleanupTestCase()
{
    m_cluster.reset();
}

void WritableTmpfsTest::theRootIsATmpfsGoneAfterOnLogin1()
{
    const ShellResult w = m_cluster->shell(
        QStringLiteral("apptainer exec --writable-tmpfs %1 sh -c \"%2\"").arg(kDebian, kWrites));
    QCOMPARE(w.err, QString());
    QCOMPARE(w.exitCode, 0);
    QCOMPARE(outputLines(w.out), kWritten);
    const ShellResult after
        = m_cluster->shell(QStringLiteral("apptainer exec %1 sh -c \"%2\"").arg(kDebian, kAfter));
    QCOMPARE(outputLines(after.out), kGone);
}

void WritableTmpfsTest::theRootIsATmpfsGoneAfterInAJob()
{
    QVERIFY(writeFile(m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("wt.sh")),
        QStringLiteral("#!/bin/bash\n"
                       "#SBATCH -c1 --mem=1000M -t 5 -o wt.out\n"
                       "apptainer exec --writable-tmpfs %1 sh -c \"%2\"\n"
                       "echo '== after'\n"
                       "apptainer exec %1 sh -c \"%3\"\n")
            .arg(kDebian, kWrites, kAfter)));
    const ShellResult r = m_cluster->shell(QStringLiteral("sbatch --wait wt.sh"), {}, 180000);
    QCOMPARE(r.exitCode, 0);
    const QStringList lines
        = outputLines(readFile(m_cluster->homeFile(QStringLiteral("alice"), "wt.out")));
    QCOMPARE(lines, kWritten + QStringList{QStringLiteral("== after")} + kGone);
}

QTEST_GUILESS_MAIN(WritableTmpfsTest)
#include "writable_tmpfs_test.moc"
