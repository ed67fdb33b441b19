#include "mc/record/job_update.h"

namespace mc::record {

using proto::Json;

namespace {

template <typename T> void setIf(Json &j, const char *key, const std::optional<T> &value)
{
    if (value) {
        j.set(key, *value);
    }
}

} // namespace

bool JobUpdate::empty() const
{
    return *this == JobUpdate{};
}

Json updateToJson(const JobUpdate &u)
{
    Json j = Json::object();
    setIf(j, "time_limit", u.timeLimit);
    setIf(j, "time_min", u.timeMin);
    setIf(j, "nice", u.nice);
    setIf(j, "partition", u.partition);
    setIf(j, "name", u.name);
    setIf(j, "num_nodes", u.numNodes);
    setIf(j, "dependency", u.dependency);
    setIf(j, "begin", u.begin);
    setIf(j, "array_task_throttle", u.arrayTaskThrottle);
    setIf(j, "constraint", u.constraint);
    setIf(j, "comment", u.comment);
    return j;
}

JobUpdate updateFromJson(const Json &fields)
{
    JobUpdate u;
    for (const auto &[key, value] : fields.members()) {
        if (key == "time_limit") {
            u.timeLimit = value.toInt(sched::kInfinite);
        } else if (key == "time_min") {
            u.timeMin = value.toInt();
        } else if (key == "nice") {
            u.nice = static_cast<int>(value.toInt());
        } else if (key == "partition") {
            u.partition = value.toString();
        } else if (key == "name") {
            u.name = value.toString();
        } else if (key == "num_nodes") {
            u.numNodes = static_cast<int>(value.toInt(1));
        } else if (key == "dependency") {
            u.dependency = value.toString();
        } else if (key == "begin" || key == "start_time") {
            u.begin = value.toInt();
        } else if (key == "array_task_throttle") {
            u.arrayTaskThrottle = static_cast<int>(value.toInt());
        } else if (key == "constraint") {
            u.constraint = value.toString();
        } else if (key == "comment") {
            u.comment = value.toString();
        } else {
            u.unknown.push_back(key);
        }
    }
    return u;
}

} // namespace mc::record
