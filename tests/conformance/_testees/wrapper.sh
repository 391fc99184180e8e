#!/bin/sh
# A testee behind a wrapper whose children outlive it: one holds stdout open,
# one is detached; their pids go to "$1.holder" and "$1.detached".
read -r line
echo '{"type":"hello","protocol":"papercusp-conformance/1","testee":"wrapper","kinds":["version"]}'
sleep 8 &
echo $! > "$1.holder"
sleep 120 </dev/null >/dev/null 2>&1 &
echo $! > "$1.detached"
wait
