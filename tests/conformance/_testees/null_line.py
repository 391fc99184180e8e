"""A testee that answers the hello, then the line `null`."""
import sys
sys.stdin.readline()
print('{"type":"hello","protocol":"papercusp-conformance/1","testee":"n","kinds":["version"]}', flush=True)
print("null", flush=True)
for _ in sys.stdin:
    pass
