#!/usr/bin/python3
"""Wheels and module stacks from the Python packages Debian installed, offline.

    debian_wheels.py --wheelhouse DIR --stacks DIR --stack NAME/VERSION=dist,dist ...

For every distribution a stack needs (its roots and everything they depend on), this writes a
real wheel into the wheelhouse: the files Debian's packages put under
/usr/lib/python3/dist-packages, a fresh .dist-info with METADATA, WHEEL, RECORD (sha256 of
each file) and the package's entry points, so `pip install --no-index` installs it into a
virtual environment as it would a wheel from PyPI. Debian strips most install_requires from
its metadata, so a wheel's Requires-Dist also comes from its Debian package's Depends
(python3-pandas Depends python3-numpy: pandas requires numpy). A requirement no installed
distribution satisfies is left out and listed in the wheelhouse's debian-wheels.txt.

Each stack becomes NAME/VERSION/site-packages (links to the distributions' files, for the
module's PYTHONPATH), NAME/VERSION/bin (the console scripts) and NAME/VERSION/packages.txt.
The wheels of an earlier run (listed in debian-wheels.txt) are replaced; a wheel of another
origin with the same name (Debian's own setuptools wheel) is kept.
"""
import argparse
import base64
import configparser
import glob
import hashlib
import importlib.metadata as md
import os
import pathlib
import re
import subprocess
import sys
import sysconfig
import zipfile

from packaging.markers import default_environment
from packaging.requirements import InvalidRequirement, Requirement
from packaging.version import InvalidVersion, Version

SITE = "/usr/lib/python3/dist-packages"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # reproducible archives


def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def wheel_name(name):
    return re.sub(r"[-_.]+", "_", name)


class Deb:
    def __init__(self, name):
        self.name = name
        self.paths = []  # files and links of the package under SITE
        self.infos = []  # .dist-info / .egg-info directories under SITE
        self.depends = []  # alternatives: [[name, ...], ...]
        self.owner = None  # the Deb with a distribution that carries this one's files


class Dist:
    def __init__(self, info, deb):
        meta = md.PathDistribution(pathlib.Path(info))
        self.info = info
        self.deb = deb
        self.meta = meta
        self.name = meta.metadata["Name"]
        self.version = meta.version
        self.key = canonical(self.name)
        self.paths = []
        self.requires = {}  # canonical name -> requirement text
        self.dropped = []


def read_debs():
    debs = {}
    for listing in glob.glob("/var/lib/dpkg/info/*.list"):
        name = os.path.basename(listing)[: -len(".list")].split(":")[0]
        with open(listing, encoding="utf-8", errors="replace") as f:
            lines = [line.rstrip("\n") for line in f]
        under = [p for p in lines if p.startswith(SITE + "/")]
        if not under:
            continue
        deb = debs.setdefault(name, Deb(name))
        for p in under:
            rel = p[len(SITE) + 1 :]
            top = rel.split("/")[0]
            if "/" not in rel and re.search(r"\.(dist|egg)-info$", top) and os.path.isdir(p):
                deb.infos.append(p)
            elif not re.search(r"\.(dist|egg)-info(/|$)", rel) and (
                os.path.islink(p) or os.path.isfile(p)
            ):
                deb.paths.append(p)
    query = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package}\t${Provides}\t${Depends}, ${Pre-Depends}\n"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    provides = {}
    depends = {}
    for line in query.splitlines():
        pkg, prov, deps = (line.split("\t") + ["", ""])[:3]
        for p in filter(None, (x.strip().split(" ")[0] for x in prov.split(","))):
            provides.setdefault(p, pkg)
        groups = []
        for group in filter(None, (g.strip() for g in deps.split(","))):
            groups.append([a.strip().split(" ")[0].split(":")[0] for a in group.split("|")])
        depends[pkg] = groups
    for deb in debs.values():
        deb.depends = depends.get(deb.name, [])
    return debs, depends, provides


def attach_library_parts(debs):
    """python3-pandas-lib's files travel in pandas' wheel: a package with files but no
    distribution of its own joins the distribution package its name extends."""
    owners = sorted((d for d in debs.values() if d.infos), key=lambda d: -len(d.name))
    for deb in debs.values():
        if deb.infos:
            deb.owner = deb
            continue
        for o in owners:
            if deb.name.startswith(o.name + "-") or deb.name.startswith(o.name + "."):
                deb.owner = o
                break


def collect_dists(debs):
    dists = {}
    for deb in sorted(debs.values(), key=lambda d: d.name):
        for info in sorted(deb.infos):
            try:
                d = Dist(info, deb)
                Version(d.version)
            except (InvalidVersion, TypeError, KeyError):
                continue
            dists.setdefault(d.key, d)
    for deb in debs.values():
        mine = [d for d in dists.values() if d.deb is deb]
        if not mine:
            continue
        paths = list(deb.paths)
        for part in debs.values():
            if part.owner is deb and part is not deb:
                paths += part.paths
        if len(mine) == 1:
            mine[0].paths = paths
            continue
        # Several distributions in one package: split by their top_level.txt.
        claimed = set()
        for d in mine:
            tops = set((d.meta.read_text("top_level.txt") or "").split())
            d.paths = [p for p in paths if top_name(p) in tops]
            claimed.update(d.paths)
        mine[0].paths += [p for p in paths if p not in claimed]
    return dists


def top_name(path):
    top = path[len(SITE) + 1 :].split("/")[0]
    return re.split(r"[.]", top)[0]


def resolve_requirements(dists, debs, depends, provides):
    env = default_environment()
    env["extra"] = ""
    for d in dists.values():
        for text in d.meta.requires or []:
            try:
                req = Requirement(text)
            except InvalidRequirement:
                d.dropped.append(text)
                continue
            if req.marker and not req.marker.evaluate(env):
                continue
            key = canonical(req.name)
            have = dists.get(key)
            if have and req.specifier.contains(have.version, prereleases=True):
                spec = str(req.specifier)
                d.requires[key] = have.name + (spec if spec else "")
            else:
                d.dropped.append(text)
        seen = {d.deb.name}
        parts = [d.deb] + [p for p in debs.values() if p.owner is d.deb and p is not d.deb]
        groups = [g for p in parts for g in p.depends]
        for group in groups:
            for alt in group:
                pkg = alt if alt in depends else provides.get(alt)
                if pkg is None:
                    continue
                if pkg in seen:
                    break
                seen.add(pkg)
                deb = debs.get(pkg)
                owner = deb.owner if deb else None
                for other in dists.values():
                    if owner is not None and other.deb is owner and other.key != d.key:
                        d.requires.setdefault(other.key, other.name)
                break


def closure(dists, roots):
    out = []
    todo = [canonical(r) for r in roots]
    while todo:
        key = todo.pop()
        if key in out:
            continue
        if key not in dists:
            sys.exit("debian_wheels: %s is not installed (its Debian package is missing)" % key)
        out.append(key)
        todo += list(dists[key].requires)
    return sorted(out)


def files_of(dist):
    """(archive name, real path) of every file, following links to folders
    (matplotlib/mpl-data -> /usr/share/matplotlib/mpl-data)."""
    out = {}
    for p in dist.paths:
        rel = p[len(SITE) + 1 :]
        if "__pycache__" in rel.split("/") or rel.endswith(".pyc"):
            continue
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p, followlinks=True):
                dirs[:] = [x for x in dirs if x != "__pycache__"]
                for f in files:
                    full = os.path.join(root, f)
                    if not f.endswith(".pyc") and os.path.isfile(full):
                        out[os.path.join(rel, os.path.relpath(full, p))] = full
        elif os.path.isfile(p):
            out[rel] = p
    return sorted(out.items())


def record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def build_wheel(dist, house):
    files = files_of(dist)
    binary = any(".so" in os.path.basename(a) for a, _ in files)
    py = "cp%d%d" % sys.version_info[:2]
    tag = "%s-%s-%s" % (py, py, sysconfig.get_platform().replace("-", "_").replace(".", "_"))
    if not binary:
        tag = "py3-none-any"
    base = "%s-%s" % (wheel_name(dist.name), dist.version)
    target = os.path.join(house, "%s-%s.whl" % (base, tag))
    if os.path.exists(target):
        return target, False
    info = base + ".dist-info"
    meta = dist.meta.metadata
    lines = ["Metadata-Version: 2.1", "Name: " + dist.name, "Version: " + dist.version]
    for field in ("Summary", "Home-page", "License", "Requires-Python"):
        if meta.get(field) and meta.get(field) != "UNKNOWN":
            lines.append("%s: %s" % (field, meta.get(field)))
    lines += ["Requires-Dist: " + r for _, r in sorted(dist.requires.items())]
    extra = {
        "METADATA": "\n".join(lines) + "\n\nBuilt by minicluster from Debian's package "
        + dist.deb.name + " (" + dist.info + ").\n",
        "WHEEL": "Wheel-Version: 1.0\nGenerator: minicluster debian_wheels.py\n"
        "Root-Is-Purelib: %s\nTag: %s\n" % ("false" if binary else "true", tag),
    }
    for name in ("entry_points.txt", "top_level.txt"):
        text = dist.meta.read_text(name)
        if text:
            extra[name] = text
    record = []
    partial = target + ".part"
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        for arc, real in files:
            with open(real, "rb") as f:
                data = f.read()
            zi = zipfile.ZipInfo(arc, ZIP_DATE)
            zi.external_attr = (os.stat(real).st_mode & 0o777 | 0o100000) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
            record.append("%s,%s,%d" % (arc, record_hash(data), len(data)))
        for name, text in extra.items():
            data = text.encode()
            arc = info + "/" + name
            z.writestr(zipfile.ZipInfo(arc, ZIP_DATE), data)
            record.append("%s,%s,%d" % (arc, record_hash(data), len(data)))
        record.append(info + "/RECORD,,")
        z.writestr(zipfile.ZipInfo(info + "/RECORD", ZIP_DATE), "\n".join(record) + "\n")
    os.replace(partial, target)
    return target, True


def build_stack(dists, keys, folder):
    site = os.path.join(folder, "site-packages")
    bindir = os.path.join(folder, "bin")
    os.makedirs(site, exist_ok=True)
    os.makedirs(bindir, exist_ok=True)
    tops = set()
    for key in keys:
        d = dists[key]
        tops.add(d.info)
        tops.update(os.path.join(SITE, p[len(SITE) + 1 :].split("/")[0]) for p in d.paths)
    for top in sorted(tops):
        link = os.path.join(site, os.path.basename(top))
        if not os.path.lexists(link):
            os.symlink(top, link)
    for key in keys:
        d = dists[key]
        points = configparser.ConfigParser(delimiters=("=",), interpolation=None)
        points.optionxform = str
        points.read_string(d.meta.read_text("entry_points.txt") or "")
        if not points.has_section("console_scripts"):
            continue
        for script, target in points.items("console_scripts"):
            module, _, func = target.partition(":")
            func = func.split("[")[0].strip()
            path = os.path.join(bindir, script)
            with open(path, "w") as f:
                f.write(
                    "#!/usr/bin/env python\n# %s of %s %s (minicluster module stack)\n"
                    "import sys\nfrom %s import %s\nsys.argv[0] = %r\nsys.exit(%s())\n"
                    % (script, d.name, d.version, module.strip(), func.split(".")[0], script,
                       func)
                )
            os.chmod(path, 0o755)
    with open(os.path.join(folder, "packages.txt"), "w") as f:
        for key in keys:
            f.write("%s %s\n" % (dists[key].name, dists[key].version))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheelhouse", required=True)
    parser.add_argument("--stacks", required=True)
    parser.add_argument("--stack", action="append", default=[], help="NAME/VERSION=dist,...")
    parser.add_argument("--stamp")
    args = parser.parse_args()
    debs, depends, provides = read_debs()
    attach_library_parts(debs)
    dists = collect_dists(debs)
    resolve_requirements(dists, debs, depends, provides)
    os.makedirs(args.wheelhouse, exist_ok=True)
    manifest = os.path.join(args.wheelhouse, "debian-wheels.txt")
    if os.path.exists(manifest):
        with open(manifest) as f:
            for line in f:
                fields = line.split()
                if len(fields) == 4 and fields[3].endswith(".whl"):
                    old = os.path.join(args.wheelhouse, fields[3])
                    if os.path.exists(old):
                        os.remove(old)
    wanted = set()
    for spec in args.stack:
        folder, _, roots = spec.partition("=")
        keys = closure(dists, roots.split(","))
        wanted.update(keys)
        build_stack(dists, keys, os.path.join(args.stacks, folder))
    notes = []
    for key in sorted(wanted):
        d = dists[key]
        wheel, built = build_wheel(d, args.wheelhouse)
        line = "%s %s %s %s" % (d.name, d.version, d.deb.name, os.path.basename(wheel))
        notes.append(line if built else "# kept, not built (another origin): " + line)
        if d.dropped:
            notes.append("  left out (not installed here): " + "; ".join(d.dropped))
    with open(manifest, "w") as f:
        f.write("# name version debian-package wheel (software/python/debian_wheels.py)\n")
        f.write("\n".join(notes) + "\n")
    if args.stamp:
        with open(args.stamp, "w") as f:
            f.write("%d wheels\n" % len(wanted))


if __name__ == "__main__":
    main()
