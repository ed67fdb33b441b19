#!/usr/bin/env python3
"""Fails when the build or the run uses a Debian package that scripts/deps.sh does not name.

  scripts/check-deps.py [--deps FILE] --run BUILD_DIR [--test BUILD_DIR]

What is used is read, not declared:
- for a build directory: every absolute path outside the source and build trees that its
  build.ninja names (CMake's own re-run inputs, i.e. every config file find_package read, the
  compilers and tools of custom commands, the libraries linked), and, once built, every header
  ninja recorded for the objects (`ninja -t deps`);
- for the run: the programs and files the emulator starts or reads on the host (RUN_USES below,
  kept next to the code that uses them), and the shared libraries of the built binaries (ldd).
Each file is mapped to the package that owns it (dpkg's file lists). A package passes when it is
Essential or Priority: required (every Debian and Ubuntu system has it), or when it is in the
closure of deps.sh's list through Depends and Pre-Depends only (apt-get installs with
--no-install-recommends). The run build and the run uses are checked against deps.sh's run list,
the test build and the test uses against run + test.

The deps file is parsed as text (its bash arrays), so an older deps.sh can be checked too:
  scripts/check-deps.py --deps <(git show REV:scripts/deps.sh) --run build/app
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

# Programs and files the cluster uses on the host at run time, by who uses them. A new use in
# the code goes here too (the check cannot see an exec of a name it is not told about).
RUN_USES = {
    "bwrap": "the node sandbox (emulator/runtime/src/sandbox*.cpp)",
    "bash": "job scripts, login shell",
    "/usr/bin/python3": "the python module, virtualenv, avail_wheels (software/)",
    "/usr/lib/python3/dist-packages/pip/__init__.py": "pip in the python module (software/)",
    "/usr/lib/python3/dist-packages/numpy/__init__.py": "the wheelhouse and scipy-stack (software/)",
    "/usr/lib/python3/dist-packages/scipy/__init__.py": "the wheelhouse and scipy-stack (software/)",
    "/usr/lib/python3/dist-packages/pandas/__init__.py": "the wheelhouse and scipy-stack (software/)",
    "/usr/lib/python3/dist-packages/matplotlib/__init__.py": "the wheelhouse, scipy-stack",
    "/usr/lib/python3/dist-packages/sklearn/__init__.py": "the wheelhouse, scipy-stack, lesson 11",
    "/usr/lib/python3/dist-packages/torch/__init__.py": "the wheelhouse and pytorch (software/)",
    "/usr/lib/python3/dist-packages/torchvision/__init__.py": "the wheelhouse and pytorch",
    "/usr/lib/python3/dist-packages/notebook/__init__.py": "jupyter in the python module",
    "jupyter-notebook": "jupyter in the python module",
    "/usr/lib/python3/dist-packages/packaging/__init__.py": "software/python/debian_wheels.py",
    "mpirun": "MPI jobs (integration.mpi, the MPI lesson)",
    "mpicc": "compiling MPI programs on the login node",
    "/usr/lib/python3/dist-packages/mpi4py/__init__.py": "mpi4py in jobs (integration.mpi)",
    "/usr/share/lmod/lmod/init/bash": "`module` (emulator/launcher, lessons)",
    "/usr/share/lmod/lmod/libexec/lmod": "`module` (emulator/launcher)",
    "man": "`man sbatch` on the login node",
    "ssh": "the workstation (emulator/workstation)",
    "scp": "the workstation (emulator/workstation)",
    "ssh-keygen": "the workstation (emulator/workstation)",
    "/usr/sbin/sshd": "login1's sshd for the workstation (emulator/workstation)",
    "rsync": "the workstation (lesson 1)",
    "unsquashfs": "apptainer running a SIF image (emulator/containers)",
    "mksquashfs": "apptainer build, the shipped images (emulator/containers, software/images)",
}
TEST_USES = {
    "clang-format": "scripts/check-format.sh",
    "xvfb-run": "GUI tests under a virtual display (tests/gui)",
    "Xvfb": "GUI tests under a virtual display (tests/gui)",
    "xauth": "xvfb-run",
    "hyperfine": "bench/*.sh",
    "/usr/sbin/debootstrap": "bench/fresh_install.sh",
    "snakemake": "integration.workflow_clients",
    "makeflow": "integration.workflow_clients",
}


def deps_lists(text):
    """The bash arrays of deps.sh: {name: [packages]} (comments and blank lines skipped)."""
    arrays = {}
    for m in re.finditer(r"^(\w+)=\(\s*\n(.*?)^\)", text, re.S | re.M):
        words = []
        for line in m.group(2).splitlines():
            words += line.split("#", 1)[0].split()
        arrays[m.group(1)] = words
    return arrays


def closure(packages):
    """Packages reached from `packages` through Depends/Pre-Depends (all alternatives)."""
    if not packages:
        return set()
    out = subprocess.run(
        ["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests",
         "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances"] + sorted(packages),
        capture_output=True, text=True, check=True).stdout
    reached = set()
    for line in out.splitlines():
        if not line.startswith(" "):
            reached.add(bare(line.strip("<>")))
        else:
            # "  Depends: foo" / " |Depends: <bar>" / "    provider" (of a virtual package)
            word = line.split(":", 1)[1] if ":" in line and "Depends" in line else line
            reached.add(bare(word.strip().strip("<>")))
    return reached


def bare(name):
    return name.split(":", 1)[0].strip()


def baseline():
    """Essential and required packages: on every Debian/Ubuntu system."""
    out = subprocess.run(["dpkg-query", "-W", "-f", "${Package}\t${Essential}\t${Priority}\n"],
                         capture_output=True, text=True, check=True).stdout
    return {p for p, ess, prio in (l.split("\t") for l in out.splitlines() if l.count("\t") == 2)
            if ess == "yes" or prio == "required"}


class Owners:
    """File path -> owning package, from dpkg's file lists (merged-/usr aware)."""

    def __init__(self):
        self.owner = {}
        for listing in glob.glob("/var/lib/dpkg/info/*.list"):
            pkg = bare(os.path.basename(listing)[:-len(".list")])
            with open(listing, encoding="utf-8", errors="replace") as f:
                for path in f.read().splitlines():
                    self.owner.setdefault(path, pkg)
                    for top in ("/lib", "/lib64", "/bin", "/sbin"):
                        if path.startswith(top + "/"):
                            self.owner.setdefault("/usr" + path, pkg)

    def of(self, path):
        for p in (path, os.path.realpath(path), os.path.abspath(path)):
            if p in self.owner:
                return self.owner[p]
        # A link whose target is owned (e.g. /usr/bin/c++ -> alternatives -> g++-12)
        real = os.path.realpath(path)
        return self.owner.get(real)


def ninja_inputs(build, roots):
    """Absolute paths outside `roots` named in build.ninja (and headers from ninja -t deps)."""
    text = ""
    for name in ("build.ninja", "CMakeFiles/rules.ninja"):
        p = os.path.join(build, name)
        if os.path.exists(p):
            with open(p, encoding="utf-8", errors="replace") as f:
                text += f.read().replace("$\n", " ").replace("$ ", " ").replace("$:", ":")
    if shutil.which("ninja"):
        deps = subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True,
                              text=True).stdout
        text += "\n" + deps
    paths = set()
    for tok in re.findall(r"(?:^|[\s=\"'])(?:-I|-isystem|-L)?(/[^\s\"';|]+)", text):
        tok = tok.rstrip(",")
        if any(tok == r or tok.startswith(r + "/") for r in roots):
            continue
        if tok.startswith(("/tmp/", "/proc/", "/dev/", "/root/", "/home/")):
            continue
        if os.path.isfile(tok):
            paths.add(tok)
    return paths


def elf_libraries(build):
    """Shared libraries the built programs load (ldd)."""
    libs = set()
    bindir = os.path.join(build, "bin")
    for f in glob.glob(os.path.join(bindir, "*")):
        if not os.path.isfile(f) or not os.access(f, os.X_OK):
            continue
        with open(f, "rb") as h:
            if h.read(4) != b"\x7fELF":
                continue
        out = subprocess.run(["ldd", f], capture_output=True, text=True).stdout
        libs.update(re.findall(r"=> (/\S+)", out))
    return libs


def tool_paths(uses):
    found, missing = {}, []
    for name, why in uses.items():
        path = name if name.startswith("/") else shutil.which(name)
        if path and os.path.exists(path):
            found[path] = why
        else:
            missing.append(f"{name} ({why})")
    return found, missing


def check(label, files, allowed, owners, deps_name):
    """Returns the problems: files whose package deps.sh does not reach."""
    problems = {}
    unowned = []
    for path, why in sorted(files.items()):
        pkg = owners.of(path)
        if pkg is None:
            unowned.append(path)
            continue
        if pkg not in allowed:
            problems.setdefault(pkg, []).append(f"{path} ({why})")
    lines = []
    for pkg, uses in sorted(problems.items()):
        lines.append(f"check-deps: {label} uses package {pkg}, which {deps_name} neither lists "
                     f"nor pulls in without recommends: add {pkg} to its "
                     f"{'build_packages or runtime_packages' if label == 'run' else 'test_packages'}. "
                     f"Used: {uses[0]}" + (f" and {len(uses) - 1} more" if len(uses) > 1 else ""))
    return lines, unowned


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deps", default=os.path.join(here, "deps.sh"))
    ap.add_argument("--run", required=True, help="the run command's build directory")
    ap.add_argument("--test", help="the test command's build directory")
    args = ap.parse_args()

    with open(args.deps, encoding="utf-8") as f:
        arrays = deps_lists(f.read())
    if not arrays:
        sys.exit(f"check-deps: no package list found in {args.deps}")
    # Every list but test_packages is the run's (older deps.sh files had one `packages` list).
    run_list = [p for name, ps in arrays.items() if name != "test_packages" for p in ps]
    test_list = [p for name, ps in arrays.items() for p in ps]
    base = baseline()
    allowed_run = closure(run_list) | base
    allowed_test = closure(test_list) | base
    owners = Owners()
    source = os.path.dirname(here)

    failures, notes = [], []
    run_files = {p: "read or run by CMake at configure/build time"
                 for p in ninja_inputs(args.run, [source, os.path.abspath(args.run)])}
    run_files.update({p: "loaded by the built programs" for p in elf_libraries(args.run)})
    uses, missing = tool_paths(RUN_USES)
    run_files.update(uses)
    failures += [f"check-deps: the run needs {m}, which is not on this machine" for m in missing]
    lines, unowned = check("run", run_files, allowed_run, owners, args.deps)
    failures += lines
    notes += unowned
    count = len(run_files)
    if args.test:
        test_files = {p: "read or run by the test build"
                      for p in ninja_inputs(args.test, [source, os.path.abspath(args.test)])}
        test_files.update({p: "loaded by the test build's programs"
                           for p in elf_libraries(args.test)})
        uses, missing = tool_paths(TEST_USES)
        test_files.update(uses)
        failures += [f"check-deps: the tests need {m}, which is not on this machine"
                     for m in missing]
        lines, unowned = check("test", test_files, allowed_test, owners, args.deps)
        failures += lines
        notes += unowned
        count += len(test_files)
    failures += [f"check-deps: {p} is used but belongs to no Debian package: a fresh machine "
                 f"does not have it (installed by hand?)" for p in notes]
    for line in failures:
        print(line, file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"check-deps: {count} files used by the build and the run, all from packages that "
          f"{os.path.relpath(args.deps)} names or pulls in")


if __name__ == "__main__":
    main()
