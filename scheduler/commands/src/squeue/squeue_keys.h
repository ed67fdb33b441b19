#pragma once
// Which members of the controller's job objects squeue reads, so that a `jobs` request can name
// them (`fields`) and a large queue travels as only what the format, the filters and the sort
// print or compare. A controller that ignores `fields` sends whole objects: same output.

#include "squeue_fields.h"

#include <string>
#include <string_view>
#include <vector>

namespace mc::cmd::squeue {

// The job keys one field reads (its value may depend on all of them).
std::vector<std::string_view> keysOfField(const Field &field);

// Every key the columns, the sort keys (`sortSpec`, Slurm's -S letters) and the filters read,
// each once, in a stable order.
std::vector<std::string> requestedKeys(
    const std::vector<Column> &columns, std::string_view sortSpec);

} // namespace mc::cmd::squeue
