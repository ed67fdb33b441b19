// The terminal's screen model without a widget: bytes in, cells, cursor, colours and
// scrollback out.

#include "mc/term/terminal_screen.h"

#include <QSignalSpy>
#include <QTest>

using mc::term::Cell;
using mc::term::CursorPos;
using mc::term::TerminalScreen;

class TerminalScreenTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void textLandsInCellsAndMovesTheCursor()
    {
        TerminalScreen screen(4, 10);
        QSignalSpy changed(&screen, &TerminalScreen::changed);
        screen.feed("ab\r\ncd");
        QCOMPARE(screen.lineText(0), QStringLiteral("ab"));
        QCOMPARE(screen.lineText(1), QStringLiteral("cd"));
        QCOMPARE(screen.cell(1, 1).text, QStringLiteral("d"));
        QVERIFY(screen.cell(1, 2).text.isEmpty());
        QCOMPARE(screen.cursor(), (CursorPos{1, 2}));
        QCOMPARE(changed.count(), 1);
    }

    void utf8AndWideCharactersTakeTheirCells()
    {
        TerminalScreen screen(2, 10);
        screen.feed(QStringLiteral("é漢x").toUtf8());
        QCOMPARE(screen.cell(0, 0).text, QStringLiteral("é"));
        QCOMPARE(screen.cell(0, 1).text, QStringLiteral("漢"));
        QCOMPARE(screen.cell(0, 1).width, 2);
        QCOMPARE(screen.cell(0, 3).text, QStringLiteral("x"));
        QCOMPARE(screen.cursor(), (CursorPos{0, 4}));
    }

    void sgrSetsColoursAndAttributes()
    {
        TerminalScreen screen(2, 20);
        // red on default, bold green, 256-colour index 196 background, truecolor, reset
        screen.feed("\x1b[31mR\x1b[1;32mG\x1b[0;48;5;196mB\x1b[38;2;1;2;3mT\x1b[0mN\x1b[7mV");
        const Cell red = screen.cell(0, 0);
        QVERIFY(!red.fg.isDefault);
        QCOMPARE(red.fg.rgb, 0xe00000u);
        QVERIFY(red.bg.isDefault);
        QVERIFY(!red.bold);
        const Cell green = screen.cell(0, 1);
        QVERIFY(green.bold);
        QCOMPARE(green.fg.rgb & 0x00ff00u, green.fg.rgb); // a pure green
        const Cell indexed = screen.cell(0, 2);
        QVERIFY(!indexed.bg.isDefault);
        QCOMPARE(indexed.bg.rgb, 0xff0000u);
        QVERIFY(indexed.fg.isDefault);
        QCOMPARE(screen.cell(0, 3).fg.rgb, 0x010203u);
        const Cell normal = screen.cell(0, 4);
        QVERIFY(normal.fg.isDefault && normal.bg.isDefault && !normal.bold);
        QVERIFY(screen.cell(0, 5).reverse);
    }

    void cursorMovementSequencesPositionTheCursor()
    {
        TerminalScreen screen(10, 20);
        screen.feed("\x1b[5;8H*");
        QCOMPARE(screen.cell(4, 7).text, QStringLiteral("*"));
        screen.feed("\x1b[2A\x1b[3D");
        QCOMPARE(screen.cursor(), (CursorPos{2, 5}));
        screen.feed("\x1b[?25l");
        QVERIFY(!screen.cursorVisible());
        screen.feed("\x1b[2J\x1b[H");
        QVERIFY(screen.lineText(4).isEmpty());
        QCOMPARE(screen.cursor(), (CursorPos{0, 0}));
    }

    void linesScrollingOffTheTopGoToTheScrollback()
    {
        TerminalScreen screen(3, 10);
        QSignalSpy scrollback(&screen, &TerminalScreen::scrollbackChanged);
        screen.feed("one\r\ntwo\r\nthree\r\nfour\r\nfive");
        QCOMPARE(screen.scrollbackCount(), 2);
        QCOMPARE(screen.lineText(-1), QStringLiteral("two"));
        QCOMPARE(screen.lineText(-2), QStringLiteral("one"));
        QCOMPARE(screen.lineText(0), QStringLiteral("three"));
        QCOMPARE(screen.lineText(2), QStringLiteral("five"));
        QVERIFY(!scrollback.isEmpty());
        QCOMPARE(scrollback.last().at(0).toInt(), 2);
    }

    void scrollbackKeepsAtMostItsLimitDroppingTheOldest()
    {
        TerminalScreen screen(2, 10);
        screen.setMaxScrollback(3);
        for (int i = 0; i < 10; ++i) {
            screen.feed(QByteArray::number(i) + "\r\n");
        }
        QCOMPARE(screen.scrollbackCount(), 3);
        QCOMPARE(screen.lineText(-1), QStringLiteral("8"));
        QCOMPARE(screen.lineText(-3), QStringLiteral("6"));
    }

    void alternateScreenLeavesTheScrollbackAndTheMainScreenAlone()
    {
        TerminalScreen screen(3, 10);
        screen.feed("shell$ ");
        screen.feed("\x1b[?1049h");
        QVERIFY(screen.altScreen());
        for (int i = 0; i < 10; ++i) {
            screen.feed("full screen\r\n");
        }
        QCOMPARE(screen.scrollbackCount(), 0);
        screen.feed("\x1b[?1049l");
        QVERIFY(!screen.altScreen());
        QCOMPARE(screen.lineText(0), QStringLiteral("shell$"));
    }

    void resizingChangesTheGridAndPullsBackScrollback()
    {
        TerminalScreen screen(2, 10);
        QSignalSpy resized(&screen, &TerminalScreen::resized);
        screen.feed("a\r\nb\r\nc");
        QCOMPARE(screen.scrollbackCount(), 1);
        screen.resize(4, 20);
        QCOMPARE(screen.rows(), 4);
        QCOMPARE(screen.cols(), 20);
        QCOMPARE(resized.count(), 1);
        QCOMPARE(resized.first().at(0).toInt(), 4);
        QCOMPARE(resized.first().at(1).toInt(), 20);
        QCOMPARE(screen.scrollbackCount(), 0);
        QCOMPARE(screen.lineText(0), QStringLiteral("a"));
        QCOMPARE(screen.lineText(2), QStringLiteral("c"));
        screen.feed("\x1b[1;20Hz");
        QCOMPARE(screen.cell(0, 19).text, QStringLiteral("z"));
    }

    void colourQueriesAreAnsweredWithTheDarkDefaults()
    {
        // vim asks the background (OSC 11) to choose between its dark and light colours.
        TerminalScreen screen(2, 10);
        QSignalSpy output(&screen, &TerminalScreen::outputReady);
        screen.feed("\x1b]11;?\x07");
        QCOMPARE(output.count(), 1);
        QCOMPARE(output.at(0).at(0).toByteArray(), QByteArray("\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\"));
        screen.feed("\x1b]10;?\x1b\\");
        QCOMPARE(output.count(), 2);
        QCOMPARE(output.at(1).at(0).toByteArray(), QByteArray("\x1b]10;rgb:d0d0/d0d0/d0d0\x1b\\"));
        screen.feed("\x1b]2;title\x07"); // other OSCs as before: no answer
        QCOMPARE(output.count(), 2);
    }

    void keysComeOutAsTheBytesXtermSends()
    {
        TerminalScreen screen(2, 10);
        QSignalSpy output(&screen, &TerminalScreen::outputReady);
        const auto sent = [&output] {
            QByteArray all;
            for (const auto &args : output) {
                all += args.at(0).toByteArray();
            }
            output.clear();
            return all;
        };
        screen.sendChar(U'x');
        QCOMPARE(sent(), QByteArray("x"));
        screen.sendKey(TerminalScreen::Key::Up);
        QCOMPARE(sent(), QByteArray("\x1b[A"));
        screen.sendKey(TerminalScreen::Key::Enter);
        QCOMPARE(sent(), QByteArray("\r"));
        screen.sendChar(U'c', TerminalScreen::Ctrl);
        QCOMPARE(sent(), QByteArray("\x03"));
        screen.sendKey(TerminalScreen::Key::F1);
        QCOMPARE(sent(), QByteArray("\x1bOP"));
        screen.sendChar(U'b', TerminalScreen::Alt);
        QCOMPARE(sent(),
            QByteArray("\x1b"
                       "b"));
        screen.sendChar(U'é');
        QCOMPARE(sent(), QStringLiteral("é").toUtf8());
        // Application cursor keys (vim, less) switch the arrows to SS3.
        screen.feed("\x1b[?1h");
        screen.sendKey(TerminalScreen::Key::Up);
        QCOMPARE(sent(), QByteArray("\x1bOA"));
    }

    void pasteIsBracketedWhenTheProgramAsks()
    {
        TerminalScreen screen(2, 10);
        QSignalSpy output(&screen, &TerminalScreen::outputReady);
        screen.feed("\x1b[?2004h");
        screen.paste(QStringLiteral("ls\nwho"));
        QByteArray all;
        for (const auto &args : output) {
            all += args.at(0).toByteArray();
        }
        QCOMPARE(all, QByteArray("\x1b[200~ls\rwho\x1b[201~"));
    }

    void queriesAreAnswered()
    {
        TerminalScreen screen(5, 10);
        QSignalSpy output(&screen, &TerminalScreen::outputReady);
        screen.feed("\x1b[3;4H\x1b[6n"); // where is the cursor?
        QCOMPARE(output.count(), 1);
        QCOMPARE(output.first().at(0).toByteArray(), QByteArray("\x1b[3;4R"));
    }

    void titleSequenceSetsTheTitle()
    {
        TerminalScreen screen(2, 10);
        QSignalSpy title(&screen, &TerminalScreen::titleChanged);
        screen.feed("\x1b]0;student@login1: ~\x07");
        QCOMPARE(screen.title(), QStringLiteral("student@login1: ~"));
        QCOMPARE(title.count(), 1);
    }

    void cellsOutsideTheGridAreBlank()
    {
        TerminalScreen screen(2, 3);
        screen.feed("abc");
        QCOMPARE(screen.cell(0, 5), Cell{});
        QCOMPARE(screen.cell(-1, 0), Cell{});
        QCOMPARE(screen.cell(7, 0), Cell{});
    }
};

QTEST_GUILESS_MAIN(TerminalScreenTest)
#include "terminal_screen_test.moc"
