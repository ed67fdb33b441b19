"""python -m hpcdemo [where | files DIR [N]]

where       the node, the job and the Python this runs on
files DIR   writes then reads N small files (default 2000) in DIR and prints files per second:
            compare a shared filesystem (/scratch, /project) with $SLURM_TMPDIR.
"""

import os
import socket
import sys
import time


def where():
    print(f"host:    {socket.gethostname()}")
    print(f"job:     {os.environ.get('SLURM_JOB_ID', '(not in a job)')}")
    print(f"python:  {sys.executable} {sys.version.split()[0]}")
    print(f"prefix:  {sys.prefix}")


def files(directory, count):
    target = os.path.join(directory, f"hpcdemo-{os.getpid()}")
    os.makedirs(target)
    payload = b"x" * 1024
    start = time.perf_counter()
    for i in range(count):
        with open(os.path.join(target, f"f{i}"), "wb") as f:
            f.write(payload)
    written = time.perf_counter() - start
    start = time.perf_counter()
    for i in range(count):
        with open(os.path.join(target, f"f{i}"), "rb") as f:
            f.read()
    read = time.perf_counter() - start
    for i in range(count):
        os.unlink(os.path.join(target, f"f{i}"))
    os.rmdir(target)
    print(f"{directory}: {count} files of 1 KB: write {count / written:.0f} files/s, "
          f"read {count / read:.0f} files/s")


def main():
    args = sys.argv[1:]
    if not args or args[0] == "where":
        where()
    elif args[0] == "files" and len(args) >= 2:
        files(args[1], int(args[2]) if len(args) > 2 else 2000)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
