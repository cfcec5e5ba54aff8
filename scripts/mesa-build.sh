#!/usr/bin/env bash
# Fetches Mesa 22.3.6 (Debian bookworm's source package, checksums pinned below), builds the
# parts of its Intel compiler the Mesa shim links against, and builds the shim
# (compiler/mesa-shim/) into the cache directory. Nothing of Mesa is written into the
# repository; `eufuzz check|campaign --backend mesa:PASS` finds the shim in the cache.
#
#   scripts/mesa-build.sh            # everything (idempotent: finished steps are skipped)
#   scripts/mesa-build.sh --shim     # only rebuild the shim (Mesa already built)
#
# Cache: ${EUFUZZ_MESA_CACHE:-$HOME/.cache/eufuzz-mesa}. Heavy steps run under `nice`, with
# at most ${EUFUZZ_MESA_JOBS:-2} jobs.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${EUFUZZ_MESA_CACHE:-$HOME/.cache/eufuzz-mesa}"
JOBS="${EUFUZZ_MESA_JOBS:-2}"
# The exact Debian source package: 22.3.6 as bookworm ships it. The upstream tarball is
# what gets built (Debian's packaging patches are not applied: they touch packaging, not
# src/intel/compiler).
DEB_VERSION="22.3.6-1+deb12u2"
DSC="mesa_${DEB_VERSION}.dsc"
DSC_SHA256="bd1034d3d29ef9e1e638bb5645a0ca31426bc2bcbb60842cbad2adcccffb4a00"
ORIG="mesa_22.3.6.orig.tar.gz"
ORIG_SHA256="737cb8e5d380ce1a0ad01fb8b74db7f27303435c353e753d2302e8cf3927bad2"
SRC="$CACHE/mesa-22.3.6"
BUILD="$CACHE/build"
SHIM_OUT="$CACHE/eufuzz-mesa-shim"
NICE=(nice -n 15)
# Mesa's generators need mako, which the system Python has (python3-mako); a python3 from
# pyenv or a virtualenv earlier on PATH would not, so the system's comes first.
export PATH="/usr/bin:$PATH"

say() { echo "mesa-build: $*" >&2; }
die() { say "$*"; exit 1; }

# The static libraries of the Mesa build the shim links, in link order (what
# src/intel/compiler's own test executables link, see its meson.build).
MESA_LIBS=(
    src/intel/compiler/libintel_compiler.a
    src/intel/dev/libintel_dev.a
    src/compiler/nir/libnir.a
    src/compiler/libcompiler.a
    src/util/libmesa_util.a
    src/util/format/libmesa_format.a
    src/c11/impl/libmesa_util_c11.a
    src/util/libmesa_util_sse41.a
)

build_shim() {
    [ -f "$BUILD/compile_commands.json" ] || die "no Mesa build in $BUILD: run scripts/mesa-build.sh without --shim first"
    # The shim is compiled exactly as Mesa compiles src/intel/compiler (the same defines and
    # code-generation flags, e.g. -flifetime-dse=1, which Mesa's ralloc-zeroed objects need),
    # so its view of fs_inst and friends is the library's.
    local flags
    flags="$(/usr/bin/python3 - "$BUILD/compile_commands.json" <<'PY'
import json, shlex, sys
for e in json.load(open(sys.argv[1])):
    if e["file"].endswith("src/intel/compiler/brw_fs_cse.cpp"):
        args = shlex.split(e["command"])[1:]
        out, skip = [], False
        for a in args:
            if skip:
                skip = False
                continue
            if a in ("-MQ", "-MF", "-o"):
                skip = True
                continue
            if a in ("-c", "-MD") or a.endswith(".cpp") or a.startswith("-fdiagnostics-color"):
                continue
            out.append(a)
        print(shlex.join(out))
        break
PY
)"
    [ -n "$flags" ] || die "brw_fs_cse.cpp is not in $BUILD/compile_commands.json"
    local libs=()
    for l in "${MESA_LIBS[@]}"; do
        libs+=("$BUILD/$l")
    done
    say "building the shim into $SHIM_OUT"
    # shellcheck disable=SC2086 # the flags are a shell-quoted list, split on purpose
    (cd "$BUILD" && eval "\"\${NICE[@]}\" g++ $flags -Wno-unused-parameter \
        \"\$ROOT\"/compiler/mesa-shim/src/*.cpp \
        -Wl,--start-group \"\${libs[@]}\" -Wl,--end-group \
        \$(pkg-config --libs libdrm) -lz -lpthread -ldl -lm \
        -o \"\$SHIM_OUT.tmp\"") || die "the shim did not build"
    mv -f "$SHIM_OUT.tmp" "$SHIM_OUT"
    say "done: $SHIM_OUT"
}

if [ "${1:-}" = "--shim" ]; then
    build_shim
    exit 0
fi

mkdir -p "$CACHE"

# 1. Tools and libraries. As root, missing Debian packages are installed; otherwise the
# script names them and stops.
missing=()
for tool in meson:meson ninja:ninja-build flex:flex bison:bison glslangValidator:glslang-tools \
    pkg-config:pkg-config g++:g++ dpkg-source:dpkg-dev; do
    command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
/usr/bin/python3 -c 'import mako' 2>/dev/null || missing+=(python3-mako)
pkg-config --exists libdrm 2>/dev/null || missing+=(libdrm-dev)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        say "installing: ${missing[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2 \
            || die "apt-get install ${missing[*]} failed"
    else
        die "missing packages: ${missing[*]} (install them: sudo apt-get install ${missing[*]})"
    fi
fi

# 2. The source: a deb-src entry for bookworm, then the pinned package, checksums verified.
if [ ! -f "$SRC/meson.build" ]; then
    if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src ' /etc/apt/sources.list; then
        [ "$(id -u)" = 0 ] || die "no deb-src entry in /etc/apt: add one for bookworm main (as root this script adds it)"
        say "adding a deb-src entry for bookworm"
        cat > /etc/apt/sources.list.d/eufuzz-deb-src.sources <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
        apt-get update -q >&2 || die "apt-get update failed"
    fi
    dl="$CACHE/download"
    mkdir -p "$dl"
    if [ ! -f "$dl/$ORIG" ]; then
        (cd "$dl" && apt-get source --download-only "mesa=$DEB_VERSION" >&2) \
            || die "apt-get source mesa=$DEB_VERSION failed (is bookworm's deb-src reachable?)"
    fi
    echo "$DSC_SHA256  $dl/$DSC" | sha256sum -c --quiet - || die "checksum mismatch: $DSC"
    echo "$ORIG_SHA256  $dl/$ORIG" | sha256sum -c --quiet - || die "checksum mismatch: $ORIG"
    say "unpacking $ORIG"
    rm -rf "$SRC.tmp" && mkdir -p "$SRC.tmp"
    tar -xzf "$dl/$ORIG" -C "$SRC.tmp" --strip-components=1
    rm -rf "$SRC" && mv "$SRC.tmp" "$SRC"
fi

# 3. Configure: the Intel Vulkan driver pulls in the compiler; everything else is off.
if [ ! -f "$BUILD/build.ninja" ]; then
    say "configuring $BUILD"
    rm -rf "$BUILD"
    "${NICE[@]}" meson setup "$BUILD" "$SRC" \
        -Dbuildtype=debugoptimized -Db_ndebug=false \
        -Dgallium-drivers= -Dvulkan-drivers=intel -Dplatforms= -Dglx=disabled \
        -Degl=disabled -Dgles1=disabled -Dgles2=disabled -Dopengl=false -Dllvm=disabled \
        -Dbuild-tests=true -Dshared-glapi=disabled -Dzstd=disabled >&2 \
        || die "meson setup failed (see the output above)"
fi

# 4. Only the libraries the shim links.
say "building ${MESA_LIBS[*]}"
(cd "$BUILD" && "${NICE[@]}" ninja -j"$JOBS" "${MESA_LIBS[@]}" >&2) || die "ninja failed"

build_shim
