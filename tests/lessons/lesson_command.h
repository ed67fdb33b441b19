#pragma once
// `minicluster lesson --lang en ARGS...` on a test cluster, for the lessons' walkthroughs.

#include "cluster_fixture.h"

inline ShellResult lesson(const ClusterFixture &c, const QStringList &args)
{
    return c.minicluster(
        QStringList{QStringLiteral("lesson"), QStringLiteral("--lang"), QStringLiteral("en")}
        + args);
}
