#!/bin/sh
# update-player.sh fetches the asciinema-player npm package at the pinned version, checks the
# tarball against the pinned integrity (npm's sha512), and copies the player's bundle, its style
# sheet and its licence into static/player, the web companion's embedded assets, with the
# SHA256SUMS of the files copied (one command: web/update-player.sh). The files are committed, so
# that the build needs no network; web's TestPlayerAssets checks them against SHA256SUMS and the
# pin. To move to another version, change both lines below and run it again.
set -eu
version=3.17.0
integrity=sha512-JbjNJmA2TLIeYNaOEja+kVSzXadKoqpIzVVmfBGNj2DmdtE/vExBCnkE8NYEcpaQcDvUYg8Ltt0urT80frACmw==
here=$(cd "$(dirname "$0")" && pwd)
out="$here/static/player"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent "asciinema-player@$version" >/dev/null
got="sha512-$(openssl dgst -sha512 -binary "asciinema-player-$version.tgz" | base64 -w0)"
if [ "$got" != "$integrity" ]; then
	echo "asciinema-player $version: the tarball is $got, not the pinned $integrity" >&2
	exit 1
fi
tar xzf "asciinema-player-$version.tgz"
mkdir -p "$out"
cp package/dist/bundle/asciinema-player.min.js package/dist/bundle/asciinema-player.css "$out/"
cp package/LICENSE "$out/LICENSE"
echo "asciinema-player $version $integrity" >"$out/VERSION"
(cd "$out" && sha256sum asciinema-player.min.js asciinema-player.css LICENSE >SHA256SUMS)
echo "asciinema-player $version: copied into $out" >&2
