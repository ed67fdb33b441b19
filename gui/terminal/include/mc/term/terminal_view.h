#pragma once
// A widget showing a TerminalScreen: paints its cells with a monospace font (xterm's colours,
// bold, italic, underline, reverse, the cursor), sizes the screen to fit the widget, and turns
// input into terminal input: keys (arrows, Ctrl, Alt, function keys), paste, the wheel and
// Shift+PageUp/PageDown to read the scrollback, a mouse drag to select text.
//
// Copy and paste: Ctrl+Shift+C / Ctrl+Shift+V (as in GNOME Terminal and Konsole; Ctrl+C stays
// the interrupt), the context menu, and the X11 primary selection (middle click).
//
// Scrolling: the view follows new output while it is at the bottom; scrolled up, it stays on
// the lines it shows until the user scrolls back down or types.

#include "mc/term/terminal_screen.h"

#include <QAbstractScrollArea>
#include <QColor>

namespace mc::term {

class TerminalView : public QAbstractScrollArea {
    Q_OBJECT

public:
    // `screen` must outlive the view.
    explicit TerminalView(TerminalScreen *screen, QWidget *parent = nullptr);
    ~TerminalView() override;

    TerminalScreen *screen() const { return m_screen; }
    // The cell size in pixels, from the font.
    QSize cellSize() const { return m_cellSize; }
    // Lines scrolled up from the bottom (0: showing the live screen).
    int scrolledBack() const;
    // The selected text, lines joined with '\n'; empty when nothing is selected.
    QString selectedText() const;
    void selectAll();

    void copy();
    void paste();

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    // Scrolls the scrollback; on the alternate screen (less, vim) sends arrow keys instead.
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void inputMethodEvent(QInputMethodEvent *event) override;
    bool focusNextPrevChild(bool next) override;
    void changeEvent(QEvent *event) override;

private:
    // A position in lines as the screen numbers them (negative: scrollback).
    struct LinePos {
        int line = 0;
        int col = 0;
        auto operator<=>(const LinePos &) const = default;
    };

    void updateFont();
    void fitScreenToViewport();
    void onScrollbackChanged(int count);
    int topLine() const;
    LinePos positionAt(const QPoint &point) const;
    bool isSelected(int line, int col) const;
    void scrollToBottom();
    QColor color(std::uint32_t rgb) const;

    TerminalScreen *m_screen;
    QSize m_cellSize;
    int m_ascent = 0;
    QColor m_defaultFg{QRgb(TerminalScreen::kDefaultForeground)};
    QColor m_defaultBg{QRgb(TerminalScreen::kDefaultBackground)};
    bool m_selecting = false;
    bool m_hasSelection = false;
    LinePos m_selectionAnchor;
    LinePos m_selectionEnd;
};

} // namespace mc::term
