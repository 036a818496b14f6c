#!/bin/sh
# The LÖVE game (demos/love) under Debian's love 11.4 and Xvfb: steer.so built
# for LuaJIT is copied beside main.lua (as a game ships it, docs/love.md), the
# game steps 600 scripted frames (`--test`), and its world hash must equal
# the one lua5.4 gives for the same scene; its screenshot must have every
# boid's colour at the boid's position and background where none is.
# usage: run_love.sh LOVE XVFB_RUN LUA54 GAME_DIR LUAJIT_MODULE_DIR LUA54_MODULE_DIR WORK_DIR
set -eu
love=$1 xvfb=$2 lua54=$3 game=$4 jitmod=$5 mod54=$6 work=$7
rm -rf "$work" && mkdir -p "$work/game" "$work/out" "$work/xdg"
cp "$game"/*.lua "$work/game/" && cp "$jitmod/steer.so" "$work/game/"
expected=$(cd "$game" && LUA_CPATH="$mod54/?.so" "$lua54" -e \
  'local s = dofile("scene.lua"); print((s.run(require "steer", dofile("think.lua"), 600)))')
echo "lua5.4: $expected"
XDG_DATA_HOME="$work/xdg" timeout 120 "$xvfb" -a -s "-screen 0 1024x768x24" \
  "$love" "$work/game" --test "$work/out" > "$work/love.log" 2>&1 || { cat "$work/love.log"; exit 1; }
cat "$work/out/result.txt"
field() { sed -n "s/^$1 //p" "$work/out/result.txt"; }
[ "$(field hash)" = "$expected" ] || { echo "hash differs from lua5.4's"; exit 1; }
[ "$(field frames)" = 600 ] && [ "$(field boids)" = 80 ] || { echo "wrong frames or boids"; exit 1; }
[ "$(field off_colour)" = 0 ] || { echo "boids missing from the screenshot"; exit 1; }
[ "$(field background)" = true ] || { echo "no background where no agent is"; exit 1; }
cp "$(field shot)" "$work/shot.png"
echo "love ok: $work/shot.png"
