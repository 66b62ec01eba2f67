#!/usr/bin/env python3
"""Runs a command at a pseudo-terminal until its first prompt, then types `quit!`.

  bench_pty.py PROMPT COMMAND [ARG...]

scripts/bench's progress workload times recsh's interactive open this way, with and
without its progress display. Waits for PROMPT in the output and for the terminal to
leave canonical mode (libedit prints the prompt before it switches), so the keys reach
the line editor. Exits with the command's status; 1 if it never prompted.
"""

import os
import pty
import select
import sys
import termios
import time


def main():
    prompt = sys.argv[1].encode()
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.argv[2], sys.argv[2:])
    seen = b""
    deadline = time.time() + 600
    while prompt not in seen[-4096:]:
        if time.time() > deadline:
            return 1
        ready, _, _ = select.select([fd], [], [], 1)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                return 1
    while termios.tcgetattr(fd)[3] & (termios.ICANON | termios.ECHO):
        time.sleep(0.001)
    os.write(fd, b"quit!\r")
    while True:
        try:
            if not os.read(fd, 65536):
                break
        except OSError:
            break
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
