"""A testee that answers the hello, then a line that is not JSON, then hangs; pid to argv[1]."""
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
sys.stdin.readline()
print('{"type":"hello","protocol":"papercusp-conformance/1","testee":"g","kinds":["version"]}', flush=True)
sys.stderr.write("about to go wrong\n")
sys.stderr.flush()
print("this is not json", flush=True)
time.sleep(120)
