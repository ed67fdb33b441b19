// SIF files as minicluster writes and reads them: the published layout (header magic and
// offsets, 585-byte descriptors, a 4096-aligned primary squashfs partition), and files that are
// not SIF refused with Apptainer's words.
#include "mc/containers/sif.h"

#include <QtTest>

#include <fstream>

using namespace mc::containers;

class SifTest : public QObject {
    Q_OBJECT

private slots:
    void aWrittenImageReadsBackWithItsObjects();
    void theHeaderHasThePublishedLayout();
    void aFileThatIsNotASifIsNotRecognized();
    void aMissingFileSaysSo();

private:
    QTemporaryDir m_dir;
};

static std::string bytesOf(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void SifTest::aWrittenImageReadsBackWithItsObjects()
{
    const std::string part = m_dir.filePath(QStringLiteral("part.bin")).toStdString();
    std::ofstream(part, std::ios::binary) << std::string(5000, 'x');
    const std::string sif = m_dir.filePath(QStringLiteral("a.sif")).toStdString();
    std::string error;
    QVERIFY(writeSif(sif,
        {{SifDataType::Deffile, "", "Bootstrap: scratch\n", "", false},
            {SifDataType::Labels, "", "{}\n", "", false},
            {SifDataType::Partition, "", "", part, true}},
        error));
    QVERIFY2(error.empty(), error.c_str());
    QVERIFY(!QFile::exists(QString::fromStdString(sif + ".tmp")));
    auto image = readSif(sif, error);
    QVERIFY2(image.has_value(), error.c_str());
    QCOMPARE(image->descriptors.size(), std::size_t{3});
    QCOMPARE(image->arch, std::string("amd64"));
    QCOMPARE(image->id.size(), std::size_t{36});
    const SifDescriptor *def = image->find(SifDataType::Deffile);
    QVERIFY(def);
    QCOMPARE(readSifObject(sif, *def), std::string("Bootstrap: scratch\n"));
    const SifDescriptor *p = image->primaryPartition();
    QVERIFY(p);
    QCOMPARE(p->fsType, kSifFsSquash);
    QCOMPARE(p->offset % 4096, std::int64_t{0});
    QCOMPARE(readSifObject(sif, *p), std::string(5000, 'x'));
    QCOMPARE(p->id, std::uint32_t{3});
}

void SifTest::theHeaderHasThePublishedLayout()
{
    const std::string sif = m_dir.filePath(QStringLiteral("b.sif")).toStdString();
    std::string error;
    QVERIFY(writeSif(sif, {{SifDataType::Labels, "", "{}\n", "", false}}, error));
    const std::string b = bytesOf(sif);
    QCOMPARE(b.substr(0, 32), std::string("#!/usr/bin/env run-singularity\n\0", 32));
    QCOMPARE(b.substr(32, 10), std::string("SIF_MAGIC\0", 10));
    QCOMPARE(b.substr(42, 3), std::string("01\0", 3));
    auto le64 = [&](std::size_t at) {
        std::uint64_t v = 0;
        for (int i = 7; i >= 0; --i) {
            v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<std::size_t>(i)]);
        }
        return v;
    };
    QCOMPARE(le64(80), std::uint64_t{47}); // descriptors free
    QCOMPARE(le64(88), std::uint64_t{48}); // descriptors total
    QCOMPARE(le64(96), std::uint64_t{4096}); // descriptors offset
    QCOMPARE(le64(104), std::uint64_t{48 * 585}); // descriptors size
    QCOMPARE(le64(112), std::uint64_t{4096 + 48 * 585}); // data offset
    QCOMPARE(le64(120), std::uint64_t{3}); // data size
    // The first descriptor: JSON.Labels (0x4003), used, id 1, default group.
    const std::size_t d = 4096;
    QCOMPARE(static_cast<unsigned char>(b[d]), static_cast<unsigned char>(0x03));
    QCOMPARE(static_cast<unsigned char>(b[d + 1]), static_cast<unsigned char>(0x40));
    QCOMPARE(static_cast<int>(b[d + 4]), 1);
    QCOMPARE(static_cast<unsigned char>(b[d + 12]), static_cast<unsigned char>(0xf0));
}

void SifTest::aFileThatIsNotASifIsNotRecognized()
{
    const std::string txt = m_dir.filePath(QStringLiteral("notes.txt")).toStdString();
    std::ofstream(txt) << "hello\n";
    std::string error;
    QVERIFY(!readSif(txt, error).has_value());
    QCOMPARE(error, std::string("image format not recognized"));
}

void SifTest::aMissingFileSaysSo()
{
    std::string error;
    QVERIFY(!readSif(m_dir.filePath(QStringLiteral("none.sif")).toStdString(), error));
    QCOMPARE(error, std::string("No such file or directory"));
}

QTEST_GUILESS_MAIN(SifTest)
#include "sif_test.moc"
