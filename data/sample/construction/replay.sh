#!/bin/sh
# Agent command that replays a recorded agent turn (used to build data/sample/runs with
# `deno task reporeuse run`): copies the turn's log (<agent dir>/turn<N>/log.*) into the run
# directory and writes the submission (<agent dir>/turn<N>.py) at the required path, as the agent
# did.
#   replay.sh <agent dir> <turn> <submit path> <log dir>
set -e
src="$1/turn$2"
cp "$src"/log.* "$4"/
cp "$src.py" "$3"
