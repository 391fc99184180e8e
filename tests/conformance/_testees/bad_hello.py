"""A testee that speaks another protocol, then hangs; its pid goes to argv[1]."""
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
sys.stdin.readline()
print('{"type":"hello","protocol":"papercusp-conformance/2"}', flush=True)
time.sleep(120)
