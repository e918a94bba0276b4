#!/usr/bin/env python3
"""A user who rewrites its own large domain in place while root reads it: the file alternates,
as fast as it can be written, between two versions of the same size and layout (every value
"A…" in one, "B…" in the other), each written over the old bytes with one pwrite, and its
modification time put back every time, so that size and modification time never change. A
reader that answers anything but all-A or all-B answered a file that never was.

Usage: rewrite.py FILE   (FILE holds version A; runs until killed; prints "rewriting" once
started, on standard output)
"""

import os
import sys


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        first = f.read()
    second = first.replace(b"AAAAAAAAAAAA", b"BBBBBBBBBBBB")
    info = os.stat(path)
    times = (info.st_atime_ns, info.st_mtime_ns)
    fd = os.open(path, os.O_WRONLY)
    print("rewriting", flush=True)
    versions = (second, first)
    turn = 0
    while True:
        os.pwrite(fd, versions[turn % 2], 0)
        os.utime(fd, ns=times)
        turn += 1


if __name__ == "__main__":
    main()
