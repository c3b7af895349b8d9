# The sandbox escape of the audit: unmount /tmp, remount / read-write through ctypes, then
# write outside, delete a classmate's file, and replace grades.csv by a symlink.
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
results = {"umount": libc.umount2(b"/tmp", 2), "umount_errno": ctypes.get_errno(),
           "remount": libc.mount(None, b"/", None, 32 | 4096, None),
           "remount_errno": ctypes.get_errno()}
for path in ("@ROOT@/written-outside.txt", "@SUBMISSIONS@/ESCAPED.txt",
             "/tmp/mlcore-escape-@TOKEN@.txt", "/var/tmp/mlcore-escape-@TOKEN@.txt"):
    try:
        with open(path, "w") as handle:
            handle.write("escaped")
    except OSError as error:
        results[path] = error.errno
for path in ("@SUBMISSIONS@/a_solution.ipynb", "@OUT@/grades.csv"):
    try:
        os.remove(path)
    except OSError as error:
        results[path] = error.errno
try:
    os.symlink("@ROOT@/hijacked.txt", "@OUT@/grades.csv")
except OSError as error:
    results["symlink"] = error.errno
print(results)
