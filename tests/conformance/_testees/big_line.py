"""A testee whose first outcome line is 17 Mi characters (over the runner's 16 Mi line limit)."""
import json, sys
sys.stdin.readline()
print('{"type":"hello","protocol":"papercusp-conformance/1","testee":"big","kinds":["version"]}', flush=True)
first = True
for line in sys.stdin:
    case = json.loads(line)
    outcome = "a" * (17 * 1024 * 1024) if first else {}
    first = False
    sys.stdout.write(json.dumps({"type": "outcome", "id": case["id"], "outcome": outcome}) + "\n")
    sys.stdout.flush()
