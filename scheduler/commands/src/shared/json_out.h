#pragma once
// The --json text of Slurm 22.05's squeue, sinfo and sacct: their OpenAPI v0.0.38 data written
// by json-c with JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED. Values are mc::proto::Json
// (objects keep their key order); only the layout differs from the protocol's compact dump().

#include "job_view.h"
#include "mc/cmd/context.h"
#include "mc/cmd/option_parser.h"
#include "mc/proto/json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mc::cmd {

// json-c's pretty text: two spaces per level, `"key": value`, one member or item per line, an
// empty array or object as "[" / "{", newline, indent, "]" / "}"; '/' escaped as "\/", control
// characters as \b \f \n \r \t or \u00xx, other bytes as they are; a double with %.17g and ".0"
// added when it has no '.' or exponent (1 -> "1.0"). No newline at the end, as Slurm prints it.
std::string slurmJsonText(const proto::Json &value);

// --json or --yaml: the last of them on the command line wins, as in Slurm 22.05.
enum class DataFormat { Json, Yaml };
std::optional<DataFormat> dataFormat(const ParseResult &cli, int jsonId, int yamlId);

// How the YAML writer reads "": squeue's and sinfo's data print a string Slurm never set as ""
// in JSON and as null in YAML (AreNull); sacct's "" are real empty strings (Kept).
enum class EmptyStrings { Kept, AreNull };

// Slurm 22.05's --yaml text of the same data (serializer/yaml through libyaml 0.2.5): "%YAML
// 1.1", "--- !!map", every value tagged (`!!str key: !!int 3`), block collections indented by
// two (a sequence under a key not indented), `!!seq []` and `!!map {}` when empty, floats as
// "%lf", each string plain, 'single' or "double" quoted as libyaml chooses (non-ASCII escaped),
// long ones folded at spaces past column 80; ends with "...\n".
std::string slurmYamlText(const proto::Json &value, EmptyStrings empty);

// slurmJsonText() or slurmYamlText() as `format` says.
std::string slurmDataText(const proto::Json &value, DataFormat format, EmptyStrings empty);

// The response skeleton every 22.05 OpenAPI handler starts with: {"meta": {...}, "errors": []}.
// `pluginType` "openapi/v0.0.38" (squeue, sinfo) or "openapi/dbv0.0.38" (sacct), `pluginName`
// its name ("Slurm OpenAPI v0.0.38"); Slurm's version is 22.05.8, as --version says.
proto::Json openapiResponse(std::string_view pluginType, std::string_view pluginName);

// Slurm's TRES string of a memory size in MiB: "500M", "1G" when a whole number of GiB, "2T".
std::string tresMemory(std::int64_t mebibytes);

// A list of node names as Slurm's hostlist prints it ("node[01-02],gpu01"); "" when empty.
std::string hostlistText(const proto::Json &names);

// The cluster's name from the controller (`ping`); nullopt when it cannot be reached.
std::optional<std::string> clusterName(Context &ctx);

// A group's name, as Slurm's gid_to_string_or_null(): the user's own group when `gid` is the
// user's (minicluster's etc/group gives every user one), else the group database; null
// when unknown.
proto::Json groupName(const Context &ctx, const std::string &user, std::int64_t gid);

// What squeue's and sacct's fields read beyond the job: the cluster's name when `withCluster`
// (a ping), and group names, looked up once per gid ("" for a gid without a name).
JobSite jobSite(Context &ctx, bool withCluster);

} // namespace mc::cmd
