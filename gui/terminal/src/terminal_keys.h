#pragma once
// Qt key events as terminal input: which TerminalScreen key or character a key press sends.

#include "mc/term/terminal_screen.h"

#include <optional>

class QKeyEvent;

namespace mc::term {

// Sends the input `event` stands for to `screen`; false when the key means nothing to a
// terminal (a lone modifier, an unknown key), so the view may handle it.
bool sendKeyEvent(TerminalScreen &screen, const QKeyEvent &event);

} // namespace mc::term
