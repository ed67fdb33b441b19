#pragma once
// Which members of the controller's job objects squeue reads (record::JobMember: no key is
// spelled here), so that a `jobs` request can name them (`fields`) and a large queue travels as
// only what the format, the filters and the sort print or compare. A controller that ignores
// `fields` sends whole objects: same output.

#include "squeue_fields.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mc::cmd::squeue {

// The members one field reads (its value may depend on all of them); nullopt for a field that
// has no entry (it reads an unknown set).
std::optional<std::vector<record::JobMember>> membersOfField(const Field &field);

// The members Filter::accepts() reads.
std::span<const record::JobMember> filterMembers();

// The members the fields of `columns` and of the sort keys of `sortSpec` read, each once, in a
// stable order; nullopt when a field reads an unknown set.
std::optional<std::vector<record::JobMember>> membersRead(
    const std::vector<Column> &columns, std::string_view sortSpec);

// The keys of every member the columns, the sort keys (`sortSpec`, Slurm's -S letters) and the
// filters read, each once, in a stable order; empty when a field reads an unknown set (then
// whole objects are asked for).
std::vector<std::string> requestedKeys(
    const std::vector<Column> &columns, std::string_view sortSpec);

} // namespace mc::cmd::squeue
