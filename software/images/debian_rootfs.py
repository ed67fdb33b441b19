#!/usr/bin/env python3
"""Assembles a Debian root filesystem from the host's installed packages, offline.

debian_rootfs.py --dest DIR PACKAGE...: the files of PACKAGE and of everything it depends on
(Depends and Pre-Depends, recursively, alternatives resolved to what is installed), as
`dpkg -L` lists them, copied into DIR with Debian 12's merged /usr, the alternatives links they
use, and a minimal /etc (passwd, group, os-release, ld.so). Documentation, manual pages and
translations are left out, as in Debian's slim container images. Prints the package count.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

SKIP_PREFIXES = ("/usr/share/doc/", "/usr/share/man/", "/usr/share/locale/", "/usr/share/info/",
                 "/usr/share/lintian/", "/usr/share/bug/")
TOP_LINKS = {"bin": "usr/bin", "sbin": "usr/sbin", "lib": "usr/lib", "lib64": "usr/lib64"}
EMPTY_DIRS = ["tmp", "var/tmp", "home", "root", "proc", "sys", "dev", "run", "mnt", "opt",
              "scratch", "project", "etc", ".singularity.d/env", ".singularity.d/actions"]


def installed():
    out = subprocess.run(["dpkg-query", "-W", "-f", "${Package}\t${db:Status-Abbrev}\t"
                          "${Provides}\t${Depends}\t${Pre-Depends}\n"],
                         capture_output=True, text=True, check=True).stdout
    packages, provides = {}, {}
    for line in out.splitlines():
        name, status, prov, deps, predeps = line.split("\t")
        if not status.startswith("ii"):
            continue
        packages[name] = ", ".join(d for d in (deps, predeps) if d)
        for p in prov.split(","):
            p = p.strip().split(" ")[0]
            if p:
                provides.setdefault(p, name)
    return packages, provides


def closure(roots, packages, provides):
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in packages:
            sys.exit(f"debian_rootfs: {name} is not installed")
        seen.add(name)
        for dep in filter(None, (d.strip() for d in packages[name].split(","))):
            for alt in dep.split("|"):
                alt = re.sub(r"\(.*?\)", "", alt).strip().split(":")[0]
                target = alt if alt in packages else provides.get(alt)
                if target:
                    todo.append(target)
                    break
    return sorted(seen)


def copy_path(src, root):
    dest = root + src
    if os.path.islink(src):
        if not os.path.lexists(dest):
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            os.symlink(os.readlink(src), dest)
    elif os.path.isdir(src):
        os.makedirs(dest, exist_ok=True)
    elif os.path.isfile(src):
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy2(src, dest)


def copy_alternatives(root):
    """The update-alternatives links (libblas.so.3, awk, ...) whose choice was copied: they are
    made by maintainer scripts, so `dpkg -L` does not list them."""
    admin = "/var/lib/dpkg/alternatives"
    for master in sorted(os.listdir(admin)):
        lines = open(os.path.join(admin, master)).read().split("\n")
        links = [(master, lines[1])]
        i = 2
        while i + 1 < len(lines) and lines[i]:
            links.append((lines[i], lines[i + 1]))
            i += 2
        for name, link in links:
            alt = "/etc/alternatives/" + name
            if os.path.islink(alt) and os.path.lexists(root + os.readlink(alt)):
                copy_path(alt, root)
                if not os.path.lexists(root + link):
                    os.makedirs(os.path.dirname(root + link), exist_ok=True)
                    os.symlink(alt, root + link)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dest", required=True)
    ap.add_argument("packages", nargs="+")
    a = ap.parse_args()
    root = os.path.abspath(a.dest)
    if os.path.exists(root):
        shutil.rmtree(root)
    os.makedirs(root + "/usr/bin")
    os.makedirs(root + "/usr/sbin")
    os.makedirs(root + "/usr/lib")
    os.makedirs(root + "/usr/lib64")
    for name, target in TOP_LINKS.items():
        os.symlink(target, os.path.join(root, name))
    packages, provides = installed()
    names = closure(a.packages, packages, provides)
    for name in names:
        files = subprocess.run(["dpkg", "-L", name], capture_output=True, text=True).stdout
        for path in files.splitlines():
            if path.strip("/") in TOP_LINKS or path.startswith(SKIP_PREFIXES) or path == "/.":
                continue
            copy_path(path, root)
    for d in EMPTY_DIRS:
        os.makedirs(os.path.join(root, d), exist_ok=True)
    os.chmod(root + "/tmp", 0o1777)
    copy_alternatives(root)
    for f in ("/etc/ld.so.conf", "/etc/ld.so.cache", "/etc/os-release", "/etc/debian_version",
              "/etc/nsswitch.conf", "/etc/bash.bashrc"):
        if os.path.exists(f):
            copy_path(f, root)
    os.makedirs(root + "/etc/ld.so.conf.d", exist_ok=True)
    for f in os.listdir("/etc/ld.so.conf.d"):
        copy_path("/etc/ld.so.conf.d/" + f, root)
    if os.path.islink("/usr/lib/os-release") or os.path.exists("/usr/lib/os-release"):
        copy_path("/usr/lib/os-release", root)
    with open(root + "/etc/passwd", "w") as f:
        f.write("root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:"
                "/usr/sbin/nologin\n")
    with open(root + "/etc/group", "w") as f:
        f.write("root:x:0:\nnogroup:x:65534:\n")
    # Bind points of Apptainer's defaults: present, so a container mounts over them in place.
    for f in ("/etc/hosts", "/etc/resolv.conf", "/etc/localtime"):
        open(root + f, "a").close()
    with open(root + "/etc/hostname", "w") as f:
        f.write("container\n")
    print(f"{len(names)} packages")


if __name__ == "__main__":
    main()
