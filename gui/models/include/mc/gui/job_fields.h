#pragma once
// The job details' fields: what `scontrol show job -d` prints for a job object of the protocol
// (docs/protocol.md), with scontrol's names and value formats (Slurm 22.05), so that the app
// and the command agree. Output paths are expanded as sbatch expands them (%j %x %u %A %a ...,
// relative to WorkDir, slurm-%j.out when none was given); a pending job the planner placed shows
// its planned StartTime and EndTime, as Slurm's backfill shows them. Pure functions.

#include <QList>
#include <QPair>
#include <QString>

namespace mc::record {
struct JobObject;
}

namespace mc::gui {

using JobField = QPair<QString, QString>; // ("StdOut", "/home/alice/hello-12.out")

// scontrol's fields in its order; optional ones (array ids, BatchHost, TresPerNode, Comment)
// only when the job has them. `now` (the cluster clock) gives RunTime.
QList<JobField> jobFields(const mc::record::JobObject &job, qint64 now);

// One --output/--error/--input pattern expanded for this job, as scontrol shows it.
QString expandedStdioPath(const mc::record::JobObject &job, const QString &pattern, bool isInput);

} // namespace mc::gui
