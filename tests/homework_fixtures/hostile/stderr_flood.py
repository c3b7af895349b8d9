# Write 64 MiB on stderr and 16 MiB on stdout.
import os

block = b"x" * 2**20
for _ in range(64):
    os.write(2, block)
for _ in range(16):
    print("y" * 2**20)
