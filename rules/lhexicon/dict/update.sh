#!/bin/sh
# update.sh regenerates words.txt.gz and LICENSE from the npm package word-list (one command:
# rules/lhexicon/dict/update.sh [version]). It keeps the words of a-z only, 2 letters or more,
# sorted and unique, gzipped without a timestamp so that the same package gives the same file.
set -eu
version=${1:-4.1.0}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent "word-list@$version" >/dev/null
tar xzf "word-list-$version.tgz"
grep -E '^[a-z]{2,}$' package/words.txt | LC_ALL=C sort -u | gzip -9n >"$here/words.txt.gz"
cp package/license "$here/LICENSE"
echo "word-list $version: $(gzip -dc "$here/words.txt.gz" | wc -l) words" >&2
