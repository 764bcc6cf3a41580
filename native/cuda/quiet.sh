#!/bin/sh
# Runs a build command (CMake, for Maven) with its output in a log file: silent when it succeeds,
# so that a quiet Maven build stays quiet; when it fails, the log's last lines and where the rest is.
#   quiet.sh LOG [--new] COMMAND [ARG...]      (--new starts the log afresh)
set -u
log=$1
shift
mkdir -p "$(dirname "$log")"
if [ "${1:-}" = --new ]; then
  shift
  : >"$log"
fi
echo "+ $*" >>"$log"
"$@" >>"$log" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
  echo "cuzk: the native build failed (exit $status): $*" >&2
  tail -n 60 "$log" >&2
  echo "cuzk: the whole output is in $log" >&2
fi
exit "$status"
