# Ask for 8 GiB: refused by the address-space limit.
hog = bytearray(8 * 2**30)
