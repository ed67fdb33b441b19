// Definition files: header keys, the sections minicluster builds, and the ones it refuses.
#include "mc/containers/definition.h"

#include <QtTest>

using namespace mc::containers;

class DefinitionTest : public QObject {
    Q_OBJECT

private slots:
    void aLocalimageDefinitionHasItsSections();
    void aDefinitionWithoutBootstrapIsAnError();
    void anUnknownSectionIsAnError();
    void aStartscriptIsKeptAsUnsupported();
};

void DefinitionTest::aLocalimageDefinitionHasItsSections()
{
    std::string error;
    Definition d = parseDefinition("# comment\nBootstrap: localimage\nFrom: base.sif\n\n"
                                   "%files\n    data.csv /opt/data.csv\n    run.py\n"
                                   "%post\n    echo hi > /opt/hi\n"
                                   "%environment\n    export A=1\n"
                                   "%runscript\n    exec python3 \"$@\"\n"
                                   "%labels\n    Author Alice Martin\n    Version 1.0\n",
        error);
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(d.header["bootstrap"], std::string("localimage"));
    QCOMPARE(d.header["from"], std::string("base.sif"));
    QCOMPARE(d.files.size(), std::size_t{2});
    QCOMPARE(d.files[0].second, std::string("/opt/data.csv"));
    QCOMPARE(d.files[1].first, std::string("run.py"));
    QCOMPARE(d.files[1].second, std::string("run.py"));
    QCOMPARE(d.post, std::string("    echo hi > /opt/hi\n"));
    QCOMPARE(d.environment, std::string("    export A=1\n"));
    QCOMPARE(d.runscript, std::string("    exec python3 \"$@\"\n"));
    QCOMPARE(d.labels.size(), std::size_t{2});
    QCOMPARE(d.labels[0].first, std::string("Author"));
    QCOMPARE(d.labels[0].second, std::string("Alice Martin"));
}

void DefinitionTest::aDefinitionWithoutBootstrapIsAnError()
{
    std::string error;
    parseDefinition("From: ubuntu\n%post\n    true\n", error);
    QCOMPARE(error, std::string("no bootstrap specification found"));
}

void DefinitionTest::anUnknownSectionIsAnError()
{
    std::string error;
    parseDefinition("Bootstrap: scratch\n%postt\n    true\n", error);
    QCOMPARE(error, std::string("invalid section(s) specified: postt"));
}

void DefinitionTest::aStartscriptIsKeptAsUnsupported()
{
    std::string error;
    Definition d = parseDefinition("Bootstrap: scratch\n%startscript\n    true\n", error);
    QVERIFY(error.empty());
    QCOMPARE(d.unsupportedSections, std::vector<std::string>{"startscript"});
}

QTEST_GUILESS_MAIN(DefinitionTest)
#include "definition_test.moc"
