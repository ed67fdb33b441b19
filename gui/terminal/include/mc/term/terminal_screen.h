#pragma once
// The screen of a VT terminal (xterm-256color), as data: libvterm parses the bytes a program
// writes and keeps the grid; this class adds the scrollback and turns libvterm's cells into plain
// values any view can paint. No widget, no pty: feed() bytes in, read cells out, and whatever
// the terminal answers (keys, replies to queries) comes out of outputReady().
//
// Lines: rows 0..rows()-1 are the screen; rows -1..-scrollbackCount() are the scrollback, -1
// being the line that scrolled off most recently. The scrollback keeps at most
// maxScrollback() lines (oldest dropped first); a full-screen program on the alternate screen
// (vim, less, htop) adds nothing to it. Making the screen taller pulls lines back from it.

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QVector>

#include <cstdint>
#include <deque>

struct VTerm;
struct VTermScreen;

namespace mc::term {

// A colour as 0xRRGGBB, or the terminal's default (foreground or background, as the view
// chooses to paint it).
struct CellColor {
    std::uint32_t rgb = 0;
    bool isDefault = true;
    friend bool operator==(const CellColor &, const CellColor &) = default;
};

// One character cell. `text` is empty for a blank cell and for the right half of a wide
// character (whose left half has width 2).
struct Cell {
    QString text;
    CellColor fg;
    CellColor bg;
    int width = 1;
    bool bold = false;
    bool italic = false;
    bool underline = false;
    bool reverse = false;
    bool strike = false;
    friend bool operator==(const Cell &, const Cell &) = default;
};

struct CursorPos {
    int row = 0;
    int col = 0;
    friend bool operator==(const CursorPos &, const CursorPos &) = default;
};

class TerminalScreen : public QObject {
    Q_OBJECT

public:
    // Keys that are not text; the view maps its toolkit's keys to these.
    enum class Key {
        Enter,
        Tab,
        Backspace,
        Escape,
        Up,
        Down,
        Left,
        Right,
        Insert,
        Delete,
        Home,
        End,
        PageUp,
        PageDown,
        F1,
        F2,
        F3,
        F4,
        F5,
        F6,
        F7,
        F8,
        F9,
        F10,
        F11,
        F12,
    };
    // Modifier bits, as xterm encodes them.
    enum Modifier : unsigned { NoModifier = 0, Shift = 1, Alt = 2, Ctrl = 4 };

    static constexpr int kDefaultMaxScrollback = 10000;
    // The default colours the view paints (0xRRGGBB): light text on a dark background. The
    // screen gives them to programs that ask (xterm's OSC 10 and 11 queries), so that vim and
    // others pick their dark-background colours.
    static constexpr std::uint32_t kDefaultForeground = 0xd0d0d0;
    static constexpr std::uint32_t kDefaultBackground = 0x1e1e1e;

    // Precondition: rows >= 1, cols >= 1.
    TerminalScreen(int rows, int cols, QObject *parent = nullptr);
    ~TerminalScreen() override;

    int rows() const { return m_rows; }
    int cols() const { return m_cols; }
    // Resizes the grid (text reflows as libvterm does: it does not); emits resized().
    void resize(int rows, int cols);

    // Parses bytes written by the program (UTF-8, escape sequences) and emits changed().
    void feed(const QByteArray &bytes);

    // The cell at (row, col); rows < 0 are scrollback. Outside the lines or columns: a blank.
    Cell cell(int row, int col) const;
    // The text of a line without trailing blanks.
    QString lineText(int row) const;
    CursorPos cursor() const { return m_cursor; }
    bool cursorVisible() const { return m_cursorVisible; }
    // True while a full-screen program uses the alternate screen.
    bool altScreen() const { return m_altScreen; }
    QString title() const { return m_title; }

    int scrollbackCount() const { return static_cast<int>(m_scrollback.size()); }
    int maxScrollback() const { return m_maxScrollback; }
    void setMaxScrollback(int lines);

    // Input: each emits outputReady() with the bytes the program should read.
    void sendKey(Key key, unsigned modifiers = NoModifier);
    void sendChar(char32_t ch, unsigned modifiers = NoModifier);
    // Pastes text (bracketed when the program asked for it; newlines sent as Enter).
    void paste(const QString &text);

Q_SIGNALS:
    // Some cells, the cursor or the scrollback changed; views repaint.
    void changed();
    void resized(int rows, int cols);
    void scrollbackChanged(int count);
    void titleChanged(const QString &title);
    void bell();
    // Bytes for the program (keys typed, answers to its queries).
    void outputReady(const QByteArray &bytes);

private:
    struct Callbacks;
    friend struct Callbacks;

    // `vtermCell` is a const VTermScreenCell * (kept out of this header).
    Cell convertCell(const void *vtermCell) const;

    VTerm *m_vterm = nullptr;
    VTermScreen *m_screen = nullptr;
    int m_rows;
    int m_cols;
    CursorPos m_cursor;
    bool m_cursorVisible = true;
    bool m_altScreen = false;
    QString m_title;
    std::deque<QVector<Cell>> m_scrollback; // front = most recent
    int m_maxScrollback = kDefaultMaxScrollback;
    bool m_scrollbackGrew = false;
};

} // namespace mc::term
