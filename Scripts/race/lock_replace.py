#!/usr/bin/env python3
"""A user who never lets root have its lock: holds `<domain>.lock` and, every PERIOD seconds
(just before the wait of a root run would end), renames a new lock file it already holds over
the name, then lets the old one go. Root then gets the old lock, finds the name naming another
file, and must go round again: without one deadline for the whole wait, for ever.

Usage: lock_replace.py FOLDER LOCKNAME PERIOD   (runs until killed; prints "held" once the
first lock is in place, on standard output)
"""

import fcntl
import os
import sys
import time


def main():
    folder, name, period = sys.argv[1], sys.argv[2], float(sys.argv[3])
    target = os.path.join(folder, name)
    held = None
    turn = 0
    while True:
        temporary = os.path.join(folder, ".%s.replacement-%d" % (name, turn))
        fd = os.open(temporary, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.rename(temporary, target)
        if held is not None:
            os.close(held)  # root, waiting on the old file, gets it now: a lock of nothing
        else:
            print("held", flush=True)
        held = fd
        turn += 1
        time.sleep(period)


if __name__ == "__main__":
    main()
