# Start a detached process that holds the kernel's output pipes and would outlive grading.
import subprocess

subprocess.Popen(["sleep", "313"], start_new_session=True)
subprocess.Popen(["sh", "-c", "exec sleep 314 >&2"], start_new_session=True, env={})
