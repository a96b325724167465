#!/bin/sh
# Builds arc's on-device helper: src/**/*.java -> javac (Java 8 class files) -> dx -> arc-helper.dex, and records
# its sha256 and the sha256 of the sources it came from in arc-helper.json. For people changing the helper: the
# built dex is committed, so users and CI need no Java.
#
# Needs javac 9+ (for --release 8) and java. Debian 12 has neither dx nor android.jar; Debian 11 (bullseye) has
# both (dalvik-exchange: dx 1.16; libandroid-23-java: android.jar, API 23). This script fetches those two packages
# from Debian's bullseye archive with apt-get and a private sources list and state folder (the machine's apt
# configuration is not touched), and unpacks them with dpkg-deb -x into $ARC_HELPER_TOOLS
# (default: ~/.cache/arc-helper-build). Set ARC_HELPER_ANDROID_JAR and ARC_HELPER_DX_JAR to use your own.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tools=${ARC_HELPER_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/arc-helper-build}
mirror=${ARC_HELPER_DEBIAN_MIRROR:-http://deb.debian.org/debian}
android_jar=${ARC_HELPER_ANDROID_JAR:-$tools/root/usr/lib/android-sdk/platforms/android-23/android.jar}
dx_jar=${ARC_HELPER_DX_JAR:-$tools/root/usr/lib/android-sdk/build-tools/debian/lib/dx.jar}

if [ ! -f "$android_jar" ] || [ ! -f "$dx_jar" ]; then
  command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || {
    echo "build.sh: dx and android.jar are missing, and fetching them needs apt-get and dpkg-deb (Debian)." >&2
    echo "Set ARC_HELPER_ANDROID_JAR and ARC_HELPER_DX_JAR to an android.jar (API 23+) and a dx.jar." >&2
    exit 2
  }
  echo "build.sh: fetching dalvik-exchange and libandroid-23-java from Debian bullseye into $tools" >&2
  mkdir -p "$tools/lists/partial" "$tools/cache/archives/partial" "$tools/debs" "$tools/root"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bullseye main" >"$tools/sources.list"
  apt="-o Dir::Etc::SourceList=$tools/sources.list -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$tools/lists -o Dir::Cache=$tools/cache -o Debug::NoLocking=1"
  # shellcheck disable=SC2086
  apt-get -q $apt update >&2
  # shellcheck disable=SC2086
  (cd "$tools/debs" && apt-get -q $apt download dalvik-exchange libandroid-23-java >&2)
  for deb in "$tools"/debs/*.deb; do dpkg-deb -x "$deb" "$tools/root"; done
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sources=$(cd "$here" && find src -name '*.java' | LC_ALL=C sort)
(cd "$here" && javac -nowarn --release 8 -cp "$android_jar" -d "$work/classes" $sources)
java -jar "$dx_jar" --dex --min-sdk-version=21 --output="$work/arc-helper.dex" "$work/classes"
cp "$work/arc-helper.dex" "$here/arc-helper.dex"

# The sources' hash: for each file in byte order of its path, the path, a NUL, its bytes, a NUL (test/helper checks it).
sources_sha=$(cd "$here" && for f in $sources; do printf '%s\0' "$f"; cat "$f"; printf '\0'; done | sha256sum | cut -d' ' -f1)
dex_sha=$(sha256sum "$here/arc-helper.dex" | cut -d' ' -f1)
bytes=$(wc -c <"$here/arc-helper.dex" | tr -d ' ')
javac_version=$(javac -version 2>&1 | sed 's/^javac //')
dx_version=$(java -jar "$dx_jar" --version 2>&1 | sed 's/^dx version //')
cat >"$here/arc-helper.json" <<JSON
{
  "dex": "arc-helper.dex",
  "sha256": "$dex_sha",
  "bytes": $bytes,
  "sourcesSha256": "$sources_sha",
  "mainClass": "arc.helper.Main",
  "minSdk": 21,
  "javac": "$javac_version",
  "dx": "$dx_version"
}
JSON
echo "arc-helper.dex: $bytes bytes, sha256 $dex_sha" >&2
