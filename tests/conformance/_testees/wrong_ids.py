"""A testee that answers every case under an id it was not sent."""
import json, sys
sys.stdin.readline()
print('{"type":"hello","protocol":"papercusp-conformance/1","testee":"w","kinds":["version"]}', flush=True)
for n, _ in enumerate(sys.stdin, 1):
    print(json.dumps({"type": "outcome", "id": "bogus-%d" % n, "outcome": {}}), flush=True)
