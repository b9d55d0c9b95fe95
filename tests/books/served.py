"""What the tests of publish serve share (test_serve.py,
test_serve_escape.py): a GET sent as it is written, which no client
normalises."""
import socket


def raw_get(port, path, host=None):
    """(status, body) of GET path."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n"
               % (path, host or "127.0.0.1:%d" % port)).encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode("utf-8", "replace")
