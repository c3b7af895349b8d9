# Write 16 MiB on stderr and 4 MiB on stdout (the grader keeps 64 KiB of stderr).
import os

block = b"x" * 2**20
for _ in range(16):
    os.write(2, block)
for _ in range(4):
    print("y" * 2**20)
