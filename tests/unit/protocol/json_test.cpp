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
    void escapesBetweenPlainRunsRoundTrip();
    void siblingAndNestedObjectsKeepTheirOwnMembers();
    void nestedArraysKeepTheirOwnItems();
    void addAppendsAndMutableAccessMovesValuesOut();
    void assigningAMemberToItsOwnDocumentKeepsTheMember();
    void slashesAreEscapedOnlyWhenAsked();
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

// dump() and parse() copy runs of plain characters at once: escapes at the start, the end and
// side by side, control characters and long runs must survive a round trip unchanged.
void JsonTest::escapesBetweenPlainRunsRoundTrip()
{
    const std::string texts[] = {"\"quoted\"", "a\\b", "\n\n\t", std::string(1, '\x01') + "x\x1f",
        std::string(5000, 'x') + "\"" + std::string(3, 'y'), "", "plain", "\\",
        "caf\xc3\xa9 \"\\\""};
    for (const auto &text : texts) {
        Json j = Json::object();
        j.set("s", text);
        const std::string line = j.dump();
        QVERIFY(line.find('\n') == std::string::npos);
        auto back = Json::parse(line);
        QVERIFY(back.has_value());
        QCOMPARE((*back)["s"].toString(), text);
    }
    QCOMPARE(Json(std::string("a\"b\\c\x02")).dump(), std::string("\"a\\\"b\\\\c\\u0002\""));
}

// Members of objects at the same and at different depths (parsed through reused scratch lists)
// stay with their own object.
void JsonTest::siblingAndNestedObjectsKeepTheirOwnMembers()
{
    const std::string text = R"({"jobs":[{"id":1,"x":{"a":1,"b":{"c":2}},"y":2},{"id":2,"x":{}},)"
                             R"({"id":3,"x":{"a":3}}],"after":{"k":"v"},"n":4})";
    auto j = Json::parse(text);
    QVERIFY(j.has_value());
    QCOMPARE(j->dump(), text);
    QCOMPARE((*j)["jobs"].items()[0]["x"]["b"]["c"].toInt(), std::int64_t{2});
    QCOMPARE((*j)["jobs"].items()[0]["y"].toInt(), std::int64_t{2});
    QCOMPARE((*j)["jobs"].items()[1]["x"].size(), std::size_t{0});
    QCOMPARE((*j)["jobs"].items()[2]["x"]["a"].toInt(), std::int64_t{3});
    QCOMPARE((*j)["after"]["k"].toString(), std::string("v"));
    QVERIFY(!Json::parse("{\"a\":{\"b\":1,\"c\":}}").has_value());
    QVERIFY(!Json::parse("[{\"a\":1},{\"b\":2").has_value());
}

// Arrays gather their items in a scratch list per depth, like objects (a `rows` reply).
void JsonTest::nestedArraysKeepTheirOwnItems()
{
    const std::string text = R"({"rows":[[1,"a",null,[2,[3]]],[],[4,{"k":[5,6]}]],"x":[7]})";
    auto j = Json::parse(text);
    QVERIFY(j);
    QCOMPARE(j->dump(), text);
    QCOMPARE((*j)["rows"].items().at(0).size(), 4u);
    QCOMPARE((*j)["rows"].items().at(2).items().at(1)["k"].size(), 2u);
}

void JsonTest::addAppendsAndMutableAccessMovesValuesOut()
{
    Json j = Json::object();
    j.reserve(2);
    j.add("a", 1).add("b", "two");
    QCOMPARE(j.dump(), std::string(R"({"a":1,"b":"two"})"));
    Json *b = j.mutableMember("b");
    QVERIFY(b);
    Json taken = std::move(*b);
    QCOMPARE(taken.toString(), std::string("two"));
    QVERIFY(!j.mutableMember("c"));
    Json list = Json::array();
    list.push(1);
    QVERIFY(list.mutableItems());
    list.mutableItems()->push_back(Json(2));
    QCOMPARE(list.dump(), std::string("[1,2]"));
    QVERIFY(!j.mutableItems());
}

void JsonTest::assigningAMemberToItsOwnDocumentKeepsTheMember()
{
    Json j = Json::parse("{\"time\":{\"elapsed\":42,\"note\":\"kept\"},\"other\":[1,2]}").value();
    j = j["time"]; // the source lives inside the target
    QCOMPARE(j["elapsed"].toInt(), 42);
    QCOMPARE(j["note"].toString(), std::string("kept"));
    Json list = Json::parse("[[1,[2,3]]]").value();
    list = list.items().at(0);
    QCOMPARE(list.dump(), std::string("[1,[2,3]]"));
}

void JsonTest::slashesAreEscapedOnlyWhenAsked()
{
    std::string plain;
    mc::proto::appendQuoted(plain, "/home/alice \"x\"");
    QCOMPARE(plain, std::string("\"/home/alice \\\"x\\\"\""));
    std::string slurm;
    mc::proto::appendQuoted(slurm, "/home/alice \"x\"", true);
    QCOMPARE(slurm, std::string("\"\\/home\\/alice \\\"x\\\"\""));
}

QTEST_APPLESS_MAIN(JsonTest)
#include "json_test.moc"
