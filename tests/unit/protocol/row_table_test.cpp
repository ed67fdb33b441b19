// mc::proto::RowTable reads a large reply's rows as cells: every value must read as the Json
// tree of the same text reads it, whether the reply holds rows (`form: "rows"`) or objects.
#include "mc/proto/row_table.h"

#include <QtTest>

using mc::proto::Json;
using mc::proto::RowTable;

class RowTableTest : public QObject {
    Q_OBJECT

private slots:
    void rowsReadAsTheJsonTreeReadsThem();
    void rowsBeforeTheirColumnsAndMembersAfterThem();
    void objectsBecomeColumnsInOrderOfAppearance();
    void otherMembersStayInTheHead();
    void rejectsMalformedText();
    void copiedRowsTakeNewValues();
    void rawValuesAreWrittenAsTheyAre();
};

void RowTableTest::rowsReadAsTheJsonTreeReadsThem()
{
    const std::string text = R"({"ok":true,"now":12,"columns":["id","name","nodes","x","flag"],)"
                             R"("rows":[[1,"a \"q\"\n",["cn01","cn02"],null,true],)"
                             R"([2,"b",[],1.5,false],[3]]})";
    const Json tree = *Json::parse(text);
    auto table = RowTable::parse(text);
    QVERIFY(table);
    QCOMPARE(table->rowCount(), std::size_t{3});
    QCOMPARE(table->columns(), tree["columns"].toStringList());
    for (std::size_t row = 0; row < 3; ++row) {
        const Json &values = tree["rows"].items()[row];
        for (std::size_t c = 0; c < table->columns().size(); ++c) {
            const Json expected = c < values.size() ? values.items()[c] : Json();
            const auto &cell = table->cell(row, table->column(table->columns()[c]));
            QCOMPARE(table->toJson(cell), expected);
            QCOMPARE(table->toString(cell, "-"), expected.toString("-"));
            QCOMPARE(table->toInt(cell, -7), expected.toInt(-7));
            QCOMPARE(table->toBool(cell, true), expected.toBool(true));
            QCOMPARE(table->toStringList(cell), expected.toStringList());
            QCOMPARE(cell.isNull(), expected.isNull());
        }
    }
    QCOMPARE(table->view(table->cell(0, table->column("name"))), std::string_view("a \"q\"\n"));
    QCOMPARE(table->column("absent"), -1);
    QVERIFY(table->cell(0, -1).isNull());
}

// The controller writes `columns` before `rows` (read in place, in one pass); the other orders
// are read too, and members after the rows stay in the head.
void RowTableTest::rowsBeforeTheirColumnsAndMembersAfterThem()
{
    for (const char *text : {R"({"rows":[[1,"a"],[2,"b"]],"columns":["id","name"],"now":3})",
             R"({"columns":["id","name"],"rows":[[1,"a"],[2,"b"]],"now":3})"}) {
        auto table = RowTable::parse(text);
        QVERIFY2(table, text);
        QCOMPARE(table->rowCount(), std::size_t{2});
        QCOMPARE(table->toString(table->cell(1, table->column("name"))), std::string("b"));
        QCOMPARE(table->toInt(table->cell(0, table->column("id"))), std::int64_t{1});
        QCOMPARE(table->head()["now"].toInt(), std::int64_t{3});
    }
}

void RowTableTest::objectsBecomeColumnsInOrderOfAppearance()
{
    auto table = RowTable::parse(R"({"ok":true,"jobs":[{"a":1,"b":"x"},{"c":[1],"a":2}]})");
    QVERIFY(table);
    QCOMPARE(table->columns(), (std::vector<std::string>{"a", "b", "c"}));
    QCOMPARE(table->rowCount(), std::size_t{2});
    QCOMPARE(table->toInt(table->cell(1, table->column("a"))), std::int64_t{2});
    QVERIFY(table->cell(1, table->column("b")).isNull());
    QCOMPARE(table->toJson(table->cell(1, table->column("c"))), *Json::parse("[1]"));
}

void RowTableTest::otherMembersStayInTheHead()
{
    auto table = RowTable::parse(R"({"ok":false,"error":"Invalid job id specified","errno":2017})");
    QVERIFY(table);
    QCOMPARE(table->head()["ok"].toBool(true), false);
    QCOMPARE(table->head()["error"].toString(), std::string("Invalid job id specified"));
    QCOMPARE(table->rowCount(), std::size_t{0});
}

void RowTableTest::rejectsMalformedText()
{
    QVERIFY(!RowTable::parse("[1,2]"));
    QVERIFY(!RowTable::parse(R"({"ok":true,"columns":["a"],"rows":[[1,]})"));
    QVERIFY(!RowTable::parse(R"({"ok":true,"rows":[["unterminated]]})"));
    QVERIFY(!RowTable::parse(R"({"ok":true} trailing)"));
}

void RowTableTest::copiedRowsTakeNewValues()
{
    auto table = RowTable::parse(R"({"columns":["id"],"rows":[[5]]})");
    QVERIFY(table);
    const int task = table->addColumn("task");
    const std::size_t copy = table->copyRow(0);
    table->setCell(copy, task, RowTable::Cell::ofInt(3));
    QCOMPARE(table->rowCount(), std::size_t{2});
    QCOMPARE(table->toInt(table->cell(copy, table->column("id"))), std::int64_t{5});
    QCOMPARE(table->toInt(table->cell(copy, task)), std::int64_t{3});
    QVERIFY(table->cell(0, task).isNull());
}

void RowTableTest::rawValuesAreWrittenAsTheyAre()
{
    Json reply = Json::object();
    reply.set("ok", true);
    reply.set("rows", Json::raw(R"([[1,"a"]])"));
    QCOMPARE(reply.dump(), std::string(R"({"ok":true,"rows":[[1,"a"]]})"));
    std::string quoted;
    mc::proto::appendQuoted(quoted, "a\"b\n");
    QCOMPARE(quoted, Json("a\"b\n").dump());
}

QTEST_APPLESS_MAIN(RowTableTest)
#include "row_table_test.moc"
