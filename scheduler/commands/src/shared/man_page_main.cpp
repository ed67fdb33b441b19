// mc-man: writes a command's man page from its Markdown source and option table, or (--stats)
// prints how many options each command implements and refuses. Build-time tool; not installed.
//   mc-man <command> <source.md> <output.1>
//   mc-man --stats
#include "mc/cmd/man_page.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char **argv)
{
    using namespace mc::cmd;
    if (argc == 2 && std::string(argv[1]) == "--stats") {
        std::cout << "command   implemented  refused\n";
        for (const char *command : {"sbatch", "squeue", "scancel", "sacct", "sinfo", "scontrol"}) {
            int yes = 0;
            int no = 0;
            for (const auto &def : commandOptionTable(command)) {
                (def.supported ? yes : no) += 1;
            }
            std::printf("%-9s %11d %8d\n", command, yes, no);
        }
        return 0;
    }
    if (argc != 4) {
        std::cerr << "usage: mc-man <command> <source.md> <output.1> | --stats\n";
        return 2;
    }
    std::ifstream in(argv[2]);
    if (!in) {
        std::cerr << "mc-man: cannot read " << argv[2] << "\n";
        return 1;
    }
    std::ostringstream text;
    text << in.rdbuf();
    std::ofstream out(argv[3]);
    out << markdownToMan(text.str(), commandOptionTable(argv[1]), commandHelpText(argv[1]));
    return out ? 0 : 1;
}
