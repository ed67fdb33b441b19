#pragma once
// What the GUI tests look for: a text anywhere on a terminal (screen and scrollback), a job's
// row in the queue model by name.

#include "mc/gui/job_table_model.h"
#include "mc/term/terminal_screen.h"

#include <QString>

namespace mc::gui::test {

inline bool screenShows(const mc::term::TerminalScreen &screen, const QString &text)
{
    for (int row = -screen.scrollbackCount(); row < screen.rows(); ++row) {
        if (screen.lineText(row).contains(text)) {
            return true;
        }
    }
    return false;
}

// The first row of `jobs` whose NAME is `name`, or -1.
inline int rowNamed(const JobTableModel &jobs, const QString &name)
{
    const int column = JobTableModel::columnIndex(JobTableModel::Column::Name);
    for (int row = 0; row < jobs.rowCount(); ++row) {
        if (jobs.index(row, column).data().toString() == name) {
            return row;
        }
    }
    return -1;
}

} // namespace mc::gui::test
