#include "mc/term/terminal_view.h"

#include "mc/term/terminal_screen.h"
#include "terminal_keys.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QInputMethodEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cstdlib>

namespace mc::term {

TerminalView::TerminalView(TerminalScreen *screen, QWidget *parent)
    : QAbstractScrollArea(parent)
    , m_screen(screen)
{
    setObjectName(QStringLiteral("terminalView"));
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_InputMethodEnabled);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setFrameShape(QFrame::NoFrame);
    viewport()->setCursor(Qt::IBeamCursor);
    viewport()->setAutoFillBackground(false);
    verticalScrollBar()->setSingleStep(3);
    updateFont();

    connect(m_screen, &TerminalScreen::changed, viewport(), qOverload<>(&QWidget::update));
    connect(m_screen, &TerminalScreen::scrollbackChanged, this, &TerminalView::onScrollbackChanged);
    connect(
        verticalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
    onScrollbackChanged(m_screen->scrollbackCount());
}

TerminalView::~TerminalView() = default;

void TerminalView::updateFont()
{
    // The family and style only: the size follows the parent's, so the app's projector zoom
    // reaches the terminal too.
    QFont font;
    font.setFamilies(QFontDatabase::systemFont(QFontDatabase::FixedFont).families());
    font.setStyleHint(QFont::Monospace, QFont::PreferDefault);
    font.setFixedPitch(true);
    font.setKerning(false);
    setFont(font);
    const QFontMetrics metrics(this->font());
    m_cellSize = QSize(
        std::max(metrics.horizontalAdvance(QLatin1Char('M')), 1), std::max(metrics.height(), 1));
    m_ascent = metrics.ascent();
    verticalScrollBar()->setPageStep(std::max(m_screen->rows(), 1));
}

QSize TerminalView::sizeHint() const
{
    return {m_cellSize.width() * 80 + verticalScrollBar()->sizeHint().width(),
        m_cellSize.height() * 24};
}

int TerminalView::scrolledBack() const
{
    return verticalScrollBar()->maximum() - verticalScrollBar()->value();
}

int TerminalView::topLine() const
{
    return -scrolledBack();
}

void TerminalView::scrollToBottom()
{
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

void TerminalView::onScrollbackChanged(int count)
{
    QScrollBar *bar = verticalScrollBar();
    const int grown = count - bar->maximum();
    const bool atBottom = bar->value() == bar->maximum();
    const int value = bar->value();
    bar->setRange(0, count);
    bar->setValue(atBottom ? count : value);
    if (m_hasSelection) {
        // The selected text moved up by the lines that scrolled off.
        m_selectionAnchor.line -= grown;
        m_selectionEnd.line -= grown;
    }
}

void TerminalView::fitScreenToViewport()
{
    const int rows = std::max(viewport()->height() / m_cellSize.height(), 1);
    const int cols = std::max(viewport()->width() / m_cellSize.width(), 1);
    m_screen->resize(rows, cols);
    verticalScrollBar()->setPageStep(rows);
}

void TerminalView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    fitScreenToViewport();
}

void TerminalView::changeEvent(QEvent *event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        const QFontMetrics metrics(font());
        m_cellSize = QSize(std::max(metrics.horizontalAdvance(QLatin1Char('M')), 1),
            std::max(metrics.height(), 1));
        m_ascent = metrics.ascent();
        fitScreenToViewport();
    }
}

QColor TerminalView::color(std::uint32_t rgb) const
{
    return QColor::fromRgb(static_cast<int>((rgb >> 16) & 0xff),
        static_cast<int>((rgb >> 8) & 0xff), static_cast<int>(rgb & 0xff));
}

bool TerminalView::isSelected(int line, int col) const
{
    if (!m_hasSelection) {
        return false;
    }
    const LinePos from = std::min(m_selectionAnchor, m_selectionEnd);
    const LinePos to = std::max(m_selectionAnchor, m_selectionEnd);
    const LinePos here{line, col};
    return from <= here && here < to;
}

void TerminalView::paintEvent(QPaintEvent *)
{
    QPainter painter(viewport());
    painter.fillRect(viewport()->rect(), m_defaultBg);
    const QFont regular = font();
    painter.setFont(regular);
    int currentStyle = 0;
    QColor currentPen;
    const int cw = m_cellSize.width();
    const int ch = m_cellSize.height();
    const int top = topLine();
    const CursorPos cursor = m_screen->cursor();
    const bool focused = hasFocus();

    for (int r = 0; r < m_screen->rows(); ++r) {
        const int line = top + r;
        const int y = r * ch;
        for (int c = 0; c < m_screen->cols(); ++c) {
            const Cell cell = m_screen->cell(line, c);
            if (cell.width == 0) {
                continue; // right half of a wide character
            }
            QColor fg = cell.fg.isDefault ? m_defaultFg : color(cell.fg.rgb);
            QColor bg = cell.bg.isDefault ? m_defaultBg : color(cell.bg.rgb);
            bool swap = cell.reverse != isSelected(line, c);
            const bool cursorHere
                = line == cursor.row && c == cursor.col && m_screen->cursorVisible();
            if (cursorHere && focused) {
                swap = !swap;
            }
            if (swap) {
                std::swap(fg, bg);
            }
            const int width = cw * std::max(cell.width, 1);
            const QRect rect(c * cw, y, width, ch);
            if (bg != m_defaultBg) {
                painter.fillRect(rect, bg);
            }
            if (cursorHere && !focused) {
                painter.setPen(m_defaultFg);
                currentPen = m_defaultFg;
                painter.drawRect(rect.adjusted(0, 0, -1, -1));
            }
            if (cell.text.isEmpty() || cell.text == QLatin1String(" ")) {
                continue;
            }
            // Fonts change only when the attributes do: most cells share the last one.
            const int style = (cell.bold ? 1 : 0) | (cell.italic ? 2 : 0) | (cell.underline ? 4 : 0)
                | (cell.strike ? 8 : 0);
            if (style != currentStyle) {
                QFont cellFont = regular;
                cellFont.setBold(cell.bold);
                cellFont.setItalic(cell.italic);
                cellFont.setUnderline(cell.underline);
                cellFont.setStrikeOut(cell.strike);
                painter.setFont(cellFont);
                currentStyle = style;
            }
            if (fg != currentPen) {
                painter.setPen(fg);
                currentPen = fg;
            }
            painter.drawText(QPoint(c * cw, y + m_ascent), cell.text);
        }
    }
}

void TerminalView::keyPressEvent(QKeyEvent *event)
{
    const auto mods
        = event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier | Qt::AltModifier);
    if (mods == (Qt::ControlModifier | Qt::ShiftModifier)) {
        if (event->key() == Qt::Key_C) {
            copy();
            return;
        }
        if (event->key() == Qt::Key_V) {
            paste();
            return;
        }
    }
    if (mods == Qt::ShiftModifier) {
        QScrollBar *bar = verticalScrollBar();
        switch (event->key()) {
        case Qt::Key_PageUp:
            bar->setValue(bar->value() - bar->pageStep());
            return;
        case Qt::Key_PageDown:
            bar->setValue(bar->value() + bar->pageStep());
            return;
        case Qt::Key_Insert:
            paste();
            return;
        default:
            break;
        }
    }
    if (sendKeyEvent(*m_screen, *event)) {
        scrollToBottom();
        return;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void TerminalView::wheelEvent(QWheelEvent *event)
{
    if (!m_screen->altScreen()) {
        QAbstractScrollArea::wheelEvent(event);
        return;
    }
    const int notches = event->angleDelta().y() / 120;
    const auto key = notches > 0 ? TerminalScreen::Key::Up : TerminalScreen::Key::Down;
    for (int i = 0; i < 3 * std::abs(notches); ++i) {
        m_screen->sendKey(key);
    }
    event->accept();
}

void TerminalView::inputMethodEvent(QInputMethodEvent *event)
{
    for (const char32_t ch : event->commitString().toUcs4()) {
        m_screen->sendChar(ch);
    }
    event->accept();
}

bool TerminalView::focusNextPrevChild(bool)
{
    return false; // Tab belongs to the shell (completion)
}

TerminalView::LinePos TerminalView::positionAt(const QPoint &point) const
{
    const int row = std::clamp(point.y() / m_cellSize.height(), 0, m_screen->rows() - 1);
    const int col = std::clamp(
        (point.x() + m_cellSize.width() / 2) / m_cellSize.width(), 0, m_screen->cols());
    return {topLine() + row, col};
}

void TerminalView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        m_selecting = true;
        m_hasSelection = false;
        m_selectionAnchor = m_selectionEnd = positionAt(event->position().toPoint());
        viewport()->update();
    } else if (event->button() == Qt::MiddleButton) {
        const QString text = QApplication::clipboard()->text(QClipboard::Selection);
        if (!text.isEmpty()) {
            m_screen->paste(text);
            scrollToBottom();
        }
    }
}

void TerminalView::mouseMoveEvent(QMouseEvent *event)
{
    if (!m_selecting) {
        return;
    }
    m_selectionEnd = positionAt(event->position().toPoint());
    m_hasSelection = m_selectionEnd != m_selectionAnchor;
    viewport()->update();
}

void TerminalView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_selecting) {
        return;
    }
    m_selecting = false;
    if (m_hasSelection && QApplication::clipboard()->supportsSelection()) {
        QApplication::clipboard()->setText(selectedText(), QClipboard::Selection);
    }
}

void TerminalView::mouseDoubleClickEvent(QMouseEvent *event)
{
    // Selects the word (a run of non-blank characters) under the pointer.
    const LinePos at = positionAt(event->position().toPoint());
    const QString text = m_screen->lineText(at.line);
    int from = std::min(at.col, static_cast<int>(text.size()));
    int to = from;
    while (from > 0 && !text.at(from - 1).isSpace()) {
        --from;
    }
    while (to < text.size() && !text.at(to).isSpace()) {
        ++to;
    }
    m_selectionAnchor = {at.line, from};
    m_selectionEnd = {at.line, to};
    m_hasSelection = to > from;
    m_selecting = false;
    viewport()->update();
}

QString TerminalView::selectedText() const
{
    if (!m_hasSelection) {
        return {};
    }
    const LinePos from = std::min(m_selectionAnchor, m_selectionEnd);
    const LinePos to = std::max(m_selectionAnchor, m_selectionEnd);
    QStringList lines;
    for (int line = from.line; line <= to.line; ++line) {
        const QString text = m_screen->lineText(line);
        const int start = line == from.line ? from.col : 0;
        const int end = line == to.line ? to.col : static_cast<int>(text.size());
        lines.append(text.mid(start, std::max(end - start, 0)));
    }
    return lines.join(QLatin1Char('\n'));
}

void TerminalView::selectAll()
{
    m_selectionAnchor = {-m_screen->scrollbackCount(), 0};
    m_selectionEnd = {m_screen->rows() - 1, m_screen->cols()};
    m_hasSelection = true;
    viewport()->update();
}

void TerminalView::copy()
{
    if (m_hasSelection) {
        QApplication::clipboard()->setText(selectedText());
    }
}

void TerminalView::paste()
{
    const QString text = QApplication::clipboard()->text();
    if (!text.isEmpty()) {
        m_screen->paste(text);
        scrollToBottom();
    }
}

void TerminalView::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    QAction *copyAction = menu.addAction(tr("Copy"), this, &TerminalView::copy);
    copyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copyAction->setEnabled(m_hasSelection);
    QAction *pasteAction = menu.addAction(tr("Paste"), this, &TerminalView::paste);
    pasteAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
    pasteAction->setEnabled(!QApplication::clipboard()->text().isEmpty());
    menu.addSeparator();
    menu.addAction(tr("Select All"), this, &TerminalView::selectAll);
    menu.exec(event->globalPos());
}

} // namespace mc::term
