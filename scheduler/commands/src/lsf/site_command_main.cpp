// bstat and classstat: DTU's own wrappers around LSF (seed 004), which minicluster does not
// emulate. They say so, and name the LSF command that shows the same, instead of leaving a
// student with "command not found".
#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    (void)argc;
    const char *slash = std::strrchr(argv[0], '/');
    const char *name = slash ? slash + 1 : argv[0];
    const bool jobs = std::strcmp(name, "bstat") == 0;
    std::fprintf(stderr,
        "%s: this site's own command is not supported by minicluster; %s shows the same "
        "in LSF's words\n",
        name, jobs ? "bjobs" : "bqueues");
    return 1;
}
