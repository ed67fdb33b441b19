#pragma once
// One job as squeue's and sacct's fields read it: either a JSON object (whole-object replies,
// tests) or one row of a proto::RowTable (`form: "rows"` replies of thousands of jobs, read
// without a Json tree). Both answer the same typed reads as proto::Json, with its fallbacks.

#include "mc/proto/json.h"
#include "mc/proto/row_table.h"
#include "mc/sched/job_state.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::cmd {

// One member of a job; null when absent.
class JobValue {
public:
    JobValue(const proto::Json &json)
        : m_json(&json)
    { }
    JobValue(const proto::RowTable &table, const proto::RowTable::Cell &cell)
        : m_table(&table)
        , m_cell(&cell)
    { }

    bool isNull() const { return m_json ? m_json->isNull() : m_cell->isNull(); }
    bool isInt() const { return m_json ? m_json->isInt() : m_cell->isInt(); }
    bool toBool(bool fallback = false) const
    {
        return m_json ? m_json->toBool(fallback) : m_table->toBool(*m_cell, fallback);
    }
    std::int64_t toInt(std::int64_t fallback = 0) const
    {
        return m_json ? m_json->toInt(fallback) : m_table->toInt(*m_cell, fallback);
    }
    std::string toString(std::string_view fallback = {}) const
    {
        return m_json ? m_json->toString(fallback) : m_table->toString(*m_cell, fallback);
    }
    // A string's characters without a copy (valid while the reply lives); empty otherwise.
    std::string_view view() const { return m_json ? m_json->view() : m_table->view(*m_cell); }
    std::vector<std::string> toStringList() const
    {
        return m_json ? m_json->toStringList() : m_table->toStringList(*m_cell);
    }
    // The value as a Json tree (arrays and objects of a row parsed now).
    proto::Json toJson() const { return m_json ? *m_json : m_table->toJson(*m_cell); }

private:
    const proto::Json *m_json = nullptr;
    const proto::RowTable *m_table = nullptr;
    const proto::RowTable::Cell *m_cell = nullptr;
};

class JobView {
public:
    JobView() = default;
    // Implicit: a Json object reads as a job.
    JobView(const proto::Json *job)
        : m_json(job)
    { }
    JobView(const proto::Json &job)
        : m_json(&job)
    { }
    JobView(const proto::RowTable *table, std::size_t row)
        : m_table(table)
        , m_row(row)
    { }

    JobValue operator[](std::string_view key) const
    {
        if (m_json) {
            return (*m_json)[key];
        }
        if (!m_table) {
            static const proto::Json none;
            return none;
        }
        return JobValue(*m_table, m_table->cell(m_row, m_table->column(key)));
    }
    bool contains(std::string_view key) const
    {
        // In a table, null is an absent member (rows have a cell for every column).
        return m_json ? m_json->contains(key)
                      : m_table && !m_table->cell(m_row, m_table->column(key)).isNull();
    }
    // The row's index in its table (0 for a Json object).
    std::size_t row() const { return m_row; }

private:
    const proto::Json *m_json = nullptr;
    const proto::RowTable *m_table = nullptr;
    std::size_t m_row = 0;
};

// What a few fields of squeue and sacct read beyond the job: the cluster's name and group
// names, which the controller's job records do not carry.
struct JobSite {
    std::string clusterName;
    std::function<std::string(const JobView &)> groupName;
};

// The job's `state` (its long name; the short one or any case as sched::parseJobState()
// reads them); nullopt when absent or unknown.
std::optional<sched::JobState> jobState(const JobView &job);

} // namespace mc::cmd
