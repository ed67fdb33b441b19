#include "mc/proto/json.h"

#include <QtTest>

using mc::proto::Json;

class JsonTest : public QObject {
    Q_OBJECT

private slots:
    void roundTripsNestedDocuments_data();
    void roundTripsNestedDocuments();
    void rejectsMalformedText_data();
    void rejectsMalformedText();
    void escapesNewlinesSoOneMessageIsOneLine();
    void decodesUnicodeEscapes();
    void missingMembersReadAsFallbacks();
    void setReplacesExistingKeyKeepingOrder();
};

void JsonTest::roundTripsNestedDocuments_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("object") << QStringLiteral(R"({"op":"submit","n":1,"ok":true})");
    QTest::newRow("nested") << QStringLiteral(R"({"a":[1,2,{"b":null}],"c":{"d":"e"}})");
    QTest::newRow("negative and float") << QStringLiteral(R"([-5,2.5,0])");
    QTest::newRow("empty containers") << QStringLiteral(R"({"a":[],"b":{}})");
    QTest::newRow("large integer") << QStringLiteral(R"([4294901757])");
}

void JsonTest::roundTripsNestedDocuments()
{
    QFETCH(QString, text);
    auto parsed = Json::parse(text.toStdString());
    QVERIFY(parsed.has_value());
    QCOMPARE(QString::fromStdString(parsed->dump()), text);
}

void JsonTest::rejectsMalformedText_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << QString();
    QTest::newRow("unterminated object") << QStringLiteral(R"({"a":1)");
    QTest::newRow("unterminated string") << QStringLiteral(R"(["abc)");
    QTest::newRow("trailing garbage") << QStringLiteral(R"({} x)");
    QTest::newRow("bare word") << QStringLiteral("nope");
    QTest::newRow("missing colon") << QStringLiteral(R"({"a" 1})");
    QTest::newRow("bad escape") << QStringLiteral(R"(["\q"])");
}

void JsonTest::rejectsMalformedText()
{
    QFETCH(QString, text);
    QVERIFY(!Json::parse(text.toStdString()).has_value());
}

void JsonTest::escapesNewlinesSoOneMessageIsOneLine()
{
    Json j = Json::object();
    j.set("script", "#!/bin/bash\necho \"hi\"\t\\\n");
    std::string line = j.dump();
    QVERIFY(line.find('\n') == std::string::npos);
    auto back = Json::parse(line);
    QVERIFY(back.has_value());
    QCOMPARE(QString::fromStdString((*back)["script"].toString()),
        QStringLiteral("#!/bin/bash\necho \"hi\"\t\\\n"));
}

void JsonTest::decodesUnicodeEscapes()
{
    auto j = Json::parse(R"(["\u00e9t\u00e9", "\ud83d\ude00"])");
    QVERIFY(j.has_value());
    QCOMPARE(QString::fromStdString(j->items()[0].toString()), QStringLiteral("été"));
    QCOMPARE(
        QString::fromStdString(j->items()[1].toString()), QString::fromUtf8("\xF0\x9F\x98\x80"));
}

void JsonTest::missingMembersReadAsFallbacks()
{
    Json j = Json::object();
    j.set("n", 3);
    QCOMPARE(j["missing"].toInt(7), 7);
    QCOMPARE(j["n"].toString("x"), std::string("x"));
    QVERIFY(j["missing"]["deeper"].isNull());
    QCOMPARE(j["missing"].items().size(), 0u);
}

void JsonTest::setReplacesExistingKeyKeepingOrder()
{
    Json j = Json::object();
    j.set("a", 1).set("b", 2).set("a", 3);
    QCOMPARE(QString::fromStdString(j.dump()), QStringLiteral(R"({"a":3,"b":2})"));
}

QTEST_APPLESS_MAIN(JsonTest)
#include "json_test.moc"
