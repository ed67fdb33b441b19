// The terminal widget offscreen: it sizes the screen to itself, sends keys as terminal input,
// scrolls back with the wheel and copies a selection.

#include "mc/term/terminal_screen.h"
#include "mc/term/terminal_view.h"

#include <QApplication>
#include <QClipboard>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

using mc::term::TerminalScreen;
using mc::term::TerminalView;

namespace {

QByteArray allOutput(QSignalSpy &spy)
{
    QByteArray all;
    for (const auto &args : spy) {
        all += args.at(0).toByteArray();
    }
    spy.clear();
    return all;
}

} // namespace

class TerminalViewTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void screenTakesAsManyCellsAsTheViewHolds()
    {
        TerminalScreen screen(24, 80);
        TerminalView view(&screen);
        const QSize cell = view.cellSize();
        QVERIFY(cell.width() > 0 && cell.height() > 0);
        view.resize(
            cell.width() * 50 + view.verticalScrollBar()->sizeHint().width(), cell.height() * 12);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_COMPARE(screen.rows(), 12);
        QTRY_COMPARE(screen.cols(), 50);
    }

    void keysBecomeTerminalInput()
    {
        TerminalScreen screen(24, 80);
        TerminalView view(&screen);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy output(&screen, &TerminalScreen::outputReady);
        QTest::keyClicks(&view, QStringLiteral("ls"));
        QTest::keyClick(&view, Qt::Key_Return);
        QCOMPARE(allOutput(output), QByteArray("ls\r"));
        QTest::keyClick(&view, Qt::Key_Left);
        QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier);
        QTest::keyClick(&view, Qt::Key_D, Qt::ControlModifier);
        QTest::keyClick(&view, Qt::Key_Tab);
        QTest::keyClick(&view, Qt::Key_F5);
        QTest::keyClick(&view, Qt::Key_Escape);
        QCOMPARE(allOutput(output), QByteArray("\x1b[D\x03\x04\t\x1b[15~\x1b"));
    }

    void wheelScrollsBackThroughOutputAndTypingReturnsToTheBottom()
    {
        TerminalScreen screen(24, 80);
        TerminalView view(&screen);
        view.resize(view.sizeHint());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (int i = 0; i < 100; ++i) {
            screen.feed("line " + QByteArray::number(i) + "\r\n");
        }
        QVERIFY(screen.scrollbackCount() > 0);
        QCOMPARE(view.scrolledBack(), 0);

        const QPoint centre = view.viewport()->rect().center();
        QWheelEvent wheel(centre, view.viewport()->mapToGlobal(centre), QPoint(), QPoint(0, 120),
            Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view.viewport(), &wheel);
        QVERIFY(view.scrolledBack() > 0);
        const int back = view.scrolledBack();

        // New output does not move what the user is reading.
        screen.feed("more\r\n");
        QCOMPARE(view.scrolledBack(), back + 1);

        QTest::keyClick(&view, Qt::Key_A);
        QCOMPARE(view.scrolledBack(), 0);
    }

    void dragSelectsTextAndCopyPutsItOnTheClipboard()
    {
        TerminalScreen screen(24, 80);
        TerminalView view(&screen);
        view.resize(view.sizeHint());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        screen.feed("hello world\r\nsecond line");
        const QSize cell = view.cellSize();
        const auto at = [&cell](int row, int col) {
            return QPoint(col * cell.width(), row * cell.height() + cell.height() / 2);
        };
        QTest::mousePress(view.viewport(), Qt::LeftButton, {}, at(0, 6));
        QTest::mouseMove(view.viewport(), at(1, 6));
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, at(1, 6));
        QCOMPARE(view.selectedText(), QStringLiteral("world\nsecond"));

        QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("world\nsecond"));
    }

    void pasteSendsTheClipboardToTheProgram()
    {
        TerminalScreen screen(24, 80);
        TerminalView view(&screen);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QApplication::clipboard()->setText(QStringLiteral("squeue"));
        QSignalSpy output(&screen, &TerminalScreen::outputReady);
        QTest::keyClick(&view, Qt::Key_V, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(allOutput(output), QByteArray("squeue"));
    }

    void paintingAColouredScreenDrawsItsColours()
    {
        TerminalScreen screen(4, 20);
        TerminalView view(&screen);
        view.resize(view.sizeHint());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        screen.feed("\x1b[H\x1b[44m    \x1b[0m");
        const QImage image = view.viewport()->grab().toImage();
        const QSize cell = view.cellSize();
        QCOMPARE(image.pixelColor(cell.width() + 1, cell.height() / 2), QColor(0x00, 0x00, 0xe0));
    }
};

QTEST_MAIN(TerminalViewTest)
#include "terminal_view_test.moc"
