#include "mc/term/terminal_screen.h"

#include <algorithm>
#include <vterm.h>

namespace mc::term {

namespace {

VTermModifier toVTerm(unsigned modifiers)
{
    return static_cast<VTermModifier>(modifiers & VTERM_ALL_MODS_MASK);
}

VTermKey toVTerm(TerminalScreen::Key key)
{
    using K = TerminalScreen::Key;
    switch (key) {
    case K::Enter:
        return VTERM_KEY_ENTER;
    case K::Tab:
        return VTERM_KEY_TAB;
    case K::Backspace:
        return VTERM_KEY_BACKSPACE;
    case K::Escape:
        return VTERM_KEY_ESCAPE;
    case K::Up:
        return VTERM_KEY_UP;
    case K::Down:
        return VTERM_KEY_DOWN;
    case K::Left:
        return VTERM_KEY_LEFT;
    case K::Right:
        return VTERM_KEY_RIGHT;
    case K::Insert:
        return VTERM_KEY_INS;
    case K::Delete:
        return VTERM_KEY_DEL;
    case K::Home:
        return VTERM_KEY_HOME;
    case K::End:
        return VTERM_KEY_END;
    case K::PageUp:
        return VTERM_KEY_PAGEUP;
    case K::PageDown:
        return VTERM_KEY_PAGEDOWN;
    default:
        break;
    }
    const int function = static_cast<int>(key) - static_cast<int>(K::F1) + 1;
    return static_cast<VTermKey>(VTERM_KEY_FUNCTION(function));
}

std::uint32_t rgbOf(const VTermColor &color)
{
    return (std::uint32_t{color.rgb.red} << 16) | (std::uint32_t{color.rgb.green} << 8)
        | std::uint32_t{color.rgb.blue};
}

} // namespace

// libvterm's screen callbacks; `user` is the TerminalScreen.
struct TerminalScreen::Callbacks {
    static TerminalScreen *self(void *user) { return static_cast<TerminalScreen *>(user); }

    static int damage(VTermRect, void *) { return 1; }

    static int moveCursor(VTermPos pos, VTermPos, int visible, void *user)
    {
        self(user)->m_cursor = {pos.row, pos.col};
        self(user)->m_cursorVisible = visible != 0;
        return 1;
    }

    static int setTermProp(VTermProp prop, VTermValue *value, void *user)
    {
        TerminalScreen *screen = self(user);
        switch (prop) {
        case VTERM_PROP_CURSORVISIBLE:
            screen->m_cursorVisible = value->boolean != 0;
            break;
        case VTERM_PROP_ALTSCREEN:
            screen->m_altScreen = value->boolean != 0;
            break;
        case VTERM_PROP_TITLE:
            screen->m_title = QString::fromUtf8(value->string);
            Q_EMIT screen->titleChanged(screen->m_title);
            break;
        default:
            break;
        }
        return 1;
    }

    static int bell(void *user)
    {
        Q_EMIT self(user)->bell();
        return 1;
    }

    static int pushLine(int cols, const VTermScreenCell *cells, void *user)
    {
        TerminalScreen *screen = self(user);
        if (screen->m_maxScrollback == 0) {
            return 1;
        }
        QVector<Cell> line;
        line.reserve(cols);
        for (int c = 0; c < cols; ++c) {
            line.push_back(screen->convertCell(&cells[c]));
        }
        screen->m_scrollback.push_front(std::move(line));
        while (screen->scrollbackCount() > screen->m_maxScrollback) {
            screen->m_scrollback.pop_back();
        }
        screen->m_scrollbackGrew = true;
        return 1;
    }

    static int popLine(int cols, VTermScreenCell *cells, void *user)
    {
        TerminalScreen *screen = self(user);
        if (screen->m_scrollback.empty()) {
            return 0;
        }
        const QVector<Cell> line = std::move(screen->m_scrollback.front());
        screen->m_scrollback.pop_front();
        VTermColor defaultFg;
        VTermColor defaultBg;
        vterm_state_get_default_colors(vterm_obtain_state(screen->m_vterm), &defaultFg, &defaultBg);
        for (int c = 0; c < cols; ++c) {
            VTermScreenCell &out = cells[c];
            out = VTermScreenCell{};
            const Cell in = c < line.size() ? line[c] : Cell{};
            int i = 0;
            for (const char32_t ch : in.text.toUcs4()) {
                if (i < VTERM_MAX_CHARS_PER_CELL) {
                    out.chars[i++] = ch;
                }
            }
            out.width = static_cast<char>(in.width);
            out.attrs.bold = in.bold;
            out.attrs.italic = in.italic;
            out.attrs.underline = in.underline ? 1 : 0;
            out.attrs.reverse = in.reverse;
            out.attrs.strike = in.strike;
            const auto setColor
                = [](VTermColor &color, const CellColor &from, const VTermColor &fallback) {
                      if (from.isDefault) {
                          color = fallback;
                      } else {
                          vterm_color_rgb(&color, static_cast<uint8_t>(from.rgb >> 16),
                              static_cast<uint8_t>(from.rgb >> 8), static_cast<uint8_t>(from.rgb));
                      }
                  };
            setColor(out.fg, in.fg, defaultFg);
            setColor(out.bg, in.bg, defaultBg);
        }
        Q_EMIT screen->scrollbackChanged(screen->scrollbackCount());
        return 1;
    }

    static void output(const char *bytes, size_t length, void *user)
    {
        Q_EMIT self(user)->outputReady(QByteArray(bytes, static_cast<qsizetype>(length)));
    }

    // xterm's colour queries, which libvterm leaves to us: "10;?" (foreground) and "11;?"
    // (background) are answered with the view's default colours.
    static int osc(const char *command, size_t length, void *user)
    {
        const QByteArray text(command, static_cast<qsizetype>(length));
        if (text != "10;?" && text != "11;?") {
            return 0;
        }
        const std::uint32_t rgb = text.startsWith("10") ? kDefaultForeground : kDefaultBackground;
        const auto channel = [rgb](int shift) {
            const QByteArray hex
                = QByteArray::number((rgb >> shift) & 0xff, 16).rightJustified(2, '0');
            return hex + hex;
        };
        Q_EMIT self(user)->outputReady("\x1b]" + text.left(2) + ";rgb:" + channel(16) + '/'
            + channel(8) + '/' + channel(0) + "\x1b\\");
        return 1;
    }

    static constexpr VTermParserCallbacks kFallbacks
        = {nullptr, nullptr, nullptr, nullptr, osc, nullptr, nullptr};

    static constexpr VTermScreenCallbacks kScreen
        = {damage, nullptr, moveCursor, setTermProp, bell, nullptr, pushLine, popLine};
};

TerminalScreen::TerminalScreen(int rows, int cols, QObject *parent)
    : QObject(parent)
    , m_vterm(vterm_new(std::max(rows, 1), std::max(cols, 1)))
    , m_rows(std::max(rows, 1))
    , m_cols(std::max(cols, 1))
{
    vterm_set_utf8(m_vterm, 1);
    vterm_output_set_callback(m_vterm, &Callbacks::output, this);
    m_screen = vterm_obtain_screen(m_vterm);
    vterm_screen_set_callbacks(m_screen, &Callbacks::kScreen, this);
    vterm_screen_set_unrecognised_fallbacks(m_screen, &Callbacks::kFallbacks, this);
    vterm_screen_enable_altscreen(m_screen, 1);
    vterm_screen_set_damage_merge(m_screen, VTERM_DAMAGE_SCROLL);
    vterm_screen_reset(m_screen, 1);
}

TerminalScreen::~TerminalScreen()
{
    vterm_free(m_vterm);
}

void TerminalScreen::resize(int rows, int cols)
{
    rows = std::max(rows, 1);
    cols = std::max(cols, 1);
    if (rows == m_rows && cols == m_cols) {
        return;
    }
    m_rows = rows;
    m_cols = cols;
    const int before = scrollbackCount();
    vterm_set_size(m_vterm, rows, cols);
    vterm_screen_flush_damage(m_screen);
    Q_EMIT resized(rows, cols);
    if (scrollbackCount() != before) {
        Q_EMIT scrollbackChanged(scrollbackCount());
    }
    Q_EMIT changed();
}

void TerminalScreen::feed(const QByteArray &bytes)
{
    m_scrollbackGrew = false;
    vterm_input_write(m_vterm, bytes.constData(), static_cast<size_t>(bytes.size()));
    vterm_screen_flush_damage(m_screen);
    if (m_scrollbackGrew) {
        Q_EMIT scrollbackChanged(scrollbackCount());
    }
    Q_EMIT changed();
}

Cell TerminalScreen::convertCell(const void *vtermCell) const
{
    const auto &in = *static_cast<const VTermScreenCell *>(vtermCell);
    Cell out;
    for (int i = 0; i < VTERM_MAX_CHARS_PER_CELL && in.chars[i] != 0; ++i) {
        const char32_t ch = in.chars[i];
        out.text.append(QString::fromUcs4(&ch, 1));
    }
    out.width = in.width;
    out.bold = in.attrs.bold;
    out.italic = in.attrs.italic;
    out.underline = in.attrs.underline != VTERM_UNDERLINE_OFF;
    out.reverse = in.attrs.reverse;
    out.strike = in.attrs.strike;
    VTermColor fg = in.fg;
    VTermColor bg = in.bg;
    out.fg.isDefault = VTERM_COLOR_IS_DEFAULT_FG(&fg);
    out.bg.isDefault = VTERM_COLOR_IS_DEFAULT_BG(&bg);
    vterm_screen_convert_color_to_rgb(m_screen, &fg);
    vterm_screen_convert_color_to_rgb(m_screen, &bg);
    out.fg.rgb = rgbOf(fg);
    out.bg.rgb = rgbOf(bg);
    return out;
}

Cell TerminalScreen::cell(int row, int col) const
{
    if (col < 0 || col >= m_cols || row >= m_rows || row < -scrollbackCount()) {
        return {};
    }
    if (row < 0) {
        const QVector<Cell> &line = m_scrollback[static_cast<size_t>(-row - 1)];
        return col < line.size() ? line[col] : Cell{};
    }
    VTermScreenCell raw;
    if (vterm_screen_get_cell(m_screen, VTermPos{row, col}, &raw) == 0) {
        return {};
    }
    return convertCell(&raw);
}

QString TerminalScreen::lineText(int row) const
{
    QString text;
    for (int c = 0; c < m_cols; ++c) {
        const Cell one = cell(row, c);
        if (one.text.isEmpty() && one.width == 1) {
            text.append(QLatin1Char(' '));
        } else {
            text.append(one.text);
        }
    }
    while (text.endsWith(QLatin1Char(' '))) {
        text.chop(1);
    }
    return text;
}

void TerminalScreen::setMaxScrollback(int lines)
{
    m_maxScrollback = std::max(lines, 0);
    const bool dropped = scrollbackCount() > m_maxScrollback;
    while (scrollbackCount() > m_maxScrollback) {
        m_scrollback.pop_back();
    }
    if (dropped) {
        Q_EMIT scrollbackChanged(scrollbackCount());
    }
}

void TerminalScreen::sendKey(Key key, unsigned modifiers)
{
    vterm_keyboard_key(m_vterm, toVTerm(key), toVTerm(modifiers));
}

void TerminalScreen::sendChar(char32_t ch, unsigned modifiers)
{
    vterm_keyboard_unichar(m_vterm, ch, toVTerm(modifiers));
}

void TerminalScreen::paste(const QString &text)
{
    vterm_keyboard_start_paste(m_vterm);
    QString normalized = text;
    normalized.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    for (const char32_t ch : normalized.toUcs4()) {
        if (ch == U'\n') {
            vterm_keyboard_key(m_vterm, VTERM_KEY_ENTER, VTERM_MOD_NONE);
        } else {
            vterm_keyboard_unichar(m_vterm, ch, VTERM_MOD_NONE);
        }
    }
    vterm_keyboard_end_paste(m_vterm);
}

} // namespace mc::term
