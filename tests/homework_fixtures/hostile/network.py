# Reach the host: a UNIX socket on the host's filesystem, an abstract UNIX socket, TCP on
# the host's loopback.
import socket

for family, address in ((socket.AF_UNIX, "@UNIX@"), (socket.AF_UNIX, "\0@ABSTRACT@"),
                        (socket.AF_INET, ("127.0.0.1", @PORT@))):
    try:
        with socket.socket(family, socket.SOCK_STREAM) as client:
            client.settimeout(2)
            client.connect(address)
            client.sendall(b"hello from a submission")
    except OSError:
        pass
