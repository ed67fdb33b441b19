#include "terminal_keys.h"

#include <QKeyEvent>

namespace mc::term {

namespace {

using Key = TerminalScreen::Key;

std::optional<Key> specialKey(int qtKey)
{
    switch (qtKey) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        return Key::Enter;
    case Qt::Key_Tab:
    case Qt::Key_Backtab:
        return Key::Tab;
    case Qt::Key_Backspace:
        return Key::Backspace;
    case Qt::Key_Escape:
        return Key::Escape;
    case Qt::Key_Up:
        return Key::Up;
    case Qt::Key_Down:
        return Key::Down;
    case Qt::Key_Left:
        return Key::Left;
    case Qt::Key_Right:
        return Key::Right;
    case Qt::Key_Insert:
        return Key::Insert;
    case Qt::Key_Delete:
        return Key::Delete;
    case Qt::Key_Home:
        return Key::Home;
    case Qt::Key_End:
        return Key::End;
    case Qt::Key_PageUp:
        return Key::PageUp;
    case Qt::Key_PageDown:
        return Key::PageDown;
    default:
        break;
    }
    if (qtKey >= Qt::Key_F1 && qtKey <= Qt::Key_F12) {
        return static_cast<Key>(static_cast<int>(Key::F1) + (qtKey - Qt::Key_F1));
    }
    return std::nullopt;
}

unsigned modifiersOf(const QKeyEvent &event)
{
    unsigned modifiers = TerminalScreen::NoModifier;
    if (event.modifiers() & Qt::ShiftModifier) {
        modifiers |= TerminalScreen::Shift;
    }
    if (event.modifiers() & Qt::AltModifier) {
        modifiers |= TerminalScreen::Alt;
    }
    if (event.modifiers() & Qt::ControlModifier) {
        modifiers |= TerminalScreen::Ctrl;
    }
    return modifiers;
}

} // namespace

bool sendKeyEvent(TerminalScreen &screen, const QKeyEvent &event)
{
    const int qtKey = event.key();
    unsigned modifiers = modifiersOf(event);
    if (const auto key = specialKey(qtKey)) {
        if (qtKey == Qt::Key_Backtab) {
            modifiers |= TerminalScreen::Shift;
        }
        screen.sendKey(*key, modifiers);
        return true;
    }
    // Ctrl+letter, Ctrl+[\]^_ and Ctrl+Space: the C0 control code, by key code whatever text
    // the platform made (libvterm would send Ctrl+I/J/M/[ as CSI u, which shells do not read).
    if (modifiers & TerminalScreen::Ctrl) {
        const bool letter = qtKey >= Qt::Key_A && qtKey <= Qt::Key_Z;
        const bool punctuation = qtKey >= Qt::Key_BracketLeft && qtKey <= Qt::Key_Underscore;
        if (letter || punctuation || qtKey == Qt::Key_Space || qtKey == Qt::Key_At) {
            const auto code = static_cast<char32_t>(qtKey == Qt::Key_Space ? 0 : (qtKey & 0x1f));
            screen.sendChar(code, modifiers & TerminalScreen::Alt);
            return true;
        }
    }
    const QString text = event.text();
    if (text.isEmpty()) {
        return false;
    }
    // The text already has Shift applied; Alt is sent as ESC before the character.
    const unsigned textModifiers = modifiers & TerminalScreen::Alt;
    for (const char32_t ch : text.toUcs4()) {
        if (ch < 0x20 || ch == 0x7f) {
            continue; // control characters come through the key codes above
        }
        screen.sendChar(ch, textModifiers);
    }
    return true;
}

} // namespace mc::term
