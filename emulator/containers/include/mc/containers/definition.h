#pragma once
// An Apptainer definition file: a header of `Key: value` lines (Bootstrap, From, ...) then
// %sections. minicluster builds `Bootstrap: localimage` (and `scratch`, an empty root) offline;
// the sections it runs are %files, %post, %environment, %runscript, %labels, %help and %test.

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mc::containers {

struct Definition {
    std::map<std::string, std::string> header; // keys lower-cased: "bootstrap", "from"
    std::vector<std::pair<std::string, std::string>> files; // %files: source, destination
    std::string post;
    std::string environment;
    std::string runscript;
    std::string help;
    std::string test;
    std::vector<std::pair<std::string, std::string>> labels; // in the file's order
    std::vector<std::string> unsupportedSections; // %startscript, %setup, %app*, ...
    std::string text; // the file as given (stored in the image, shown by `inspect --deffile`)
};

// Parses a definition file's text. Errors (no Bootstrap header, an unknown section) are
// returned in `error`, in Apptainer's words.
Definition parseDefinition(const std::string &text, std::string &error);

} // namespace mc::containers
