// The shipped lessons: every one parses without problems in English and French, both languages
// hold the same lessons with the same steps and checks, and every file a lesson hands out is
// a sample job that states its teaching point.
#include "mc/lessons/catalog.h"
#include "mc/lessons/lesson.h"

#include <QDir>
#include <QFile>
#include <QTest>

namespace {

const std::string kLessons = MC_SOURCE_DIR "/lessons";
const QString kSamples = QStringLiteral(MC_SOURCE_DIR "/sample_jobs");

} // namespace

class LessonsContentTest : public QObject {
    Q_OBJECT

private slots:
    void atLeastTenLessonsInEachLanguage()
    {
        for (const char *lang : {"en", "fr"}) {
            QDir dir(QString::fromStdString(kLessons) + QLatin1Char('/') + QLatin1String(lang));
            QVERIFY2(dir.entryList({QStringLiteral("*.md")}).size() >= 10, lang);
        }
    }

    void everyLessonParsesCleanly()
    {
        for (const char *lang : {"en", "fr"}) {
            for (const auto &e : mc::lessons::listLessons(kLessons, lang)) {
                auto parsed = mc::lessons::loadLesson(kLessons, lang, e.id);
                QVERIFY(parsed.has_value());
                std::string all;
                for (const auto &p : parsed->problems) {
                    all += e.id + ": " + p + "\n";
                }
                QVERIFY2(parsed->problems.empty(), all.c_str());
                QVERIFY2(!parsed->lesson.steps.empty(), e.id.c_str());
                for (const auto &s : parsed->lesson.steps) {
                    QVERIFY2(!s.checks.empty(),
                        (e.id + ": step '" + s.title + "' has no check").c_str());
                }
            }
        }
    }

    void frenchAndEnglishAgreeStepByStep()
    {
        auto en = mc::lessons::listLessons(kLessons, "en");
        for (const auto &e : en) {
            auto a = mc::lessons::loadLesson(kLessons, "en", e.id);
            auto b = mc::lessons::loadLesson(kLessons, "fr", e.id);
            QVERIFY(a && b);
            QCOMPARE(b->lesson.lang, std::string("fr"));
            QCOMPARE(b->lesson.files, a->lesson.files);
            QCOMPARE(b->lesson.laptopFiles, a->lesson.laptopFiles);
            QCOMPARE(b->lesson.preset, a->lesson.preset);
            QCOMPARE(b->lesson.steps.size(), a->lesson.steps.size());
            for (std::size_t i = 0; i < a->lesson.steps.size(); ++i) {
                const auto &ca = a->lesson.steps[i].checks;
                const auto &cb = b->lesson.steps[i].checks;
                QCOMPARE(cb.size(), ca.size());
                for (std::size_t k = 0; k < ca.size(); ++k) {
                    QCOMPARE(cb[k].source, ca[k].source);
                }
            }
        }
    }

    void handedOutFilesAreSampleJobsWithATeachingPoint()
    {
        for (const auto &e : mc::lessons::listLessons(kLessons, "en")) {
            auto parsed = mc::lessons::loadLesson(kLessons, "en", e.id);
            auto files = parsed->lesson.files;
            files.insert(
                files.end(), parsed->lesson.laptopFiles.begin(), parsed->lesson.laptopFiles.end());
            for (const auto &f : files) {
                QFile file(kSamples + QLatin1Char('/') + QString::fromStdString(f));
                QVERIFY2(file.open(QIODevice::ReadOnly), (e.id + ": " + f).c_str());
                if (f.find(".md") == std::string::npos) {
                    QVERIFY2(file.readAll().contains("Teaching point"), f.c_str());
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(LessonsContentTest)
#include "lessons_content_test.moc"
