// apptainer's command line: options before the image, the container's command after it,
// APPTAINER_BIND added to -B, and refusals in Apptainer's words or "not supported".
#include "mc/containers/apptainer_options.h"

#include <QtTest>

using namespace mc::containers;

class ApptainerOptionsTest : public QObject {
    Q_OBJECT

private slots:
    void execTakesOptionsThenImageThenCommand();
    void bindSpecsHaveSourceDestinationAndMode();
    void theBindVariableAddsToTheOptions();
    void networkCommandsAndUnknownOnesAreRefused();
    void unimplementedOptionsAreRefusedNotIgnored();
    void inspectAndBuildOptions();
};

static bool parse(std::vector<std::string> argv, ApptainerCall &call, std::string &error,
    const std::string &envBind = {})
{
    argv.insert(argv.begin(), "apptainer");
    return parseApptainerArgs(argv, envBind, call, error);
}

void ApptainerOptionsTest::execTakesOptionsThenImageThenCommand()
{
    ApptainerCall c;
    std::string error;
    QVERIFY(parse({"exec", "--cleanenv", "--env", "A=1", "--pwd", "/data", "--nv", "-c", "img.sif",
                      "python3", "-c", "print(1)"},
        c, error));
    QCOMPARE(c.command, std::string("exec"));
    QVERIFY(c.cleanEnv && c.nv && c.contain);
    QCOMPARE(c.env, std::vector<std::string>{"A=1"});
    QCOMPARE(c.pwd, std::string("/data"));
    QCOMPARE(c.image, std::string("img.sif"));
    QCOMPARE(c.args, (std::vector<std::string>{"python3", "-c", "print(1)"}));
}

void ApptainerOptionsTest::bindSpecsHaveSourceDestinationAndMode()
{
    ApptainerCall c;
    std::string error;
    QVERIFY(
        parse({"shell", "-B", "/scratch,/project/def:/data:ro", "--bind=/x:/y", "img"}, c, error));
    QCOMPARE(c.binds.size(), std::size_t{3});
    QCOMPARE(c.binds[0].destination, std::string("/scratch"));
    QCOMPARE(c.binds[1].source, std::string("/project/def"));
    QCOMPARE(c.binds[1].destination, std::string("/data"));
    QVERIFY(c.binds[1].readOnly);
    QCOMPARE(c.binds[2].destination, std::string("/y"));
    QVERIFY(!parse({"exec", "-B", "/a:/b:nosuid", "img", "true"}, c, error));
    QVERIFY(QString::fromStdString(error).contains(QStringLiteral("not supported by minicluster")));
}

void ApptainerOptionsTest::theBindVariableAddsToTheOptions()
{
    ApptainerCall c;
    std::string error;
    QVERIFY(parse({"exec", "-B", "/a", "img", "true"}, c, error, "/scratch:/s"));
    QCOMPARE(c.binds.size(), std::size_t{2});
    QCOMPARE(c.binds[1].destination, std::string("/s"));
}

void ApptainerOptionsTest::networkCommandsAndUnknownOnesAreRefused()
{
    ApptainerCall c;
    std::string error;
    QVERIFY(!parse({"pull", "docker://ubuntu"}, c, error));
    QVERIFY(QString::fromStdString(error).startsWith(
        QStringLiteral("FATAL:   apptainer pull needs the network")));
    QVERIFY(!parse({"frobnicate"}, c, error));
    QCOMPARE(error,
        std::string("Error: unknown command \"frobnicate\" for \"apptainer\"\n"
                    "Run 'apptainer --help' for usage.\n"));
    QVERIFY(parse({"cache", "clean", "-f"}, c, error));
    QVERIFY(c.force);
    QVERIFY(!parse({"instance", "start", "img", "x"}, c, error));
    QCOMPARE(error, std::string("FATAL:   apptainer instance is not supported by minicluster\n"));
}

void ApptainerOptionsTest::unimplementedOptionsAreRefusedNotIgnored()
{
    ApptainerCall c;
    std::string error;
    QVERIFY(!parse({"exec", "--writable", "img", "true"}, c, error));
    QCOMPARE(error, std::string("FATAL:   --writable is not supported by minicluster\n"));
    QVERIFY(!parse({"exec", "--frob", "img", "true"}, c, error));
    QVERIFY(
        QString::fromStdString(error).startsWith(QStringLiteral("Error: unknown flag: --frob")));
    QVERIFY(!parse({"exec", "img"}, c, error));
    QVERIFY(QString::fromStdString(error).startsWith(
        QStringLiteral("Error: requires at least 2 arg(s)")));
}

void ApptainerOptionsTest::inspectAndBuildOptions()
{
    ApptainerCall c;
    std::string error;
    QVERIFY(parse({"inspect", "--runscript", "img.sif"}, c, error));
    QCOMPARE(c.inspectWhat, std::string("runscript"));
    ApptainerCall b;
    QVERIFY(parse({"build", "--force", "--sandbox", "out", "my.def"}, b, error));
    QVERIFY(b.force && b.sandbox);
    QCOMPARE(b.image, std::string("out"));
    QCOMPARE(b.args, std::vector<std::string>{"my.def"});
}

QTEST_GUILESS_MAIN(ApptainerOptionsTest)
#include "apptainer_options_test.moc"
