#pragma once
// Plain-language sentences for scheduling decisions, in English ("en") and French ("fr"). The
// decision stays structured (reason, jobs waited for, planned start, nodes); this renders it.
// The templates are one table (explanation.cpp); the GUI may translate the same data with its
// own tr() instead. Placeholders: {jobs} (job ids), {start} (planned start), {nodes}, {dep}.

#include "mc/sched/scheduler.h"

#include <string>
#include <string_view>

namespace mc::sched {

// The sentence for `wait` in `language` ("en" or "fr"; anything else falls back to "en").
// `now` turns the planned start into a relative time ("in 5:00"); timestamps are UTC.
std::string explain(const WaitDecision &wait, std::string_view language, Seconds now);
// The sentence for a start ("Job 12 started on cn01 ...").
std::string explain(const StartDecision &start, std::string_view language);

} // namespace mc::sched
