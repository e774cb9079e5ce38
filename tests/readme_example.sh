#!/usr/bin/env bash
# Checks that the README's C++ example (its first ```cpp block) is made of lines of the example program, so
# that what a newcomer copies is what the tests build and run. Usage: readme_example.sh README.md PROGRAM.cpp
set -u
norm() { sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e 's/[[:space:]][[:space:]]*/ /g' "$@"; }
block=$(awk '/^```cpp$/ {on = 1; next} on && /^```/ {exit} on' "$1" | norm | grep -v '^$')
[ -n "$block" ] || { echo "README has no \`\`\`cpp block"; exit 1; }
program=$(norm "$2")
count=0
while IFS= read -r line; do
  grep -qxF -- "$line" <<<"$program" || { echo "README example line not in $2: $line"; exit 1; }
  count=$((count + 1))
done <<<"$block"
echo "README example: $count lines, all in $2"
